/*
 * Charts kept for a while after their widget left the page, for the same widget's next mount: a
 * dashboard opened again (back from an asset's page, from Home) redraws its charts with the new
 * answers instead of making them anew. A new chart's canvas is allocated at its first drawing,
 * which was about a third of the charts' task in the dashboard's opening (bench CONTEXT).
 *
 * Bounded twice: a kept chart not taken within `keepMs` is destroyed, and so are the oldest once
 * the kept canvases' pixels pass `maxPixels` (a tablet's canvases have four times the pixels of
 * their CSS size). A taken chart is the taker's; keeping another under a key held destroys the
 * one held.
 */

/** What is kept: its `destroy` frees it for good. */
export interface Keepable {
  destroy(): void;
}

interface Held<T> {
  readonly item: T;
  readonly pixels: number;
  readonly timer: ReturnType<typeof setTimeout>;
}

export class KeptCharts<T extends Keepable> {
  /** In the order kept: the first is the oldest. */
  private readonly held = new Map<string, Held<T>>();
  private pixels = 0;

  constructor(
    private readonly keepMs: number,
    private readonly maxPixels: number,
  ) {}

  /** The chart kept under `key`, now the caller's; undefined when none is. */
  take(key: string): T | undefined {
    const held = this.held.get(key);
    if (held === undefined) return undefined;
    this.release(key, held);
    return held.item;
  }

  /** Keeps `item` (its canvases hold `pixels`) under `key` for the next `take`. */
  keep(key: string, item: T, pixels: number): void {
    const before = this.held.get(key);
    if (before !== undefined) this.drop(key, before);
    if (pixels > this.maxPixels) {
      item.destroy();
      return;
    }
    const timer = setTimeout(() => {
      const now = this.held.get(key);
      if (now?.item === item) this.drop(key, now);
    }, this.keepMs);
    this.held.set(key, { item, pixels, timer });
    this.pixels += pixels;
    for (const [oldKey, old] of this.held) {
      if (this.pixels <= this.maxPixels) break;
      this.drop(oldKey, old);
    }
  }

  /** How many are kept now. */
  get size(): number {
    return this.held.size;
  }

  /** Destroys every kept chart. */
  clear(): void {
    for (const [key, held] of this.held) this.drop(key, held);
  }

  private release(key: string, held: Held<T>): void {
    clearTimeout(held.timer);
    this.held.delete(key);
    this.pixels -= held.pixels;
  }

  private drop(key: string, held: Held<T>): void {
    this.release(key, held);
    held.item.destroy();
  }
}
