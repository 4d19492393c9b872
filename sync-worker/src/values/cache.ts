import { Dexie, type Table } from 'dexie';
import type { ValuePoint } from '@plant/shared-schema';
import type { IndexedDbEnv } from '../store/indexeddb';
import { DEFAULT_HOT_BYTES, HotChunks } from './hot-chunks';
import { addSpan, cutSpans, gapsOf, heldOf, type Span } from './spans';

/**
 * The values cache (DESIGN.md §8): machine values in their own lean IndexedDB database (Dexie,
 * not RxDB: values arrive fast and are never synced back). One record per stream and hour holds
 * that hour's points as columns (a typed array of times, numbers as a typed array too), so a
 * day of 24 streams is a few hundred records, not a million. Spans say which parts of which
 * stream were read from the server, at what resolution. Bounded in size: past the bound the
 * oldest hours go first. The hours read or written lately are kept in memory too (hot-chunks.ts).
 */
export const HOUR_MS = 3_600_000;
/** Default bound of the cache: about 3.5 million points. */
export const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024;

interface ChunkRow {
  readonly stream: string;
  /** Start of the hour (ms). */
  readonly hour: number;
  /** Times in order. */
  readonly ts: Float64Array;
  /** The values when all are numbers. */
  readonly num: Float64Array | null;
  /** The values when some are texts. */
  readonly mixed: (number | string)[] | null;
  readonly bytes: number;
}

interface SpansRow {
  readonly stream: string;
  readonly spans: Span[];
}

interface SizeRow {
  readonly id: 'size';
  readonly bytes: number;
}

/** Points of one stream as columns, in time order. */
export interface PointColumns {
  readonly ts: number[];
  readonly values: (number | string)[];
}

class ValuesDatabase extends Dexie {
  chunks!: Table<ChunkRow, [string, number]>;
  spans!: Table<SpansRow, string>;
  meta!: Table<SizeRow, string>;

  constructor(name: string, env: IndexedDbEnv) {
    super(name, { indexedDB: env.indexedDB, IDBKeyRange: env.IDBKeyRange });
    this.version(1).stores({ chunks: '[stream+hour], hour', spans: 'stream', meta: 'id' });
  }
}

export function hourOf(ts: number): number {
  return Math.floor(ts / HOUR_MS) * HOUR_MS;
}

function bytesOf(ts: Float64Array, mixed: readonly (number | string)[] | null): number {
  let bytes = ts.length * 16 + 64;
  if (mixed !== null) for (const v of mixed) if (typeof v === 'string') bytes += v.length * 2;
  return bytes;
}

/** Merges points (sorted by time) into a chunk's columns; a new point replaces one at its time. */
function mergeInto(chunk: ChunkRow | undefined, points: readonly ValuePoint[]): PointColumns {
  const oldTs = chunk?.ts ?? new Float64Array(0);
  const oldValues: ArrayLike<number | string> = chunk?.num ?? chunk?.mixed ?? [];
  const ts: number[] = [];
  const values: (number | string)[] = [];
  let i = 0;
  let j = 0;
  while (i < oldTs.length || j < points.length) {
    const a = i < oldTs.length ? (oldTs[i] as number) : Number.POSITIVE_INFINITY;
    const p = points[j];
    const b = p === undefined ? Number.POSITIVE_INFINITY : p[0];
    if (a < b) {
      ts.push(a);
      values.push(oldValues[i] as number | string);
      i++;
    } else {
      if (a === b) i++;
      ts.push(b);
      values.push((p as ValuePoint)[1]);
      j++;
      // Repeated times within the new points: the last one wins.
      while (j < points.length && (points[j] as ValuePoint)[0] === b) {
        values[values.length - 1] = (points[j] as ValuePoint)[1];
        j++;
      }
    }
  }
  return { ts, values };
}

function rowOf(stream: string, hour: number, columns: PointColumns): ChunkRow {
  const ts = Float64Array.from(columns.ts);
  const numeric = columns.values.every((v) => typeof v === 'number');
  const mixed = numeric ? null : columns.values;
  return {
    stream,
    hour,
    ts,
    num: numeric ? Float64Array.from(columns.values) : null,
    mixed,
    bytes: bytesOf(ts, mixed),
  };
}

/** One stream's cached points in a range, with the parts of the range the cache holds. */
export interface CachedRange {
  readonly columns: PointColumns;
  readonly held: { from: number; to: number }[];
}

interface RangeAsk {
  readonly stream: string;
  readonly from: number;
  readonly to: number;
  readonly resolve: (answer: CachedRange) => void;
  readonly reject: (error: unknown) => void;
}

/** A chunk's points within [from, to], appended to the columns. */
function appendWithin(chunks: readonly ChunkRow[], from: number, to: number, into: PointColumns) {
  for (const c of chunks) {
    const vs: ArrayLike<number | string> = c.num ?? c.mixed ?? [];
    for (let i = 0; i < c.ts.length; i++) {
      const t = c.ts[i] as number;
      if (t < from || t > to) continue;
      into.ts.push(t);
      into.values.push(vs[i] as number | string);
    }
  }
}

/** What one tab's cache tells the others of the same store: it wrote these streams (null: any). */
interface WrittenMessage {
  readonly streams: readonly string[] | null;
}

export class ValuesCache {
  private readonly db: ValuesDatabase;
  /** Range reads asked in this task, read together at its end (`readRange`). */
  private asks: RangeAsk[] = [];
  private readonly hot: HotChunks<ChunkRow>;
  /** Set once the store is deleted or upgraded elsewhere: memory answers nothing more. */
  private hotOff = false;
  /** To the other tabs' workers of this store (none where the runtime lacks it). */
  private readonly written: BroadcastChannel | undefined;

  private constructor(
    db: ValuesDatabase,
    private readonly maxBytes: number,
    hotBytes: number,
  ) {
    this.db = db;
    this.hot = new HotChunks(hotBytes, HOUR_MS);
    db.on('versionchange', () => {
      this.hotOff = true;
      this.hot.forget();
    });
    this.written =
      typeof BroadcastChannel === 'undefined'
        ? undefined
        : new BroadcastChannel(`${db.name}:written`);
    // Node's channel would keep a test's process alive until closed.
    (this.written as { unref?: () => void } | undefined)?.unref?.();
    this.written?.addEventListener('message', (e: MessageEvent<WrittenMessage>) => {
      this.hot.forget(e.data.streams ?? undefined);
    });
  }

  static async open(
    name: string,
    env: IndexedDbEnv,
    maxBytes = DEFAULT_CACHE_BYTES,
    hotBytes = DEFAULT_HOT_BYTES,
  ): Promise<ValuesCache> {
    const db = new ValuesDatabase(name, env);
    await db.open();
    return new ValuesCache(db, maxBytes, hotBytes);
  }

  /** Bytes of rows held in memory (hot-chunks.ts). */
  get memoryBytes(): number {
    return this.hot.size;
  }

  /** Tells the other tabs' caches what this one wrote (they forget it from memory). */
  private tellWritten(streams: readonly string[] | null): void {
    try {
      this.written?.postMessage({ streams } satisfies WrittenMessage);
    } catch {
      // A closed channel (the cache is closing): nobody to tell.
    }
  }

  get name(): string {
    return this.db.name;
  }

  /**
   * Stores one stream's points; `span` (with its resolution) marks the range they answer as
   * read from the server. Evicts the oldest hours when the cache grows past its bound.
   */
  async put(stream: string, points: readonly ValuePoint[], span?: Span): Promise<void> {
    const sorted = [...points].sort((a, b) => a[0] - b[0]);
    const byHour = new Map<number, ValuePoint[]>();
    for (const p of sorted) {
      const hour = hourOf(p[0]);
      let list = byHour.get(hour);
      if (list === undefined) byHour.set(hour, (list = []));
      list.push(p);
    }
    let size = 0;
    let rows: ChunkRow[] = [];
    let spans: Span[] = [];
    await this.db.transaction('rw', this.db.chunks, this.db.spans, this.db.meta, async () => {
      const hours = [...byHour.keys()];
      const existing = await this.db.chunks.bulkGet(hours.map((h) => [stream, h]));
      rows = hours.map((hour, k) =>
        rowOf(stream, hour, mergeInto(existing[k], byHour.get(hour) ?? [])),
      );
      const grown = rows.reduce((sum, r, k) => sum + r.bytes - (existing[k]?.bytes ?? 0), 0);
      await this.db.chunks.bulkPut(rows);
      // Read even when unchanged: memory then knows the stream's spans with its rows.
      spans = (await this.db.spans.get(stream))?.spans ?? [];
      if (span !== undefined) {
        spans = addSpan(spans, span);
        await this.db.spans.put({ stream, spans });
      }
      size = ((await this.db.meta.get('size'))?.bytes ?? 0) + grown;
      await this.db.meta.put({ id: 'size', bytes: size });
    });
    this.hot.noteWrite(stream, rows, spans);
    this.tellWritten([stream]);
    if (size > this.maxBytes) await this.evict(Math.floor(this.maxBytes * 0.9));
  }

  /** One stream's cached points within [from, to], in time order. */
  async read(stream: string, from: number, to: number): Promise<PointColumns> {
    let chunks = this.hotRows(stream, from, to);
    if (chunks === undefined) {
      const generation = this.hot.generation(stream);
      chunks = await this.chunksOf(stream, from, to);
      this.noteRead(stream, generation, from, to, chunks);
    }
    const columns: PointColumns = { ts: [], values: [] };
    appendWithin(chunks, from, to, columns);
    return columns;
  }

  /** The rows of a stream's hours over [from, to] from memory, when it knows them all. */
  private hotRows(stream: string, from: number, to: number): ChunkRow[] | undefined {
    return this.hotOff ? undefined : this.hot.rows(stream, hourOf(from), hourOf(to));
  }

  /** A stream's spans: from memory, else from the store (and then remembered). */
  private async spansOf(stream: string): Promise<Span[]> {
    const known = this.hotOff ? undefined : this.hot.spans(stream);
    if (known !== undefined) return known;
    const generation = this.hot.generation(stream);
    const spans = (await this.db.spans.get(stream))?.spans ?? [];
    if (!this.hotOff) this.hot.noteRead(stream, generation, 1, 0, [], spans);
    return spans;
  }

  private noteRead(
    stream: string,
    generation: string,
    from: number,
    to: number,
    rows: readonly ChunkRow[],
    spans?: Span[],
  ): void {
    if (!this.hotOff) this.hot.noteRead(stream, generation, hourOf(from), hourOf(to), rows, spans);
  }

  private chunksOf(stream: string, from: number, to: number): Promise<ChunkRow[]> {
    return this.db.chunks
      .where('[stream+hour]')
      .between([stream, hourOf(from)], [stream, hourOf(to)], true, true)
      .toArray();
  }

  /**
   * One stream's cached points within [from, to] and the parts of it the cache holds (`read`
   * and `held` at once). Every range asked in the same task is read in one transaction at the
   * task's end: the charts of a page open together, and twenty of them asking one by one paid
   * two transactions each, one after the other, before the first could draw.
   */
  readRange(stream: string, from: number, to: number): Promise<CachedRange> {
    return new Promise((resolve, reject) => {
      this.asks.push({ stream, from, to, resolve, reject });
      if (this.asks.length === 1) queueMicrotask(() => void this.readAsked());
    });
  }

  private async readAsked(): Promise<void> {
    const asks = this.asks;
    this.asks = [];
    const answer = (
      chunks: readonly ChunkRow[],
      spans: readonly Span[],
      from: number,
      to: number,
    ) => {
      const columns: PointColumns = { ts: [], values: [] };
      appendWithin(chunks, from, to, columns);
      const held = heldOf(spans, from, to, columns.ts[0], columns.ts.at(-1));
      return { columns, held };
    };
    // What memory holds is answered at once; the rest in one store transaction.
    const stored: RangeAsk[] = [];
    for (const ask of asks) {
      const rows = this.hotRows(ask.stream, ask.from, ask.to);
      const spans = rows === undefined ? undefined : this.hot.spans(ask.stream);
      if (rows === undefined || spans === undefined) stored.push(ask);
      else ask.resolve(answer(rows, spans, ask.from, ask.to));
    }
    if (stored.length === 0) return;
    const generations = stored.map((ask) => this.hot.generation(ask.stream));
    let answers: CachedRange[];
    try {
      answers = await this.db.transaction('r', this.db.chunks, this.db.spans, () =>
        Promise.all(
          stored.map(async ({ stream, from, to }, k) => {
            const [chunks, row] = await Promise.all([
              this.chunksOf(stream, from, to),
              this.db.spans.get(stream),
            ]);
            const spans = row?.spans ?? [];
            this.noteRead(stream, generations[k] ?? '', from, to, chunks, spans);
            return answer(chunks, spans, from, to);
          }),
        ),
      );
    } catch (error) {
      for (const ask of stored) ask.reject(error);
      return;
    }
    // Answered after the transaction: what the askers do next is outside it.
    stored.forEach((ask, k) => ask.resolve(answers[k] as CachedRange));
  }

  /** The last cached point of a stream at or before `before`, if any. */
  async last(stream: string, before = Number.MAX_SAFE_INTEGER): Promise<ValuePoint | undefined> {
    const chunks = await this.db.chunks
      .where('[stream+hour]')
      .between([stream, Dexie.minKey], [stream, hourOf(before)], true, true)
      .reverse()
      .limit(2)
      .toArray();
    for (const c of chunks) {
      const vs: ArrayLike<number | string> = c.num ?? c.mixed ?? [];
      for (let i = c.ts.length - 1; i >= 0; i--) {
        if ((c.ts[i] as number) <= before) return [c.ts[i] as number, vs[i] as number | string];
      }
    }
    return undefined;
  }

  /** The parts of [from, to] of a stream not read from the server at `step` or finer. */
  async gaps(
    stream: string,
    from: number,
    to: number,
    step: number,
  ): Promise<{ from: number; to: number }[]> {
    return gapsOf(await this.spansOf(stream), from, to, step);
  }

  /**
   * The parts of [from, to] of a stream the cache holds, at any resolution (read from the server,
   * or live values after the last read); `first`/`last`: its first and last cached point in the
   * range, when the caller has read them already.
   */
  async held(
    stream: string,
    from: number,
    to: number,
    points?: { readonly first: number | undefined; readonly last: number | undefined },
  ): Promise<{ from: number; to: number }[]> {
    const spans = await this.spansOf(stream);
    let ends = points;
    if (ends === undefined) {
      const cached = await this.read(stream, from, to);
      ends = { first: cached.ts[0], last: cached.ts.at(-1) };
    }
    return heldOf(spans, from, to, ends.first, ends.last);
  }

  /** How big the cache is (bytes as counted for the bound) and how many chunks it holds. */
  async size(): Promise<{ bytes: number; chunks: number; maxBytes: number }> {
    const [meta, chunks] = await Promise.all([this.db.meta.get('size'), this.db.chunks.count()]);
    return { bytes: meta?.bytes ?? 0, chunks, maxBytes: this.maxBytes };
  }

  /**
   * Drops every cached hour of the streams not in `streams` (those the user may no longer see,
   * DESIGN.md §10).
   */
  async keepOnly(streams: ReadonlySet<string>): Promise<void> {
    await this.db.transaction('rw', this.db.chunks, this.db.spans, this.db.meta, async () => {
      const gone: ChunkRow[] = [];
      await this.db.chunks.each((c: ChunkRow) => {
        if (!streams.has(c.stream)) gone.push(c);
      });
      await this.db.chunks.bulkDelete(gone.map((c) => [c.stream, c.hour] as [string, number]));
      const spanRows = (await this.db.spans.toArray()).filter((r) => !streams.has(r.stream));
      await this.db.spans.bulkDelete(spanRows.map((r) => r.stream));
      const size = (await this.db.meta.get('size'))?.bytes ?? 0;
      const freed = gone.reduce((sum, c) => sum + c.bytes, 0);
      await this.db.meta.put({ id: 'size', bytes: Math.max(0, size - freed) });
    });
    this.hot.forget();
    this.tellWritten(null);
  }

  /** Drops the oldest hours (of any stream) until the cache is at most `target` bytes. */
  private async evict(target: number): Promise<void> {
    await this.db.transaction('rw', this.db.chunks, this.db.spans, this.db.meta, async () => {
      let size = (await this.db.meta.get('size'))?.bytes ?? 0;
      const gone: ChunkRow[] = [];
      await this.db.chunks
        .orderBy('hour')
        .until(() => size <= target)
        .each((c: ChunkRow) => {
          gone.push(c);
          size -= c.bytes;
        });
      await this.db.chunks.bulkDelete(gone.map((c) => [c.stream, c.hour] as [string, number]));
      const streams = [...new Set(gone.map((c) => c.stream))];
      const rows = await this.db.spans.bulkGet(streams);
      await this.db.spans.bulkPut(
        rows
          .filter((r): r is SpansRow => r !== undefined)
          .map((r) => ({
            stream: r.stream,
            spans: gone
              .filter((c) => c.stream === r.stream)
              .reduce((spans, c) => cutSpans(spans, c.hour, c.hour + HOUR_MS), r.spans),
          })),
      );
      await this.db.meta.put({ id: 'size', bytes: Math.max(0, size) });
    });
    this.hot.forget();
    this.tellWritten(null);
  }

  close(): void {
    this.hotOff = true;
    this.hot.forget();
    this.written?.close();
    this.db.close();
  }
}
