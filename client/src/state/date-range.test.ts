import { beforeEach, describe, expect, it } from 'vitest';
import { createStore } from 'jotai';
import {
  dateRangeAtom,
  historicRange,
  loadDateRange,
  relativeRange,
  resolveRange,
  todayRange,
} from './date-range';
import { STORAGE_KEYS } from './storage';
import { installLocalStorage } from '../testing/memory-storage';

const storage = installLocalStorage();

const at = (iso: string) => new Date(iso).getTime();
const NOW = at('2026-11-22T14:30:00');

beforeEach(() => storage.clear());

describe('the date range (spec 000 §4)', () => {
  it('missing: today 00:00:00 to 23:59:59, historic, duration 0, and stored', () => {
    const range = loadDateRange(NOW);
    expect(range).toEqual({
      from: at('2026-11-22T00:00:00'),
      to: at('2026-11-22T23:59:59'),
      mode: 'historic',
      duration: 0,
    });
    expect(storage.getItem(STORAGE_KEYS.dateFrom)).toBe(String(range.from));
    expect(storage.getItem(STORAGE_KEYS.dateSetAt)).toBe(String(NOW));
  });

  it('a range set today is kept; one set on an earlier day resets to today', () => {
    const chosen = historicRange(at('2026-11-01T00:00:00'), at('2026-11-10T12:00:00'));
    storage.setItem(STORAGE_KEYS.dateFrom, String(chosen.from));
    storage.setItem(STORAGE_KEYS.dateTo, String(chosen.to));
    storage.setItem(STORAGE_KEYS.dateMode, 'historic');
    storage.setItem(STORAGE_KEYS.dateSetAt, String(at('2026-11-22T08:00:00')));
    expect(loadDateRange(NOW)).toEqual(chosen);
    storage.setItem(STORAGE_KEYS.dateSetAt, String(at('2026-11-21T23:59:00')));
    expect(loadDateRange(NOW)).toEqual(todayRange(NOW));
  });

  it('invalid stored values reset to today', () => {
    for (const [from, to] of [
      ['abc', '1'],
      [String(at('2026-11-22T10:00:00')), String(at('2026-11-22T09:00:00'))],
    ] as const) {
      storage.setItem(STORAGE_KEYS.dateFrom, from);
      storage.setItem(STORAGE_KEYS.dateTo, to);
      storage.setItem(STORAGE_KEYS.dateSetAt, String(NOW));
      expect(loadDateRange(NOW)).toEqual(todayRange(NOW));
    }
  });

  it('relative ranges: last 2 hours (the default), N days, weeks and calendar months, sliding', () => {
    expect(relativeRange({ amount: 2, unit: 'hours' }, NOW)).toMatchObject({
      from: NOW - 2 * 3_600_000,
      to: NOW,
      mode: 'relative',
      duration: 2 * 3_600_000,
    });
    expect(relativeRange({ amount: 3, unit: 'days' }, NOW).from).toBe(NOW - 3 * 86_400_000);
    expect(relativeRange({ amount: 2, unit: 'weeks' }, NOW).from).toBe(NOW - 14 * 86_400_000);
    expect(relativeRange({ amount: 1, unit: 'months' }, NOW).from).toBe(at('2026-10-22T14:30:00'));
    const later = NOW + 60_000;
    expect(resolveRange(relativeRange({ amount: 2, unit: 'hours' }, NOW), later)).toMatchObject({
      from: later - 2 * 3_600_000,
      to: later,
    });
    expect(() => relativeRange({ amount: 0, unit: 'days' }, NOW)).toThrow(RangeError);
    expect(() => historicRange(NOW, NOW - 1)).toThrow(RangeError);
  });

  it('the atom stores what is set, and a relative choice survives a reload the same day', () => {
    const store = createStore();
    store.set(dateRangeAtom, relativeRange({ amount: 5, unit: 'days' }, Date.now()));
    expect(storage.getItem(STORAGE_KEYS.dateDuration)).toBe('5 days');
    const reloaded = loadDateRange(Date.now());
    expect(reloaded.mode).toBe('relative');
    expect(reloaded.relative).toEqual({ amount: 5, unit: 'days' });
  });
});
