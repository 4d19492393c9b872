/*
 * Charts kept for a while after their widget left the page, for the next widget that needs a
 * chart made the same way: the same widget's next mount (a dashboard opened again, back from an
 * asset's page, from Home) or another widget whose chart is made from the same things (a
 * dashboard of another machine made from the same template). It redraws the kept chart with its
 * own answers instead of making one anew. A new chart's canvas is allocated at its first
 * drawing, which was about a third of the charts' task in the dashboard's opening (bench
 * CONTEXT).
 *
 * A chart is kept under its `kind` (everything it was made from) and its `owner` (the widget
 * that showed it). A taker gets the chart its own widget left when there is one, else the one of
 * that kind kept last. A widget keeps one chart at a time: keeping another destroys the first.
 *
 * Bounded twice: a kept chart not taken within `keepMs` is destroyed, and so are the oldest once
 * the kept canvases' pixels pass `maxPixels` (a tablet's canvases have four times the pixels of
 * their CSS size).
 */

/** What is kept: its `destroy` frees it for good. */
export interface Keepable {
  destroy(): void;
}

interface Held<T> {
  readonly kind: string;
  readonly owner: string;
  readonly item: T;
  readonly pixels: number;
  readonly timer: ReturnType<typeof setTimeout>;
}

export class KeptCharts<T extends Keepable> {
  /** In the order kept: the first is the oldest. */
  private readonly held = new Set<Held<T>>();
  private pixels = 0;

  constructor(
    private readonly keepMs: number,
    private readonly maxPixels: number,
  ) {}

  /**
   * A chart of `kind` kept, now the caller's: the one `owner` left, else the last one kept;
   * undefined when none is.
   */
  take(kind: string, owner: string): T | undefined {
    let found: Held<T> | undefined;
    for (const held of this.held) {
      if (held.kind !== kind) continue;
      found = held;
      if (held.owner === owner) break;
    }
    if (found === undefined) return undefined;
    this.release(found);
    return found.item;
  }

  /** Keeps `item` (its canvases hold `pixels`), left by `owner`, for the next `take` of `kind`. */
  keep(kind: string, owner: string, item: T, pixels: number): void {
    for (const held of this.held) if (held.owner === owner) this.drop(held);
    if (pixels > this.maxPixels) {
      item.destroy();
      return;
    }
    const held: Held<T> = {
      kind,
      owner,
      item,
      pixels,
      timer: setTimeout(() => {
        if (this.held.has(held)) this.drop(held);
      }, this.keepMs),
    };
    this.held.add(held);
    this.pixels += pixels;
    for (const old of this.held) {
      if (this.pixels <= this.maxPixels) break;
      this.drop(old);
    }
  }

  /** How many are kept now. */
  get size(): number {
    return this.held.size;
  }

  /** Destroys every kept chart. */
  clear(): void {
    for (const held of this.held) this.drop(held);
  }

  private release(held: Held<T>): void {
    clearTimeout(held.timer);
    this.held.delete(held);
    this.pixels -= held.pixels;
  }

  private drop(held: Held<T>): void {
    this.release(held);
    held.item.destroy();
  }
}
