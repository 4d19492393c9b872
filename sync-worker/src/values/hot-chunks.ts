import type { Span } from './spans';

/**
 * The values cache's hours kept in the worker's memory as well (issue 31's first paint): a
 * chart opened again, or redrawn for a live value, is answered without an IndexedDB
 * transaction (on a busy tablet its callbacks were most of the worker's answer). IndexedDB stays
 * the truth: every write goes there first and is noted here after; what is noted here is only
 * ever what was read from or written to it.
 *
 * Per stream it knows some hours (each with its row, or none: an hour the store lacks) and,
 * once read, the stream's spans. A range is answered from memory only when every hour of it is
 * known. Bounded in bytes: the streams used longest ago go first. Another tab's worker writing
 * the same store makes this one forget the streams it wrote (`forget`); a read that began before
 * a write to its stream is not noted (`generation`).
 */
export interface HotRow {
  readonly hour: number;
  readonly bytes: number;
}

interface HotStream<R extends HotRow> {
  spans: Span[] | undefined;
  readonly hours: Map<number, R | null>;
  bytes: number;
}

/** Default bound: about a million points (a dashboard's day of twenty streams, live ones too). */
export const DEFAULT_HOT_BYTES = 16 * 1024 * 1024;

export class HotChunks<R extends HotRow> {
  /** In the order used: the first is the one used longest ago. */
  private readonly streams = new Map<string, HotStream<R>>();
  /** Bumped by every write or forget of a stream (see `noteRead`). */
  private readonly generations = new Map<string, number>();
  /** Bumped when everything is forgotten. */
  private epoch = 0;
  private bytes = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly hourMs: number,
  ) {}

  /** Taken at a store read's start, for `noteRead`. */
  generation(stream: string): string {
    return `${this.epoch}/${this.count(stream)}`;
  }

  private count(stream: string): number {
    return this.generations.get(stream) ?? 0;
  }

  private bump(stream: string): void {
    this.generations.set(stream, this.count(stream) + 1);
  }

  /** The rows of hours [fromHour, toHour] of a stream, when every one is known. */
  rows(stream: string, fromHour: number, toHour: number): R[] | undefined {
    const hot = this.streams.get(stream);
    if (hot === undefined || !(fromHour <= toHour) || !Number.isFinite(toHour - fromHour)) {
      return undefined;
    }
    const rows: R[] = [];
    for (let hour = fromHour; hour <= toHour; hour += this.hourMs) {
      const row = hot.hours.get(hour);
      if (row === undefined) return undefined;
      if (row !== null) rows.push(row);
    }
    this.touch(stream, hot);
    return rows;
  }

  spans(stream: string): Span[] | undefined {
    return this.streams.get(stream)?.spans;
  }

  /**
   * What a store read of hours [fromHour, toHour] found (and the spans, when it read them), if
   * no write or forget of the stream came since `generation` was taken at the read's start.
   */
  noteRead(
    stream: string,
    generation: string,
    fromHour: number,
    toHour: number,
    rows: readonly R[],
    spans?: Span[],
  ): void {
    if (this.generation(stream) !== generation || !Number.isFinite(toHour - fromHour)) return;
    const hot = this.stream(stream);
    const found = new Map(rows.map((r) => [r.hour, r]));
    for (let hour = fromHour; hour <= toHour; hour += this.hourMs) {
      this.set(hot, hour, found.get(hour) ?? null);
    }
    if (spans !== undefined) hot.spans = spans;
    this.bound();
  }

  /** Rows just written to the store (and the stream's spans, when the write changed them). */
  noteWrite(stream: string, rows: readonly R[], spans?: Span[]): void {
    this.bump(stream);
    const hot = this.stream(stream);
    for (const row of rows) this.set(hot, row.hour, row);
    if (spans !== undefined) hot.spans = spans;
    this.bound();
  }

  /** Forgets streams (written elsewhere), or everything. */
  forget(streams?: Iterable<string>): void {
    if (streams === undefined) {
      this.epoch++;
      this.generations.clear();
      this.streams.clear();
      this.bytes = 0;
      return;
    }
    for (const stream of streams) {
      this.bump(stream);
      const hot = this.streams.get(stream);
      if (hot === undefined) continue;
      this.bytes -= hot.bytes;
      this.streams.delete(stream);
    }
  }

  /** Bytes held (as the rows count them). */
  get size(): number {
    return this.bytes;
  }

  private stream(stream: string): HotStream<R> {
    let hot = this.streams.get(stream);
    if (hot === undefined) {
      hot = { spans: undefined, hours: new Map(), bytes: 0 };
      this.streams.set(stream, hot);
    } else {
      this.touch(stream, hot);
    }
    return hot;
  }

  private touch(stream: string, hot: HotStream<R>): void {
    this.streams.delete(stream);
    this.streams.set(stream, hot);
  }

  private set(hot: HotStream<R>, hour: number, row: R | null): void {
    const had = hot.hours.get(hour);
    const grown = (row?.bytes ?? 0) - (had?.bytes ?? 0);
    hot.hours.set(hour, row);
    hot.bytes += grown;
    this.bytes += grown;
  }

  /** Drops the streams used longest ago until the bytes are within the bound. */
  private bound(): void {
    for (const [stream, hot] of this.streams) {
      if (this.bytes <= this.maxBytes) return;
      this.bump(stream);
      this.bytes -= hot.bytes;
      this.streams.delete(stream);
    }
  }
}
