import { describe, expect, it } from 'vitest';
import { UUID_V7_PATTERN, uuidv7 } from './uuid';

describe('uuidv7', () => {
  it('sorts in the order made within one millisecond, also when another clock takes turns', () => {
    const frozen = Date.parse('2026-11-22T08:00:00Z');
    const made: string[] = [];
    for (let i = 0; i < 500; i++) {
      made.push(uuidv7(frozen));
      // A running clock in between (the demo seed's ids beside a test's frozen server clock).
      uuidv7(frozen + 1 + i);
    }
    expect([...made].sort()).toEqual(made);
    for (const id of made) expect(id).toMatch(UUID_V7_PATTERN);
  });

  it('keeps the time in the first 48 bits and random bits at the end', () => {
    const now = Date.parse('2030-01-02T03:04:05.678Z');
    const a = uuidv7(now);
    const b = uuidv7(now);
    expect(Number.parseInt(a.replace(/-/g, '').slice(0, 12), 16)).toBe(now);
    expect(a.slice(19)).not.toBe(b.slice(19));
    expect(a < b).toBe(true);
  });

  it('past 4,096 ids in one millisecond: still well-formed', () => {
    const now = Date.parse('2031-01-01T00:00:00Z');
    for (let i = 0; i < 5000; i++) expect(uuidv7(now)).toMatch(UUID_V7_PATTERN);
  });
});
