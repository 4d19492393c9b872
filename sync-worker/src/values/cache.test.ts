import { IDBFactory, IDBKeyRange, IDBTransaction } from 'fake-indexeddb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ValuePoint } from '@plant/shared-schema';
import { HOUR_MS, ValuesCache } from './cache';

/*
 * The values cache on IndexedDB (fake-indexeddb here, Chromium in the browser tests): points
 * kept per stream and hour, merged by time, spans of what was read from the server, and the
 * size bound that drops the oldest hours first.
 */
const caches: ValuesCache[] = [];
afterEach(() => {
  for (const c of caches.splice(0)) c.close();
});

async function open(maxBytes?: number, options: { factory?: IDBFactory; hotBytes?: number } = {}) {
  const cache = await ValuesCache.open(
    options.factory === undefined ? 'plant-values-test' : 'plant-values-shared',
    { indexedDB: options.factory ?? new IDBFactory(), IDBKeyRange },
    maxBytes,
    options.hotBytes,
  );
  caches.push(cache);
  return cache;
}

/**
 * Whether a piece of work reads IndexedDB: how many object store requests it makes (Dexie binds
 * the database's `transaction` when it opens, so the requests are what can be counted).
 */
async function storeRequestsOf(work: () => Promise<unknown>): Promise<number> {
  const spy = vi.spyOn(IDBTransaction.prototype, 'objectStore');
  try {
    await work();
    return spy.mock.calls.length;
  } finally {
    spy.mockRestore();
  }
}

const T0 = Date.UTC(2026, 10, 24, 8, 0, 0);

describe('values cache', () => {
  it('keeps points across hours in time order; a point at a known time replaces it', async () => {
    const cache = await open();
    const points: ValuePoint[] = [];
    for (let i = 0; i < 720; i++) points.push([T0 + i * 10_000, i]);
    await cache.put('s1', points.slice(360));
    await cache.put('s1', points.slice(0, 360));
    await cache.put('s1', [[T0 + 10_000, 99]]);
    const all = await cache.read('s1', T0, T0 + 2 * HOUR_MS);
    expect(all.ts).toHaveLength(720);
    expect(all.ts).toEqual([...all.ts].sort((a, b) => a - b));
    expect(all.values[1]).toBe(99);
    const part = await cache.read('s1', T0 + 3_600_000 - 10_000, T0 + 3_600_000 + 10_000);
    expect(part.ts).toEqual([T0 + 3_590_000, T0 + 3_600_000, T0 + 3_610_000]);
    // Another stream is apart; texts keep their type.
    await cache.put('s2', [
      [T0, 'Running'],
      [T0 + 1_000, 2],
    ]);
    expect(await cache.read('s2', T0, T0 + 1_000)).toEqual({
      ts: [T0, T0 + 1_000],
      values: ['Running', 2],
    });
    expect(await cache.last('s1')).toEqual([T0 + 719 * 10_000, 719]);
    expect(await cache.last('s1', T0 + 15_000)).toEqual([T0 + 10_000, 99]);
    expect(await cache.last('nothing')).toBeUndefined();
  });

  it('keeps only the streams still visible: the others go with their spans and their size', async () => {
    const cache = await open();
    const hours = (stream: string, n: number) =>
      cache.put(
        stream,
        Array.from({ length: n }, (_, i): ValuePoint => [T0 + i * HOUR_MS, i]),
        { from: T0, to: T0 + n * HOUR_MS, step: 0 },
      );
    await hours('kept', 3);
    await hours('gone', 5);
    const before = await cache.size();
    expect(before.chunks).toBe(8);
    await cache.keepOnly(new Set(['kept']));
    const after = await cache.size();
    expect(after.chunks).toBe(3);
    expect(after.bytes).toBeLessThan(before.bytes);
    expect(after.bytes).toBeGreaterThan(0);
    expect((await cache.read('gone', T0, T0 + 5 * HOUR_MS)).ts).toEqual([]);
    expect(await cache.gaps('gone', T0, T0 + HOUR_MS, 0)).toEqual([{ from: T0, to: T0 + HOUR_MS }]);
    expect((await cache.read('kept', T0, T0 + 3 * HOUR_MS)).ts).toHaveLength(3);
    expect(await cache.gaps('kept', T0, T0 + 3 * HOUR_MS, 0)).toEqual([]);
  });

  it('knows which parts were read from the server, at which resolution', async () => {
    const cache = await open();
    await cache.put('s1', [[T0 + 5_000, 1]], { from: T0, to: T0 + 60_000, step: 1_000 });
    expect(await cache.gaps('s1', T0, T0 + 60_000, 1_000)).toEqual([]);
    expect(await cache.gaps('s1', T0 - 10_000, T0 + 60_000, 5_000)).toEqual([
      { from: T0 - 10_000, to: T0 },
    ]);
    // Finer than what was read: the whole range again.
    expect(await cache.gaps('s1', T0, T0 + 60_000, 10)).toEqual([{ from: T0, to: T0 + 60_000 }]);
    // Live points alone mark nothing as read.
    await cache.put('s1', [[T0 + 70_000, 2]]);
    expect(await cache.gaps('s1', T0 + 60_000, T0 + 80_000, 1_000)).toEqual([
      { from: T0 + 60_000, to: T0 + 80_000 },
    ]);
  });

  it('past its bound drops the oldest hours first, and forgets that they were read', async () => {
    // About 8 hours of one point every 10 s fit (16 bytes a point).
    const cache = await open(8 * 360 * 16 + 8 * 64);
    for (let h = 0; h < 12; h++) {
      const points: ValuePoint[] = [];
      for (let i = 0; i < 360; i++) points.push([T0 + h * HOUR_MS + i * 10_000, h]);
      await cache.put('s1', points, {
        from: T0 + h * HOUR_MS,
        to: T0 + (h + 1) * HOUR_MS,
        step: 0,
      });
    }
    const size = await cache.size();
    expect(size.bytes).toBeLessThanOrEqual(size.maxBytes);
    expect(size.chunks).toBeLessThan(12);
    const kept = await cache.read('s1', T0, T0 + 12 * HOUR_MS);
    // The newest hour is there, the oldest is not.
    expect(kept.values.at(-1)).toBe(11);
    expect(kept.values[0]).toBeGreaterThan(0);
    const firstKept = kept.ts[0] ?? 0;
    expect(await cache.gaps('s1', T0, T0 + 12 * HOUR_MS, 0)).toEqual([{ from: T0, to: firstKept }]);
  });

  it('says which part of a range it holds (issue 31: a dashboard offline)', async () => {
    const cache = await open();
    // An hour read from the server at a coarse step, then live values for 10 minutes after it.
    await cache.put('s1', [[T0 + 60_000, 1]], { from: T0, to: T0 + HOUR_MS, step: 60_000 });
    const live: ValuePoint[] = [];
    for (let i = 1; i <= 600; i++) live.push([T0 + HOUR_MS + i * 1000, i]);
    await cache.put('s1', live);
    expect(await cache.held('s1', T0 - HOUR_MS, T0 + 2 * HOUR_MS)).toEqual([
      { from: T0, to: T0 + HOUR_MS + 600_000 },
    ]);
    // Nothing of another stream, nothing outside what was read.
    expect(await cache.held('s2', T0, T0 + HOUR_MS)).toEqual([]);
    expect(await cache.held('s1', T0 + 3 * HOUR_MS, T0 + 4 * HOUR_MS)).toEqual([]);
  });

  it('reads the ranges asked in one task together, each answer as read and held give it', async () => {
    const cache = await open();
    const points = (n: number): ValuePoint[] =>
      Array.from({ length: 90 }, (_, i) => [T0 + i * 60_000, n * 1000 + i]);
    for (let n = 0; n < 5; n++) {
      await cache.put(`s${n}`, points(n), { from: T0, to: T0 + 90 * 60_000, step: 60_000 });
    }
    const ranges = [
      { stream: 's0', from: T0, to: T0 + HOUR_MS },
      { stream: 's1', from: T0 + 30 * 60_000, to: T0 + 2 * HOUR_MS },
      { stream: 's4', from: T0 - HOUR_MS, to: T0 + 10 * 60_000 },
      { stream: 'none', from: T0, to: T0 + HOUR_MS },
      { stream: 's0', from: T0 + 3 * HOUR_MS, to: T0 + 4 * HOUR_MS },
    ];
    // Asked in one task, as a page's charts ask.
    const answers = await Promise.all(ranges.map((r) => cache.readRange(r.stream, r.from, r.to)));
    for (const [k, r] of ranges.entries()) {
      expect(answers[k]?.columns).toEqual(await cache.read(r.stream, r.from, r.to));
      expect(answers[k]?.held).toEqual(await cache.held(r.stream, r.from, r.to));
    }
    expect(answers[1]?.columns.values[0]).toBe(1030);
    expect(answers[3]?.columns.ts).toEqual([]);
    // Asked in a later task: read again, not left waiting.
    expect((await cache.readRange('s2', T0, T0 + HOUR_MS)).columns.ts).toHaveLength(61);
  });

  it('fails every range asked together when their read fails, and reads the next ones', async () => {
    const cache = await open();
    await cache.put('s1', [[T0, 1]], { from: T0, to: T0 + 60_000, step: 1_000 });
    // A range whose key IndexedDB refuses (NaN is no key) fails the batch's transaction (of
    // the ranges memory does not hold: s2 was never read).
    const asked = [cache.readRange('s2', T0, T0 + 60_000), cache.readRange('s1', Number.NaN, T0)];
    const settled = await Promise.allSettled(asked);
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected']);
    expect((await cache.readRange('s1', T0, T0 + 60_000)).columns.values).toEqual([1]);
  });

  it('answers a range read or written lately from memory, as the store would', async () => {
    const cache = await open();
    const day: ValuePoint[] = Array.from({ length: 24 * 60 }, (_, i) => [T0 + i * 60_000, i]);
    await cache.put('s1', day, { from: T0, to: T0 + 24 * HOUR_MS, step: 60_000 });
    await cache.put('s2', [[T0, 1]]);
    const ask = () =>
      Promise.all([
        cache.readRange('s1', T0 + 90 * 60_000, T0 + 20 * HOUR_MS),
        cache.readRange('s2', T0 - HOUR_MS, T0 + HOUR_MS),
      ]);
    // s1's hours were all written; s2's hour before T0 was never seen: the store is read for
    // it, and memory answers both after that.
    let first: Awaited<ReturnType<typeof ask>> | undefined;
    expect(await storeRequestsOf(async () => (first = await ask()))).toBeGreaterThan(0);
    let again: Awaited<ReturnType<typeof ask>> | undefined;
    expect(await storeRequestsOf(async () => (again = await ask()))).toBe(0);
    expect(again).toEqual(first);
    expect(again?.[0].columns.ts).toHaveLength(18 * 60 + 30 + 1);
    expect(again?.[0].held).toEqual([{ from: T0 + 90 * 60_000, to: T0 + 20 * HOUR_MS }]);
    expect(again?.[1].columns.values).toEqual([1]);
    // A live point lands in memory with the write; the spans say what was read.
    await cache.put('s1', [[T0 + 5 * HOUR_MS + 1, 'Stopped']]);
    const live = await storeRequestsOf(async () => {
      const read = await cache.readRange('s1', T0 + 5 * HOUR_MS, T0 + 5 * HOUR_MS + 60_000);
      expect(read.columns.values).toEqual([300, 'Stopped', 301]);
      expect(await cache.gaps('s1', T0, T0 + 25 * HOUR_MS, 60_000)).toEqual([
        { from: T0 + 24 * HOUR_MS, to: T0 + 25 * HOUR_MS },
      ]);
    });
    expect(live).toBe(0);
    // A fresh cache on the same store (a reload) reads the same from IndexedDB.
    const reopened = await ValuesCache.open('plant-values-test', {
      indexedDB: (cache as unknown as { db: { _options: { indexedDB: IDBFactory } } }).db._options
        .indexedDB,
      IDBKeyRange,
    });
    caches.push(reopened);
    expect(await reopened.readRange('s1', T0 + 5 * HOUR_MS, T0 + 5 * HOUR_MS + 60_000)).toEqual(
      await cache.readRange('s1', T0 + 5 * HOUR_MS, T0 + 5 * HOUR_MS + 60_000),
    );
  });

  it("forgets what another tab's worker wrote to the same store, and reads it anew", async () => {
    const factory = new IDBFactory();
    const tab = await open(undefined, { factory });
    const other = await open(undefined, { factory });
    await tab.put('s1', [[T0, 1]], { from: T0, to: T0 + 60_000, step: 1_000 });
    expect((await tab.readRange('s1', T0, T0 + HOUR_MS)).columns.values).toEqual([1]);
    // The other tab reads the rest of the hour from the server.
    await other.put('s1', [[T0 + 120_000, 2]], {
      from: T0 + 60_000,
      to: T0 + HOUR_MS,
      step: 1_000,
    });
    await expect
      .poll(async () => (await tab.readRange('s1', T0, T0 + HOUR_MS)).columns.values)
      .toEqual([1, 2]);
    expect(await tab.gaps('s1', T0, T0 + HOUR_MS, 1_000)).toEqual([]);
  });

  it('holds the written points after a read and a write of one stream race', async () => {
    const cache = await open();
    await cache.put('s1', [[T0, 1]]);
    // A fresh cache on s1's store: nothing in memory, so the read goes to IndexedDB beside the
    // write (the rule that keeps a read older than a write out of memory: hot-chunks.test.ts).
    const fresh = await ValuesCache.open('plant-values-test', {
      indexedDB: (cache as unknown as { db: { _options: { indexedDB: IDBFactory } } }).db._options
        .indexedDB,
      IDBKeyRange,
    });
    caches.push(fresh);
    const [read] = await Promise.all([
      fresh.readRange('s1', T0, T0 + HOUR_MS),
      fresh.put('s1', [[T0 + 1_000, 2]]),
    ]);
    expect([[1], [1, 2]]).toContainEqual(read.columns.values);
    expect((await fresh.readRange('s1', T0, T0 + HOUR_MS)).columns.values).toEqual([1, 2]);
  });

  it('keeps memory within its bound, the streams used longest ago going first', async () => {
    const points = (n: number): ValuePoint[] =>
      Array.from({ length: 1_000 }, (_, i) => [T0 + i * 1_000, n]);
    // About two streams' hour of 1,000 points fit (16 bytes a point).
    const cache = await open(undefined, { hotBytes: 2 * (1_000 * 16 + 64) });
    await cache.put('a', points(1));
    await cache.put('b', points(2));
    expect(await storeRequestsOf(() => cache.readRange('a', T0, T0 + 60_000))).toBe(0);
    await cache.put('c', points(3));
    expect(cache.memoryBytes).toBeLessThanOrEqual(2 * (1_000 * 16 + 64));
    // b was used longest ago: read from the store again, right.
    let b: number[] = [];
    expect(
      await storeRequestsOf(async () => {
        b = (await cache.readRange('b', T0, T0 + HOUR_MS)).columns.ts;
      }),
    ).toBeGreaterThan(0);
    expect(b).toHaveLength(1_000);
    // Dropped from the store (no longer visible) is dropped from memory too.
    await cache.keepOnly(new Set(['c']));
    expect((await cache.readRange('a', T0, T0 + HOUR_MS)).columns.ts).toEqual([]);
    expect((await cache.readRange('c', T0, T0 + HOUR_MS)).columns.ts).toHaveLength(1_000);
  });
});
