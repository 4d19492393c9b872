import {
  topics,
  type LiveValues as LiveValuesMessage,
  type ValuePoint,
} from '@plant/shared-schema';

/** Where live values go: the broker, to the account's browsers that subscribed to the asset. */
export type ValuesSink = (topic: string, payload: string) => void;

/** At most one message per asset in this time (DESIGN.md §8). */
export const LIVE_INTERVAL_MS = 1_000;

interface Pending {
  readonly accountId: string;
  readonly assetId: string;
  readonly streams: Map<string, ValuePoint[]>;
  timer: NodeJS.Timeout | undefined;
}

/**
 * Stored points on their way to browsers, gathered per asset: the first point of an asset after a
 * quiet second goes out at once, later ones wait for the end of that asset's second, so an asset
 * sends at most one message a second however many points arrive.
 */
export class LivePublisher {
  private readonly pending = new Map<string, Pending>();
  /** When each asset last sent, to hold the next one back until its second is over. */
  private readonly lastSent = new Map<string, number>();

  constructor(
    private readonly sink: ValuesSink,
    private readonly now: () => number = Date.now,
    private readonly intervalMs = LIVE_INTERVAL_MS,
  ) {}

  add(accountId: string, assetId: string, stream: string, point: ValuePoint): void {
    const key = `${accountId}/${assetId}`;
    let entry = this.pending.get(key);
    if (entry === undefined) {
      entry = { accountId, assetId, streams: new Map(), timer: undefined };
      this.pending.set(key, entry);
    }
    const points = entry.streams.get(stream);
    if (points === undefined) entry.streams.set(stream, [point]);
    else points.push(point);
    if (entry.timer !== undefined) return;
    const wait = Math.max(0, (this.lastSent.get(key) ?? -Infinity) + this.intervalMs - this.now());
    const flushing = entry;
    flushing.timer = setTimeout(() => this.flush(key, flushing), wait);
  }

  private flush(key: string, entry: Pending): void {
    this.pending.delete(key);
    this.lastSent.set(key, this.now());
    const message: LiveValuesMessage = {
      asset: entry.assetId,
      values: [...entry.streams].map(([stream, points]) => ({
        stream,
        points: points.sort((a, b) => a[0] - b[0]),
      })),
    };
    this.sink(topics.assetValues(entry.accountId, entry.assetId), JSON.stringify(message));
    // Forget quiet assets, so the map holds only those that sent within the last interval.
    setTimeout(() => {
      if (!this.pending.has(key) && (this.lastSent.get(key) ?? 0) + this.intervalMs <= this.now())
        this.lastSent.delete(key);
    }, this.intervalMs).unref();
  }

  /** Sends what is gathered now (at stop) and stops the timers. */
  close(): void {
    for (const [key, entry] of this.pending) {
      clearTimeout(entry.timer);
      this.flush(key, entry);
    }
  }
}
