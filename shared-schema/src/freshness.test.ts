import { describe, expect, it } from 'vitest';
import type { ConnectionState } from './models/connection';
import {
  CONNECTION_REPORT_MS,
  STALE_GRACE_MS,
  UNKNOWN_SOURCE_STALE_MS,
  streamFreshness,
  type StreamSource,
} from './freshness';

const NOW = 1_800_000_000_000;
const MIN = 60_000;

const status = (s: Partial<ConnectionState>): ConnectionState => ({
  state: 'connected',
  error: null,
  last_read: NOW - 1_000,
  at: NOW - 1_000,
  ...s,
});
const source = (s: Partial<StreamSource> = {}): StreamSource => ({
  intervalMs: 1_000,
  status: status({}),
  gatewayOnline: true,
  ...s,
});

describe('streamFreshness', () => {
  it('a failing connection marks the value at once, since the failure began', () => {
    const failedAt = NOW - 200;
    const got = streamFreshness({
      now: NOW,
      // The value is half a second old: no fixed age has passed.
      lastValueAt: NOW - 500,
      source: source({
        status: status({ state: 'failed', error: 'Connection refused', since: failedAt, at: NOW }),
      }),
    });
    expect(got).toMatchObject({ state: 'failing', since: failedAt, error: 'Connection refused' });
  });

  it('a failure stored before `since` existed counts from when it was written', () => {
    const got = streamFreshness({
      now: NOW,
      lastValueAt: NOW - 5_000,
      source: source({ status: status({ state: 'failed', at: NOW - 1_000 }) }),
    });
    expect(got).toMatchObject({ state: 'failing', since: NOW - 1_000 });
  });

  it('a value newer than the failure: this stream is still read (another datapoint fails)', () => {
    const got = streamFreshness({
      now: NOW,
      lastValueAt: NOW - 100,
      source: source({ status: status({ state: 'failed', since: NOW - 2_000, at: NOW - 2_000 }) }),
    });
    expect(got.state).toBe('fresh');
  });

  it('healthy and unchanged far beyond the old five minutes: not marked', () => {
    // A Boolean that stays Off: its only value is an hour old, the connection reads it fine.
    const got = streamFreshness({
      now: NOW,
      lastValueAt: NOW - 60 * MIN,
      source: source({ status: status({ last_read: NOW - 80_000, at: NOW - 75_000 }) }),
    });
    expect(got).toMatchObject({ state: 'fresh', heardAt: NOW - 80_000 });
    expect(got.staleAt).toBe(NOW - 80_000 + CONNECTION_REPORT_MS + STALE_GRACE_MS);
  });

  it('nothing heard for longer than the expected interval plus grace: stale', () => {
    const lastRead = NOW - CONNECTION_REPORT_MS - STALE_GRACE_MS - 1;
    const got = streamFreshness({
      now: NOW,
      lastValueAt: NOW - 60 * MIN,
      source: source({ status: status({ last_read: lastRead }) }),
    });
    expect(got).toMatchObject({ state: 'stale', since: lastRead });
    // Just within: fresh.
    expect(
      streamFreshness({
        now: NOW - 2,
        lastValueAt: null,
        source: source({ status: status({ last_read: lastRead }) }),
      }).state,
    ).toBe('fresh');
  });

  it('a slow connection is expected to report at its own interval', () => {
    const hourly = source({ intervalMs: 60 * MIN, status: status({ last_read: NOW - 50 * MIN }) });
    expect(streamFreshness({ now: NOW, lastValueAt: null, source: hourly }).state).toBe('fresh');
    const late = source({ intervalMs: 60 * MIN, status: status({ last_read: NOW - 61 * MIN }) });
    expect(streamFreshness({ now: NOW, lastValueAt: null, source: late }).state).toBe('stale');
  });

  it('a connection that never reported: values only, at the polling interval', () => {
    const got = streamFreshness({
      now: NOW,
      lastValueAt: NOW - 30_000,
      source: source({ intervalMs: 10_000, status: null }),
    });
    expect(got).toMatchObject({ state: 'stale', since: NOW - 30_000 });
  });

  it('the gateway offline: offline, whatever the status stored last', () => {
    const got = streamFreshness({
      now: NOW,
      lastValueAt: NOW - 1_000,
      source: source({ gatewayOnline: false }),
    });
    expect(got.state).toBe('offline');
  });

  it('no known source: the fixed age', () => {
    const at = (age: number) =>
      streamFreshness({ now: NOW, lastValueAt: NOW - age, source: null }).state;
    expect(at(UNKNOWN_SOURCE_STALE_MS)).toBe('fresh');
    expect(at(UNKNOWN_SOURCE_STALE_MS + 1)).toBe('stale');
  });
});
