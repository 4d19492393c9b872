import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
  expectRollupsMatchPoints,
  eachStore,
  type StoreKind,
  type StorePlace,
} from './testing-stores';
import type { StoredPoint, TimeSeriesStore } from './time-series-store';
import { propertyRuns } from '@plant/shared-schema/testing';

/**
 * The time-series store's contract (time-series-store.ts), one suite for every store: SQLite in
 * the `server` project, Postgres in `server-postgres` (testing-stores.ts).
 */

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = Date.UTC(2026, 0, 1);

type Value = number | string;
type Pt = [number, Value];

const places: StorePlace[] = [];
afterEach(async () => {
  for (const place of places.splice(0)) await place.remove();
});

async function placeOf(kind: StoreKind): Promise<StorePlace> {
  const place = await kind.place();
  places.push(place);
  return place;
}

async function storeOf(
  kind: StoreKind,
  now?: () => number,
): Promise<{ place: StorePlace; store: TimeSeriesStore }> {
  const place = await placeOf(kind);
  return { place, store: await place.open(now === undefined ? undefined : { now }) };
}

let seq = 0;
/** Appends points of one stream in batches of 1,000 (each its own seq). */
async function put(
  store: TimeSeriesStore,
  stream: string,
  points: readonly Pt[],
  account = 'acc-a',
): Promise<void> {
  for (let i = 0; i < points.length; i += 1_000) {
    const batch: StoredPoint[] = points
      .slice(i, i + 1_000)
      .map(([ts, value]) => ({ stream, account, ts, value }));
    await store.append({ source: 'test/buffer', seq: seq++, points: batch });
  }
}

const series = (n: number, every: number, f: (i: number) => Value, start = T0): Pt[] =>
  Array.from({ length: n }, (_, i) => [start + i * every, f(i)]);

/** The answer's shape a chart relies on: at most `points`, inside [from, to], strictly in order. */
function expectWellFormed(list: readonly Pt[], from: number, to: number, points: number): void {
  expect(list.length).toBeLessThanOrEqual(points);
  for (const [i, [ts]] of list.entries()) {
    expect(ts).toBeGreaterThanOrEqual(from);
    expect(ts).toBeLessThanOrEqual(to);
    if (i > 0) expect(ts).toBeGreaterThan(list[i - 1]![0]);
  }
}

/**
 * What `range` must answer, computed naively from the raw points (DESIGN.md §8 and the store's
 * doc): raw when they fit; else M4 over ceil(span / floor(points/4))-wide buckets, a point
 * counting in the bucket where its unit starts (the hour or minute holding it when that unit lies
 * wholly inside the range and the bucket width allows it, else its own time).
 */
function reference(all: ReadonlyMap<number, number>, from: number, to: number, points: number) {
  const raw: Pt[] = [...all].filter(([ts]) => ts >= from && ts <= to).sort((a, b) => a[0] - b[0]);
  if (raw.length <= points) return { downsampled: false, points: raw };
  const width = Math.ceil((to - from + 1) / Math.max(1, Math.floor(points / 4)));
  const units = width >= HOUR ? [HOUR, MINUTE] : width >= MINUTE ? [MINUTE] : [];
  const unitStart = (ts: number) => {
    for (const g of units) {
      const b = Math.floor(ts / g) * g;
      if (b >= from && b + g - 1 <= to) return b;
    }
    return ts;
  };
  const buckets = new Map<number, Pt[]>();
  for (const p of raw) {
    const k = Math.floor((unitStart(p[0]) - from) / width);
    buckets.set(k, [...(buckets.get(k) ?? []), p]);
  }
  const out: Pt[] = [];
  for (const k of [...buckets.keys()].sort((a, b) => a - b)) {
    const ps = buckets.get(k)!;
    const earliest = (pick: (a: number, b: number) => boolean) =>
      ps.reduce((best, p) => (pick(p[1] as number, best[1] as number) ? p : best));
    const candidates = [
      earliest((a, b) => a < b),
      earliest((a, b) => a > b),
      ps[0]!,
      ps[ps.length - 1]!,
    ];
    const kept: Pt[] = [];
    for (const c of candidates) {
      if (kept.length < Math.min(4, points) && !kept.some((x) => x[0] === c[0])) kept.push(c);
    }
    out.push(...kept.sort((a, b) => a[0] - b[0]));
  }
  return { downsampled: true, points: out };
}

describe.each(eachStore())('%s time-series migrations', (_name, kind) => {
  it('run up, then down, then up again on a fresh database, recorded in their own table', async () => {
    const { migrator, migrationTable, tables, destroy } = await kind.migrator();
    const storeTables = async () =>
      (await tables()).filter((n) => n.startsWith('ts_') && !n.startsWith('ts_migration')).sort();
    try {
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      expect(await storeTables()).toEqual([
        'ts_batches',
        'ts_hour',
        'ts_minute',
        'ts_points',
        'ts_series',
      ]);
      expect(await tables()).toContain(migrationTable);
      const applied = (await migrator.getMigrations()).filter((m) => m.executedAt !== undefined);
      for (let i = 0; i < applied.length; i++) {
        expect((await migrator.migrateDown()).error).toBeUndefined();
      }
      expect(await storeTables()).toEqual([]);
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      expect(await storeTables()).toHaveLength(5);
    } finally {
      await destroy();
    }
  });
});

describe.each(eachStore())('%s time-series store: append', (_name, kind) => {
  it('stores a (source, seq) once: a repeat is a duplicate and stores nothing', async () => {
    const store = (await storeOf(kind)).store;
    const batch = (value: number, source = 'gw-1/buf') => ({
      source,
      seq: 7,
      points: [{ stream: 's', account: 'a', ts: T0, value }],
    });
    expect(await store.append(batch(1))).toBe('stored');
    expect(await store.append(batch(2))).toBe('duplicate');
    expect((await store.range(['s'], T0, T0, 10))[0]?.points).toEqual([[T0, 1]]);
    // The same seq from another source is another batch.
    expect(await store.append(batch(3, 'gw-2/buf'))).toBe('stored');
    expect((await store.range(['s'], T0, T0, 10))[0]?.points).toEqual([[T0, 3]]);
  });

  it('stores nothing of a batch that fails, and takes the same batch again', async () => {
    const { place, store } = await storeOf(kind);
    const good = { stream: 'new-stream', account: 'a', ts: T0, value: 5 };
    // A time that is not an integer is refused by the table: the whole batch rolls back.
    await expect(
      store.append({ source: 'g', seq: 1, points: [good, { ...good, ts: T0 + 0.5 }] }),
    ).rejects.toThrow();
    expect((await store.latest(['new-stream'])).size).toBe(0);
    expect(await store.append({ source: 'g', seq: 1, points: [good] })).toBe('stored');
    expect(await store.latest(['new-stream'])).toEqual(
      new Map([['new-stream', { ts: T0, value: 5 }]]),
    );
    await expectRollupsMatchPoints(place);
  });

  it('replaces a point at the same time without counting it twice in the rollups', async () => {
    const { place, store } = await storeOf(kind);
    await put(
      store,
      's',
      series(720, 10_000, (i) => i % 50),
    );
    // Again, some of them, with new values: a spike, a dip, and the same time twice in one batch.
    await put(store, 's', [
      [T0 + 100 * 10_000, 1_000],
      [T0 + 200 * 10_000, -1_000],
      [T0 + 300 * 10_000, 7],
      [T0 + 300 * 10_000, 8],
    ]);
    await expectRollupsMatchPoints(place);
    // Read from the minute rollups (a 2-hour range in 20 points): the spike shows, the old value not.
    const [answer] = await store.range(['s'], T0, T0 + 2 * HOUR - 1, 20);
    expect(answer?.downsampled).toBe(true);
    const values = answer?.points.map(([, v]) => v) ?? [];
    expect(Math.max(...(values as number[]))).toBe(1_000);
    expect(Math.min(...(values as number[]))).toBe(-1_000);
    expect((await store.range(['s'], T0 + 300 * 10_000, T0 + 300 * 10_000, 5))[0]?.points).toEqual([
      [T0 + 300 * 10_000, 8],
    ]);
  });

  it("keeps stored points under existing: 'keep', telling which, and the rollups stay exact", async () => {
    const { place, store } = await storeOf(kind);
    await put(store, 's', [
      [T0, 1],
      [T0 + 1_000, 2],
    ]);
    const kept: number[] = [];
    const points = (
      [
        [T0, 100],
        [T0 + 2_000, 3],
        [T0 + 2_000, 300],
      ] as const
    ).map(([ts, value]) => ({ stream: 's', account: 'acc-a', ts, value }));
    expect(
      await store.append({
        source: 'other/buffer',
        seq: 1,
        points,
        existing: 'keep',
        kept: (i) => kept.push(i),
      }),
    ).toBe('stored');
    expect(kept.sort()).toEqual([0, 2]);
    expect((await store.range(['s'], T0, T0 + 2_000, 10))[0]?.points).toEqual([
      [T0, 1],
      [T0 + 1_000, 2],
      [T0 + 2_000, 3],
    ]);
    await expectRollupsMatchPoints(place);
  });

  it('stores booleans as 1/0 and keeps text points out of the rollups', async () => {
    const { place, store } = await storeOf(kind);
    await store.append({
      source: 'g',
      seq: 1,
      points: [
        { stream: 'flag', account: 'a', ts: T0, value: true },
        { stream: 'flag', account: 'a', ts: T0 + 1, value: false },
        { stream: 'mixed', account: 'a', ts: T0, value: 4 },
        { stream: 'mixed', account: 'a', ts: T0 + 1, value: 'fault' },
      ],
    });
    // A number replaced by a text leaves the rollups too.
    await store.append({
      source: 'g',
      seq: 2,
      points: [{ stream: 'mixed', account: 'a', ts: T0, value: 'ok' }],
    });
    expect((await store.range(['flag'], T0, T0 + 10, 10))[0]?.points).toEqual([
      [T0, 1],
      [T0 + 1, 0],
    ]);
    expect((await store.range(['mixed'], T0, T0 + 10, 10))[0]?.points).toEqual([
      [T0, 'ok'],
      [T0 + 1, 'fault'],
    ]);
    await expectRollupsMatchPoints(place);
  });
});

describe.each(eachStore())('%s time-series store: range', (_name, kind) => {
  it('answers raw points when they fit, in the order of the streams asked', async () => {
    const store = (await storeOf(kind)).store;
    const points = series(360, 10_000, (i) => Math.round(Math.sin(i / 20) * 100) / 10);
    await put(store, 'a', points);
    await put(store, 'b', [[T0, 'x']]);
    const answers = await store.range(['b', 'unknown', 'a'], T0, T0 + HOUR - 1, 1_000);
    expect(answers.map((a) => [a.stream, a.downsampled, a.points.length])).toEqual([
      ['b', false, 1],
      ['unknown', false, 0],
      ['a', false, 360],
    ]);
    expect(answers[2]?.points).toEqual(points);
    // Bounds are inclusive.
    expect((await store.range(['a'], T0 + 10_000, T0 + 30_000, 10))[0]?.points).toEqual(
      points.slice(1, 4),
    );
  });

  it('downsamples a long range to at most the points asked, keeping spikes, inside the range', async () => {
    const store = (await storeOf(kind)).store;
    // Two days at one point per 10 s, a smooth curve with one spike up and one down.
    const points = series(17_280, 10_000, (i) =>
      i === 5_000 ? 500 : i === 12_345 ? -500 : Math.round(Math.sin(i / 300) * 50),
    );
    await put(store, 's', points);
    // Buckets of 1.9 h (hour rollups), 346 s (minute rollups) and 50 s (raw points), the last
    // two ranges cutting minutes and hours at both ends.
    const cut = T0 + 5_000 * 10_000 - 12_345;
    for (const [from, to, asked] of [
      [T0, T0 + 2 * DAY - 1, 100],
      [cut, cut + DAY + 7, 1_000],
      [T0 + 4_900 * 10_000 + 3, T0 + 4_900 * 10_000 + 2_500_000, 200],
    ] as const) {
      const [answer] = await store.range(['s'], from, to, asked);
      expect(answer?.downsampled).toBe(true);
      const list = answer?.points ?? [];
      expectWellFormed(list, from, to, asked);
      expect(list.length).toBeGreaterThan(asked / 4);
      const inside = points.filter(([ts]) => ts >= from && ts <= to);
      expect(list).toContainEqual(inside[0]);
      expect(list).toContainEqual(inside[inside.length - 1]);
      for (const spike of [points[5_000]!, points[12_345]!]) {
        if (spike[0] >= from && spike[0] <= to) expect(list).toContainEqual(spike);
      }
    }
  });

  it('answers from the rollups what a naive reading of the raw points gives (property)', async () => {
    const store = (await storeOf(kind)).store;
    let n = 0;
    const scales = [10 * MINUTE, 6 * HOUR, 3 * DAY, 60 * DAY];
    const FRACTION = 1_000_000;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...scales),
        fc.array(fc.tuple(fc.integer({ min: 0, max: FRACTION }), fc.integer({ min: -5, max: 5 })), {
          minLength: 20,
          maxLength: 400,
          size: 'max',
        }),
        fc.integer({ min: 1, max: 4 }),
        fc.tuple(fc.integer({ min: 0, max: FRACTION }), fc.integer({ min: 0, max: FRACTION })),
        fc.integer({ min: 2, max: 48 }),
        async (scale, raw, batches, [a, b], points) => {
          const stream = `p${n++}`;
          const all = new Map<number, number>();
          const written: Pt[] = raw.map(([at, value]) => [
            T0 + Math.floor((at / FRACTION) * scale),
            value,
          ]);
          // Split into batches; a later batch may replace earlier points.
          const per = Math.ceil(written.length / batches);
          for (let i = 0; i < written.length; i += per) {
            const chunk = written.slice(i, i + per);
            await put(store, stream, chunk);
            for (const [ts, v] of chunk) all.set(ts, v as number);
          }
          const from = T0 + Math.floor((Math.min(a, b) / FRACTION) * scale);
          const to = T0 + Math.floor((Math.max(a, b) / FRACTION) * scale);
          const [answer] = await store.range([stream], from, to, points);
          const want = reference(all, from, to, points);
          expect(answer?.downsampled).toBe(want.downsampled);
          expect(answer?.points).toEqual(want.points);
          expectWellFormed(answer?.points ?? [], from, to, points);
        },
      ),
      { numRuns: propertyRuns(60) },
    );
  });

  it('downsamples a text stream to the first and last state of each bucket', async () => {
    const store = (await storeOf(kind)).store;
    const states = ['run', 'stop', 'fault'];
    const points = series(3_000, MINUTE, (i) => states[Math.floor(i / 7) % 3]!);
    await put(store, 'state', points);
    const from = T0 + 30_000;
    const to = T0 + 2_000 * MINUTE;
    const [answer] = await store.range(['state'], from, to, 100);
    expect(answer?.downsampled).toBe(true);
    const list = answer?.points ?? [];
    expectWellFormed(list, from, to, 100);
    expect(list.length).toBeGreaterThan(40);
    expect(list.every(([, v]) => typeof v === 'string')).toBe(true);
    expect(list[0]).toEqual(points[1]);
    expect(list[list.length - 1]).toEqual(points[2_000]);
  });
});

describe.each(eachStore())('%s time-series store: hours', (_name, kind) => {
  it("answers each hour's count, sum, min and max of the hours a range touches (issue 31: bars)", async () => {
    const { store } = await storeOf(kind);
    // Three hours of one value a minute, and a text stream (not rolled up).
    await put(
      store,
      's1',
      series(180, MINUTE, (i) => i),
    );
    await put(
      store,
      's2',
      series(3, MINUTE, () => 'run'),
    );
    const [s1, s2, none] = await store.hours(['s1', 's2', 'nope'], T0 + 30 * MINUTE, T0 + 2 * HOUR);
    const sum = (a: number, b: number) =>
      Array.from({ length: b - a + 1 }, (_, i) => a + i).reduce((x, y) => x + y, 0);
    expect(s1).toEqual({
      stream: 's1',
      hours: [
        [T0, 60, sum(0, 59), 0, 59],
        [T0 + HOUR, 60, sum(60, 119), 60, 119],
        [T0 + 2 * HOUR, 60, sum(120, 179), 120, 179],
      ],
    });
    expect(s2).toEqual({ stream: 's2', hours: [] });
    expect(none).toEqual({ stream: 'nope', hours: [] });
  });
});

describe.each(eachStore())('%s time-series store: latest and scan', (_name, kind) => {
  it('answers the latest point of each stream that has one', async () => {
    const store = (await storeOf(kind)).store;
    await put(store, 'a', [
      [T0, 1],
      [T0 + 2_000, 2],
    ]);
    await put(store, 'a', [[T0 + 1_000, 9]]); // late, but not the latest
    await put(store, 'b', [[T0 + 5, 'on']]);
    expect(await store.latest(['a', 'b', 'none'])).toEqual(
      new Map<string, { ts: number; value: Value }>([
        ['a', { ts: T0 + 2_000, value: 2 }],
        ['b', { ts: T0 + 5, value: 'on' }],
      ]),
    );
  });

  it('scans every raw point across chunk boundaries, and appends may run meanwhile', async () => {
    const store = (await storeOf(kind)).store;
    const points = series(12_345, 1_000, (i) => i);
    await put(store, 's', points);
    const from = points[3]![0];
    const to = points[12_000]![0];
    const seen: Pt[] = [];
    for await (const p of store.scan('s', from, to)) {
      seen.push(p);
      // Writing while the scan is suspended works: no statement is left open between chunks.
      if (seen.length % 5_000 === 0) await put(store, 'other', [[T0 + seen.length, 1]]);
    }
    expect(seen).toEqual(points.slice(3, 12_001));
    const none: Pt[] = [];
    for await (const p of store.scan('unknown', T0, T0 + DAY)) none.push(p);
    expect(none).toEqual([]);
  });
});

describe.each(eachStore())('%s time-series store: prune, batches, reopen', (_name, kind) => {
  it("prunes one account's points and rollups before a time, and leaves the rest", async () => {
    const { place, store } = await storeOf(kind);
    const points = series(6 * 360, 10_000, (i) => (i === 10 ? 999 : i % 13));
    await put(store, 'a1', points, 'acc-a');
    await put(store, 'b1', points, 'acc-b');
    // Cuts a minute and an hour in the middle.
    const before = T0 + 2 * HOUR + 30 * MINUTE + 25_000;
    const gone = points.filter(([ts]) => ts < before).length;
    expect(await store.prune('acc-a', before)).toBe(gone);
    expect(await store.prune('acc-unknown', before)).toBe(0);
    await expectRollupsMatchPoints(place);
    const [a] = await store.range(['a1'], T0, T0 + 6 * HOUR, 8);
    expect(a?.downsampled).toBe(true);
    expect(a?.points.every(([ts]) => ts >= before)).toBe(true);
    expect(a?.points).not.toContainEqual(points[10]);
    const [b] = await store.range(['b1'], T0, T0 + 6 * HOUR, 10_000);
    expect(b?.points).toEqual(points);
    // Nothing more to prune at the same time.
    expect(await store.prune('acc-a', before)).toBe(0);
  });

  it('prunes more than one chunk of points', async () => {
    const { place, store } = await storeOf(kind);
    await put(
      store,
      'big',
      series(120_000, 1_000, (i) => i % 100),
    );
    expect(await store.prune('acc-a', T0 + 110_000 * 1_000)).toBe(110_000);
    expect((await store.range(['big'], T0, T0 + 2 * DAY, 100_000))[0]?.points).toHaveLength(10_000);
    await expectRollupsMatchPoints(place);
  });

  it('forgets batch records stored before a time: such a batch is stored again', async () => {
    let now = T0;
    const store = (await storeOf(kind, () => now)).store;
    const batch = (s: number) => ({
      source: 'g/b',
      seq: s,
      points: [{ stream: 's', account: 'a', ts: T0 + s, value: s }],
    });
    await store.append(batch(1));
    now = T0 + DAY;
    await store.append(batch(2));
    expect(await store.pruneBatches(T0 + 1)).toBe(1);
    expect(await store.append(batch(1))).toBe('stored');
    expect(await store.append(batch(2))).toBe('duplicate');
  });

  it('keeps everything across a reopen', async () => {
    const place = await placeOf(kind);
    const first = await place.open();
    const points = series(1_000, 10_000, (i) => i * 2);
    await put(first, 's', points);
    await first.append({ source: 'g', seq: 1, points: [] });
    await first.close();
    const again = await place.open();
    expect((await again.range(['s'], T0, T0 + DAY, 10_000))[0]?.points).toEqual(points);
    expect(await again.append({ source: 'g', seq: 1, points: [] })).toBe('duplicate');
    await put(again, 's', [[T0 + 1, 5]]);
    expect((await again.latest(['s'])).get('s')).toEqual({ ts: points[999]![0], value: 1_998 });
    await expectRollupsMatchPoints(place);
  });
});
