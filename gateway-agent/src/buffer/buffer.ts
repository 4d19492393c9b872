import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { GatewayPoint, PointValue } from '@plant/shared-schema';

/** A batch as it leaves the buffer: its seq and its points, the same every time it is sent. */
export interface BufferedBatch {
  readonly seq: number;
  readonly points: GatewayPoint[];
}

export interface BufferOptions {
  /** Most points kept; past it the oldest are dropped (and counted). */
  readonly maxPoints: number;
  /** Most points in one batch. */
  readonly batchPoints: number;
}

/** What the buffer holds now, for the agent's status. */
export interface BufferState {
  readonly pending: number;
  readonly dropped: number;
}

/**
 * The agent's local buffer (DESIGN.md §8 store and forward), a SQLite file in its data folder:
 * every point is written here first; a batch is formed from the oldest points and written down
 * with its seq before it is sent, so that after a crash the same seq is sent again with the same
 * points (the server stores a (buffer, seq) once). A batch leaves the buffer only when the server
 * acknowledges it. Seq is gapless within the buffer, whose random id goes with every batch: a new
 * buffer file (a reinstalled agent) starts again at 1 without being taken for the old one.
 * Bounded: past maxPoints the oldest points go, whole batches first, and the count is kept.
 */
export class PointBuffer {
  private readonly db: Database.Database;
  readonly id: string;
  private readonly stmts;
  /** Points held, counted once at open and then kept (count(*) reads the whole table). */
  private held: number;

  private constructor(
    file: string,
    private options: BufferOptions,
  ) {
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.exec(`
      create table if not exists meta (key text primary key, value text not null);
      create table if not exists points (
        id integer primary key autoincrement,
        stream text not null,
        ts integer not null,
        value text not null
      );
      create table if not exists batches (
        seq integer primary key,
        first_id integer not null,
        last_id integer not null
      );
    `);
    const meta = (key: string) =>
      (this.db.prepare('select value from meta where key = ?').pluck().get(key) as
        string | undefined) ?? undefined;
    let id = meta('buffer_id');
    if (id === undefined) {
      id = randomBytes(12).toString('base64url');
      this.db.prepare('insert into meta (key, value) values (?, ?)').run('buffer_id', id);
    }
    this.id = id;
    this.stmts = {
      insert: this.db.prepare('insert into points (stream, ts, value) values (?, ?, ?)'),
      count: this.db.prepare('select count(*) from points').pluck(),
      batches: this.db.prepare('select seq, first_id, last_id from batches order by seq'),
      pointsBetween: this.db.prepare(
        'select stream, ts, value from points where id between ? and ? order by id',
      ),
      lastBatched: this.db.prepare('select max(last_id) from batches').pluck(),
      lastSeq: this.db.prepare("select value from meta where key = 'last_seq'").pluck(),
      setMeta: this.db.prepare(
        'insert into meta (key, value) values (?, ?) on conflict(key) do update set value = excluded.value',
      ),
      unbatched: this.db.prepare('select id from points where id > ? order by id limit ?').pluck(),
      addBatch: this.db.prepare('insert into batches (seq, first_id, last_id) values (?, ?, ?)'),
      batch: this.db.prepare('select first_id, last_id from batches where seq = ?'),
      removeBatch: this.db.prepare('delete from batches where seq = ?'),
      removePoints: this.db.prepare('delete from points where id between ? and ?'),
      oldestBatch: this.db.prepare(
        'select seq, first_id, last_id from batches order by seq limit 1',
      ),
      removeOldest: this.db.prepare(
        'delete from points where id in (select id from points where id > ? order by id limit ?)',
      ),
      dropped: this.db.prepare("select value from meta where key = 'dropped'").pluck(),
    };
    this.held = Number(this.stmts.count.get());
  }

  /** Opens (or creates) the buffer file of one gateway in the data folder. */
  static open(dataDir: string, gatewayId: string, options: BufferOptions): PointBuffer {
    fs.mkdirSync(dataDir, { recursive: true });
    return new PointBuffer(path.join(dataDir, `buffer-${gatewayId}.sqlite`), options);
  }

  /**
   * Writes points; answers how many old points had to go to stay within maxPoints (0 mostly).
   * One transaction: a crash keeps all of them or none.
   */
  add(points: readonly { stream: string; ts: number; value: PointValue }[]): number {
    if (points.length === 0) return 0;
    return this.atomically(() => {
      for (const p of points) this.stmts.insert.run(p.stream, p.ts, JSON.stringify(p.value));
      this.held += points.length;
      return this.enforceBound();
    });
  }

  /**
   * The batches to send, oldest first: those formed and not yet acknowledged (but those in
   * `skip`, already on their way), then new ones formed from the oldest unbatched points, until
   * `limit` batches are out.
   */
  outgoing(limit: number, skip: ReadonlySet<number> = new Set()): BufferedBatch[] {
    const formed = (
      this.stmts.batches.all() as { seq: number; first_id: number; last_id: number }[]
    ).slice(0, limit);
    const out = formed
      .filter((b) => !skip.has(b.seq))
      .map((b) => this.read(b.seq, b.first_id, b.last_id));
    for (let n = formed.length; n < limit; n += 1) {
      const next = this.form();
      if (next === undefined) break;
      out.push(next);
    }
    return out;
  }

  /** The server has the batch (stored, or a duplicate of one stored): it leaves the buffer. */
  acknowledged(seq: number): boolean {
    return this.atomically(() => {
      const batch = this.stmts.batch.get(seq) as { first_id: number; last_id: number } | undefined;
      if (batch === undefined) return false;
      this.held -= this.stmts.removePoints.run(batch.first_id, batch.last_id).changes;
      this.stmts.removeBatch.run(seq);
      return true;
    });
  }

  /** The server refused the batch for good: it leaves the buffer, counted as dropped. */
  refused(seq: number): number {
    return this.atomically(() => {
      const batch = this.stmts.batch.get(seq) as { first_id: number; last_id: number } | undefined;
      if (batch === undefined) return 0;
      const n = this.stmts.removePoints.run(batch.first_id, batch.last_id).changes;
      this.held -= n;
      this.stmts.removeBatch.run(seq);
      this.addDropped(n);
      return n;
    });
  }

  /** A new bound (the configuration changed the agent's rate); applies from the next add. */
  setMaxPoints(maxPoints: number): void {
    this.options = { ...this.options, maxPoints };
  }

  state(): BufferState {
    return {
      pending: this.held,
      dropped: Number(this.stmts.dropped.get() ?? 0),
    };
  }

  close(): void {
    this.db.close();
  }

  private form(): BufferedBatch | undefined {
    return this.atomically(() => {
      const after = Number(this.stmts.lastBatched.get() ?? 0);
      const ids = this.stmts.unbatched.all(after, this.options.batchPoints) as number[];
      const first = ids[0];
      const last = ids.at(-1);
      if (first === undefined || last === undefined) return undefined;
      const seq = Number(this.stmts.lastSeq.get() ?? 0) + 1;
      this.stmts.setMeta.run('last_seq', String(seq));
      this.stmts.addBatch.run(seq, first, last);
      return this.read(seq, first, last);
    });
  }

  private read(seq: number, firstId: number, lastId: number): BufferedBatch {
    const rows = this.stmts.pointsBetween.all(firstId, lastId) as {
      stream: string;
      ts: number;
      value: string;
    }[];
    return {
      seq,
      points: rows.map((r) => ({
        stream: r.stream,
        ts: r.ts,
        value: JSON.parse(r.value) as PointValue,
      })),
    };
  }

  /** Runs `fn` in one transaction; a rolled-back one leaves the count as the file has it. */
  private atomically<T>(fn: () => T): T {
    try {
      return this.db.transaction(fn)();
    } catch (err) {
      this.held = Number(this.stmts.count.get());
      throw err;
    }
  }

  /** Drops the oldest points past the bound: whole batches first, then unbatched points. */
  private enforceBound(): number {
    let excess = this.held - this.options.maxPoints;
    if (excess <= 0) return 0;
    let dropped = 0;
    while (excess > 0) {
      const oldest = this.stmts.oldestBatch.get() as
        { seq: number; first_id: number; last_id: number } | undefined;
      if (oldest === undefined) break;
      const n = this.stmts.removePoints.run(oldest.first_id, oldest.last_id).changes;
      this.stmts.removeBatch.run(oldest.seq);
      this.held -= n;
      dropped += n;
      excess -= n;
    }
    if (excess > 0) {
      const after = Number(this.stmts.lastBatched.get() ?? 0);
      const n = this.stmts.removeOldest.run(after, excess).changes;
      this.held -= n;
      dropped += n;
    }
    this.addDropped(dropped);
    return dropped;
  }

  private addDropped(n: number): void {
    if (n === 0) return;
    const total = Number(this.stmts.dropped.get() ?? 0) + n;
    this.stmts.setMeta.run('dropped', String(total));
  }
}
