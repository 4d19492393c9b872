import { afterEach, describe, expect, it } from 'vitest';
import { createLogger, type Logger } from '../logger';
import { eachStore, type StoreKind, type StorePlace } from './testing-stores';
import { ValuePruner } from './value-pruner';

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.UTC(2026, 5, 1);

const places: StorePlace[] = [];
afterEach(async () => {
  for (const place of places.splice(0)) await place.remove();
});

/** A store whose batch records are stamped by a clock the test moves. */
async function setup(kind: StoreKind) {
  const place = await kind.place();
  places.push(place);
  const clock = { at: NOW, now: () => clock.at };
  const store = await place.open(clock);
  let seq = 0;
  /** One batch of points of `stream` at NOW minus each of `daysAgo`, recorded at the clock. */
  const put = (stream: string, account: string, daysAgo: readonly number[]) =>
    store.append({
      source: 'gw/buf',
      seq: seq++,
      points: daysAgo.map((d) => ({ stream, account, ts: NOW - d * DAY, value: d })),
    });
  const kept = async (stream: string) =>
    (await store.range([stream], 0, NOW, 10_000))[0]?.points.map(([ts]) => (NOW - ts) / DAY);
  return { store, clock, put, kept };
}

describe.each(eachStore())('ValuePruner on %s', (_name, kind) => {
  it("prunes each account's values past its retention, and old batch records", async () => {
    const { store, clock, put, kept } = await setup(kind);
    clock.at = NOW - 40 * DAY;
    await put('old-batch', 'c', [40]); // recorded 40 days ago: past the 30 days of batch records
    clock.at = NOW - 20 * DAY;
    await put('recent-batch', 'c', [20]);
    clock.at = NOW;
    await put('a1', 'a', [100, 60, 31, 29, 1]);
    await put('b1', 'b', [100, 60, 31, 29, 1]);
    await put('c1', 'c', [400, 100]); // no retention named for c: kept

    const retention = new Map([
      ['a', 30],
      ['b', 90],
    ]);
    const pruner = new ValuePruner(store, clock, createLogger('silent'), () =>
      Promise.resolve(retention),
    );
    expect(await pruner.pruneNow()).toEqual({ points: 4, batches: 1 });
    expect(await kept('a1')).toEqual([29, 1]);
    expect(await kept('b1')).toEqual([60, 31, 29, 1]);
    expect(await kept('c1')).toEqual([400, 100]);
    // The batch record of 40 days ago is gone (the batch would be stored again), the other known.
    expect(await store.append({ source: 'gw/buf', seq: 0, points: [] })).toBe('stored');
    expect(await store.append({ source: 'gw/buf', seq: 1, points: [] })).toBe('duplicate');
    expect(await pruner.pruneNow()).toEqual({ points: 0, batches: 0 });
  });

  it('runs a round at start; stop waits for it; a failed round is logged, not thrown', async () => {
    const { store, clock, put, kept } = await setup(kind);
    await put('a1', 'a', [10, 1]);
    const pruner = new ValuePruner(store, clock, createLogger('silent'), () =>
      Promise.resolve(new Map([['a', 5]])),
    );
    pruner.start();
    await pruner.stop();
    expect(await kept('a1')).toEqual([1]);

    const errors: string[] = [];
    const log: Logger = { ...createLogger('silent'), error: (msg) => errors.push(msg) };
    const failing = new ValuePruner(store, clock, log, () =>
      Promise.reject(new Error('database is gone')),
    );
    failing.start();
    await failing.stop();
    expect(errors).toEqual(['pruning values failed']);
  });
});
