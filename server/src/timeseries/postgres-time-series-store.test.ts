import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateToLatest, openPostgres } from '../db/database';
import { migrations } from '@plant/migrations';
import { postgresTimeSeriesMigrations } from '../../../migrations/src/timeseries-postgres';
import { partitionName, WEEK_MS, weekOf } from './postgres-partitions';
import {
  bothStores,
  expectRollupsMatchPoints,
  postgresClient,
  postgresKind,
  sqliteKind,
  type StorePlace,
} from './testing-stores';
import type { StoredBatch, StoredPoint, TimeSeriesStore } from './time-series-store';
import { propertyRuns } from '@plant/shared-schema/testing';

/**
 * What the Postgres store adds to the shared suite (time-series-store.test.ts): the platform's
 * database shared, weekly partitions dropped by retention, several processes at once, and the
 * same answers as the SQLite store to the same random writes, reads and prunes.
 */

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = Date.UTC(2026, 0, 1);
/** Monday 2026-01-05 00:00 UTC: a week's start. */
const W0 = Date.UTC(2026, 0, 5);

const places: StorePlace[] = [];
afterEach(async () => {
  for (const place of places.splice(0)) await place.remove();
});

async function postgresPlace(): Promise<StorePlace> {
  const place = await postgresKind.place();
  places.push(place);
  return place;
}

async function sqlitePlace(): Promise<StorePlace> {
  const place = await sqliteKind.place();
  places.push(place);
  return place;
}

async function partitionsOf(place: StorePlace): Promise<string[]> {
  const client = await postgresClient(place.url!);
  try {
    const { rows } = await client.query<{ name: string }>(
      `select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
        where i.inhparent = 'ts_points'::regclass order by 1`,
    );
    return rows.map((r) => r.name);
  } finally {
    await client.end();
  }
}

let seq = 0;
const batchOf = (points: StoredPoint[]): StoredBatch => ({ source: 'test', seq: seq++, points });

/** Points of one stream every `every` ms over [from, to), in batches of 1,000. */
async function putEvery(
  store: TimeSeriesStore,
  stream: string,
  account: string,
  from: number,
  to: number,
  every: number,
): Promise<StoredPoint[]> {
  const points: StoredPoint[] = [];
  for (let ts = from; ts < to; ts += every) points.push({ stream, account, ts, value: ts % 97 });
  for (let i = 0; i < points.length; i += 1_000) {
    await store.append(batchOf(points.slice(i, i + 1_000)));
  }
  return points;
}

describe('weekly partitions', () => {
  it('start on Mondays (UTC) and are named by that day', () => {
    expect(weekOf(W0)).toBe(W0);
    expect(weekOf(W0 - 1)).toBe(W0 - WEEK_MS);
    expect(weekOf(T0)).toBe(Date.UTC(2025, 11, 29));
    expect(weekOf(W0 + WEEK_MS - 1)).toBe(W0);
    expect(partitionName(W0)).toBe('ts_points_20260105');
    expect(partitionName(weekOf(0))).toBe('ts_points_19691229');
    // Out of four-digit years the week's number keeps names apart.
    expect(partitionName(weekOf(-1e14))).not.toBe(partitionName(weekOf(-1e14) - WEEK_MS));
  });
});

describe.each(bothStores() ? [postgresKind] : [])('Postgres time-series store', () => {
  it("shares the platform's database: its tables and migration records stay apart", async () => {
    const place = await postgresPlace();
    const platform = openPostgres(place.url!);
    try {
      await migrateToLatest(platform);
      const store = await place.open();
      await store.append(batchOf([{ stream: 's', account: 'a', ts: T0, value: 1 }]));
      const client = await postgresClient(place.url!);
      try {
        const names = async (table: string) =>
          (
            await client.query<{ name: string }>(`select name from ${table} order by name`)
          ).rows.map((r) => r.name);
        expect(await names('kysely_migration')).toEqual(Object.keys(migrations).sort());
        expect(await names('ts_migration')).toEqual(Object.keys(postgresTimeSeriesMigrations));
        const { rows } = await client.query<{ name: string }>(
          `select table_name as name from information_schema.tables where table_schema = 'public'`,
        );
        const platformTables = rows
          .map((r) => r.name)
          .filter((n) => !n.startsWith('ts_') && !n.startsWith('kysely_'));
        expect(platformTables.length).toBeGreaterThan(5);
        expect(platformTables.filter((n) => Object.keys(migrations).includes(n))).toEqual([]);
      } finally {
        await client.end();
      }
      expect((await store.latest(['s'])).get('s')).toEqual({ ts: T0, value: 1 });
    } finally {
      await platform.destroy();
    }
  });

  it("drops whole weeks that hold only the account's points, and deletes the rest by rows", async () => {
    const place = await postgresPlace();
    const store = await place.open();
    const a = await putEvery(store, 'a1', 'acc-a', W0, W0 + 4 * WEEK_MS, 30 * MINUTE);
    const b = await putEvery(store, 'b1', 'acc-b', W0 + WEEK_MS, W0 + 2 * WEEK_MS, HOUR);
    const week = (n: number) => partitionName(W0 + n * WEEK_MS);
    expect(await partitionsOf(place)).toEqual([week(0), week(1), week(2), week(3)]);

    // Weeks 0 and 2 hold only acc-a's points: dropped. Week 1 is shared with acc-b, and week 3
    // is cut by the time: their acc-a points go by rows.
    const before = W0 + 3 * WEEK_MS + 5 * HOUR + 17_000;
    expect(await store.prune('acc-a', before)).toBe(a.filter((p) => p.ts < before).length);
    expect(await partitionsOf(place)).toEqual([week(1), week(3)]);
    await expectRollupsMatchPoints(place);
    const [left] = await store.range(['a1'], 0, W0 + 5 * WEEK_MS, 10_000);
    expect(left?.points).toEqual(a.filter((p) => p.ts >= before).map((p) => [p.ts, p.value]));
    const [bs] = await store.range(['b1'], 0, W0 + 5 * WEEK_MS, 10_000);
    expect(bs?.points).toHaveLength(b.length);

    // Now week 1 holds only acc-b's points.
    expect(await store.prune('acc-b', W0 + 2 * WEEK_MS)).toBe(b.length);
    expect(await partitionsOf(place)).toEqual([week(3)]);
    expect((await store.latest(['b1'])).size).toBe(0);
    await expectRollupsMatchPoints(place);
  });

  it('makes a new week while reads are open: no lock that would queue them', async () => {
    const place = await postgresPlace();
    const store = await place.open();
    await store.append(batchOf([{ stream: 's', account: 'a', ts: W0, value: 1 }]));
    const reader = await postgresClient(place.url!);
    try {
      await reader.query('begin');
      await reader.query('select count(*) from ts_points');
      // Waits for the reader's transaction if making the week needs an exclusive lock.
      const next = { stream: 's', account: 'a', ts: W0 + WEEK_MS, value: 2 };
      expect(await store.append(batchOf([next]))).toBe('stored');
    } finally {
      await reader.query('commit');
      await reader.end();
    }
    expect(await partitionsOf(place)).toEqual([partitionName(W0), partitionName(W0 + WEEK_MS)]);
  });

  it('writes into a week that another process dropped by making it again', async () => {
    const place = await postgresPlace();
    const writer = await place.open();
    const pruner = await place.open();
    const point = (ts: number, value: number) => ({ stream: 's', account: 'a', ts, value });
    expect(await writer.append(batchOf([point(W0 + HOUR, 1)]))).toBe('stored');
    expect(await pruner.prune('a', W0 + WEEK_MS)).toBe(1);
    expect(await partitionsOf(place)).toEqual([]);
    // The writer still thinks the week exists.
    expect(await writer.append(batchOf([point(W0 + 2 * HOUR, 2)]))).toBe('stored');
    expect(await pruner.latest(['s'])).toEqual(new Map([['s', { ts: W0 + 2 * HOUR, value: 2 }]]));
    await expectRollupsMatchPoints(place);
  });

  it('takes the same batches from several processes at once: each stored once, rollups exact', async () => {
    const place = await postgresPlace();
    const processes = await Promise.all([1, 2, 3, 4].map(() => place.open()));
    // Times around a week's start (two partitions made at once), values a function of the
    // point, so that whichever process writes a point last, the result is the same.
    const streams = ['s1', 's2', 'text'];
    const rnd = fc.sample(
      fc.array(fc.tuple(fc.nat(2), fc.integer({ min: -HOUR, max: HOUR })), {
        minLength: 50,
        maxLength: 200,
      }),
      { numRuns: 40, seed: 14 },
    );
    const batches: StoredBatch[] = rnd.map((points, i) => ({
      source: `gw-${i % 3}`,
      seq: i,
      points: points.map(([s, at]) => {
        const ts = W0 + at;
        const stream = streams[s]!;
        const value = stream === 'text' ? `v${ts % 5}` : (ts % 1_013) / 8;
        return { stream, account: s === 1 ? 'acc-b' : 'acc-a', ts, value };
      }),
    }));
    const answers = await Promise.all(
      batches.flatMap((batch, i) => [
        processes[i % 4]!.append(batch),
        processes[(i + 1) % 4]!.append(batch),
      ]),
    );
    expect(answers.filter((a) => a === 'stored')).toHaveLength(batches.length);
    await expectRollupsMatchPoints(place);

    const reference = await (await sqlitePlace()).open();
    for (const batch of batches) await reference.append(batch);
    for (const [from, to, points] of [
      [W0 - HOUR, W0 + HOUR, 10_000],
      [W0 - HOUR, W0 + HOUR, 40],
      [W0 - 30 * MINUTE + 7, W0 + 50 * MINUTE, 12],
    ] as const) {
      expect(await processes[0]!.range(streams, from, to, points)).toEqual(
        await reference.range(streams, from, to, points),
      );
    }
    expect(await processes[1]!.latest(streams)).toEqual(await reference.latest(streams));
  });
});

type Op =
  | { op: 'append'; source: number; seq: number; points: [number, number, Value][] }
  | { op: 'range'; streams: number[]; a: number; b: number; points: number }
  | { op: 'latest' }
  | { op: 'scan'; stream: number; a: number; b: number }
  | { op: 'prune'; account: number; at: number }
  | { op: 'pruneBatches'; advance: number; back: number };

type Value = number | boolean | string;

const FRACTION = 1_000_000;
const STREAMS = 3;

/**
 * A point's value by its stream, as real streams go: stream 0 whole numbers (ties for min and
 * max), stream 1 fractions and booleans, stream 2 states (texts) with a number now and then.
 */
const point = fc
  .tuple(fc.nat(STREAMS - 1), fc.nat(FRACTION), fc.integer({ min: -40, max: 40 }), fc.nat(9))
  .map(([s, at, n, pick]): [number, number, Value] => {
    const v =
      s === 0
        ? n % 6
        : s === 1
          ? pick < 2
            ? pick === 0
            : n / 8
          : pick < 8
            ? ['run', 'stop', 'fault'][pick % 3]!
            : n;
    return [s, at, v];
  });

const append: fc.Arbitrary<Op> = fc.record({
  op: fc.constant('append' as const),
  source: fc.nat(1),
  seq: fc.nat(6),
  points: fc.array(point, { maxLength: 150, size: 'max' }),
});

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: append },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant('range' as const),
      streams: fc.array(fc.nat(STREAMS), { minLength: 1, maxLength: 3 }),
      a: fc.nat(FRACTION),
      b: fc.nat(FRACTION),
      // Mostly fewer than the points in range: downsampled answers.
      points: fc.oneof(
        { weight: 3, arbitrary: fc.integer({ min: 1, max: 16 }) },
        { weight: 1, arbitrary: fc.integer({ min: 1, max: 200 }) },
      ),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ op: 'latest' as const }) },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('scan' as const),
      stream: fc.nat(STREAMS - 1),
      a: fc.nat(FRACTION),
      b: fc.nat(FRACTION),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('prune' as const),
      account: fc.nat(1),
      at: fc.nat(FRACTION),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('pruneBatches' as const),
      advance: fc.nat(3 * DAY),
      back: fc.nat(3 * DAY),
    }),
  },
);

describe.each(bothStores() ? [postgresKind] : [])('SQLite and Postgres stores', () => {
  it('answer the same to the same random writes, reads and prunes (property)', async () => {
    const clock = { at: T0, now: () => clock.at };
    const sqlite = await (await sqlitePlace()).open(clock);
    const postgresAt = await postgresPlace();
    const postgres = await postgresAt.open(clock);
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(2 * HOUR, 3 * DAY, 30 * DAY),
        // Some points first, then anything.
        fc
          .tuple(fc.array(append, { minLength: 1, maxLength: 3 }), fc.array(op, { maxLength: 12 }))
          .map(([first, then]) => [...first, ...then]),
        async (scale, ops) => {
          // Each run in weeks, streams, accounts and sources of its own (the stores are shared).
          const r = run++;
          const base = W0 + r * 10 * WEEK_MS;
          const at = (f: number) => base + Math.floor((f / FRACTION) * scale);
          const stream = (i: number) => `r${r}-s${i}`;
          const account = (i: number) => `r${r}-acc-${i}`;
          for (const o of ops) {
            const both = async <T>(f: (s: TimeSeriesStore) => Promise<T>) => {
              const [want, got] = [await f(sqlite), await f(postgres)];
              expect(got, JSON.stringify(o)).toEqual(want);
            };
            switch (o.op) {
              case 'append': {
                const batch: StoredBatch = {
                  source: `r${r}-g${o.source}`,
                  seq: o.seq,
                  points: o.points.map(([s, f, v]) => ({
                    stream: stream(s),
                    account: account(s % 2),
                    ts: at(f),
                    value: v,
                  })),
                };
                await both((s) => s.append(batch));
                break;
              }
              case 'range': {
                const [from, to] = [at(Math.min(o.a, o.b)), at(Math.max(o.a, o.b))];
                await both((s) => s.range(o.streams.map(stream), from, to, o.points));
                break;
              }
              case 'latest':
                await both((s) =>
                  s.latest(Array.from({ length: STREAMS + 1 }, (_, i) => stream(i))),
                );
                break;
              case 'scan': {
                const [from, to] = [at(Math.min(o.a, o.b)), at(Math.max(o.a, o.b))];
                await both(async (s) => {
                  const seen: [number, number | string][] = [];
                  for await (const p of s.scan(stream(o.stream), from, to)) seen.push(p);
                  return seen;
                });
                break;
              }
              case 'prune':
                await both((s) => s.prune(account(o.account), at(o.at)));
                break;
              case 'pruneBatches':
                clock.at += o.advance;
                await both((s) => s.pruneBatches(clock.at - o.back));
                break;
              default:
                o satisfies never;
            }
          }
        },
      ),
      { numRuns: propertyRuns(40) },
    );
    await expectRollupsMatchPoints(postgresAt);
  });
});
