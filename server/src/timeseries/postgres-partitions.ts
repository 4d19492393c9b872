import type pg from 'pg';
import type { Queryable } from './postgres-rollups';
import { HOUR_MS } from './rollup';

export const WEEK_MS = 7 * 24 * HOUR_MS;
/** 1970-01-05, the first Monday after the epoch: weeks start on Mondays (UTC), like ISO weeks. */
const FIRST_MONDAY = 4 * 24 * HOUR_MS;

/** The start of the week (Monday 00:00 UTC) holding `ts`: where its partition begins. */
export function weekOf(ts: number): number {
  return Math.floor((ts - FIRST_MONDAY) / WEEK_MS) * WEEK_MS + FIRST_MONDAY;
}

/** `ts_points_20260105` for the week starting on that Monday (a name an operator can read). */
export function partitionName(start: number): string {
  const date = new Date(start);
  const year = date.getUTCFullYear();
  if (Number.isNaN(year) || year < 1000 || year > 9999) {
    // Out of the four-digit years: the week's number (m for minus) keeps names unique.
    const week = Math.round((start - FIRST_MONDAY) / WEEK_MS);
    return `ts_points_w${week < 0 ? `m${-week}` : week}`;
  }
  return `ts_points_${date.toISOString().slice(0, 10).replaceAll('-', '')}`;
}

/**
 * Partition names and bounds go into DDL, which takes no parameters: they are made here from
 * integers only, and checked again before they are spliced in.
 */
function ident(name: string): string {
  if (!/^ts_points_[a-z0-9]+$/.test(name)) throw new Error(`Not a partition name: ${name}`);
  return `"${name}"`;
}

function bound(ms: number): string {
  if (!Number.isSafeInteger(ms)) throw new Error(`Not a partition bound: ${ms}`);
  return String(ms);
}

export interface Partition {
  readonly name: string;
  readonly start: number;
  readonly end: number;
}

/** Makes every process's partition DDL wait for the others: concurrent CREATE IF NOT EXISTS races. */
const DDL_LOCK = 'ts_points partitions';

/**
 * The weekly partitions of `ts_points`. Inserts need the partition of their time to exist, so
 * `ensure` makes the missing ones before a batch is written; which exist is remembered per
 * process, and forgotten when an insert finds one gone (another process's retention dropped it).
 */
export class Partitions {
  private readonly known = new Set<number>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly transaction: <T>(f: (c: pg.PoolClient) => Promise<T>) => Promise<T>,
  ) {}

  /**
   * Makes the partitions holding `times` that this process does not know to exist. A partition
   * is made as a table of its own and then attached: CREATE TABLE … PARTITION OF would take an
   * ACCESS EXCLUSIVE lock on ts_points, queueing every read and write behind the reads in flight,
   * while ATTACH needs only SHARE UPDATE EXCLUSIVE (its check of the new, empty table is instant).
   */
  async ensure(times: Iterable<number>): Promise<void> {
    const missing = new Set<number>();
    for (const ts of times) {
      const start = weekOf(ts);
      if (!this.known.has(start)) missing.add(start);
    }
    if (missing.size === 0) return;
    const starts = [...missing].sort((a, b) => a - b);
    await this.transaction(async (c) => {
      await c.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [DDL_LOCK]);
      for (const start of starts) {
        const name = partitionName(start);
        const { rows } = await c.query<{ table: string | null; attached: boolean }>(
          `select to_regclass($1)::text as table,
                  exists (select 1 from pg_inherits where inhrelid = to_regclass($1)) as attached`,
          [name],
        );
        if (rows[0]?.attached === true) continue;
        if (rows[0]?.table === null) {
          await c.query(`create table ${ident(name)} (like ts_points including all)`);
        }
        await c.query(
          `alter table ts_points attach partition ${ident(name)}
            for values from (${bound(start)}) to (${bound(start + WEEK_MS)})`,
        );
      }
    });
    for (const start of starts) this.known.add(start);
  }

  forget(): void {
    this.known.clear();
  }

  /** Every partition, oldest first. */
  async list(): Promise<Partition[]> {
    const { rows } = await this.pool.query<{ name: string; bounds: string }>(
      `select c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bounds
         from pg_inherits i join pg_class c on c.oid = i.inhrelid
        where i.inhparent = to_regclass('ts_points')`,
    );
    const out: Partition[] = [];
    for (const { name, bounds } of rows) {
      const m = /FROM \('(-?\d+)'\) TO \('(-?\d+)'\)/.exec(bounds);
      if (m === null) continue;
      out.push({ name, start: Number(m[1]), end: Number(m[2]) });
    }
    return out.sort((a, b) => a.start - b.start);
  }

  /**
   * Drops the partition when every point in it is one of `series` (the pruned account's), or it
   * holds none at all: answers how many points went, or undefined when it stays (it holds
   * another account's points, or none of the account's: that account's own prune sees to it).
   * Inserts into ts_points wait meanwhile (SHARE ROW EXCLUSIVE), so that no other account's point
   * lands in it between the look and the drop; reads go on until the drop itself. The caller has
   * checked that the whole partition lies before the account's cut.
   */
  async dropIfOnly(series: readonly number[], p: Partition): Promise<number | undefined> {
    // A look without the lock first: most old partitions are not this account's to drop, and
    // cost no one a wait.
    if (!(await this.droppable(this.pool, series, p))) return undefined;
    const dropped = await this.transaction(async (c) => {
      await c.query(`set local lock_timeout = '10s'`);
      await c.query('lock table ts_points in share row exclusive mode');
      const exists = await c.query<{ oid: string | null }>('select to_regclass($1) as oid', [
        p.name,
      ]);
      if (exists.rows[0]?.oid === null) return 0; // another process dropped it first
      if (!(await this.droppable(c, series, p))) return undefined;
      const { rows } = await c.query<{ n: number }>(`select count(*) as n from ${ident(p.name)}`);
      await c.query(`drop table ${ident(p.name)}`);
      return rows[0]?.n ?? 0;
    });
    if (dropped !== undefined) this.known.delete(p.start);
    return dropped;
  }

  /**
   * Whether the partition is empty or holds only points of `series`. Index probes only: one per
   * own series until a point is found, then a walk over the distinct series in the partition (a
   * loose index scan) that stops at the first stranger.
   */
  private async droppable(q: Queryable, series: readonly number[], p: Partition): Promise<boolean> {
    const table = ident(p.name);
    const own = await q.query(
      `select 1 from unnest($1::int[]) as s(id)
         cross join lateral (select 1 from ${table} where series = s.id limit 1) as x
        limit 1`,
      [series],
    );
    if (own.rows.length === 0) {
      return (await q.query(`select 1 from ${table} limit 1`)).rows.length === 0;
    }
    const stranger = await q.query(
      `with recursive present(series) as (
         (select series from ${table} order by series limit 1)
         union all
         select (select p.series from ${table} as p where p.series > present.series
                  order by p.series limit 1)
           from present where present.series is not null
       )
       select series from present
        where series is not null and not (series = any($1::int[]))
        limit 1`,
      [series],
    );
    return stranger.rows.length === 0;
  }
}

/** Whether an insert failed because the partition of its time is missing (SQLSTATE 23514). */
export function isMissingPartition(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown };
  return (
    e.code === '23514' &&
    typeof e.message === 'string' &&
    e.message.startsWith('no partition of relation')
  );
}
