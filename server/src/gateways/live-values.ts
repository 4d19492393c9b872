import {
  topics,
  type LiveValues as LiveValuesMessage,
  type ValuePoint,
} from '@plant/shared-schema';

/** Where live values go: the broker, to the account's browsers that subscribed to the asset. */
export type ValuesSink = (topic: string, payload: string) => void;

/** At most one message per asset in this time (DESIGN.md §8). */
export const LIVE_INTERVAL_MS = 1_000;

/**
 * Most points of one stream in one message: the newest are kept. A device read ten times a second
 * never comes near it; a gateway's backlog after an outage does, and browsers read that through
 * the history API rather than in one live message of megabytes.
 */
export const LIVE_MAX_POINTS = 600;

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

  /** Points of one stream of an asset, stored just now. */
  add(accountId: string, assetId: string, stream: string, points: readonly ValuePoint[]): void {
    if (points.length === 0) return;
    const key = `${accountId}/${assetId}`;
    let entry = this.pending.get(key);
    if (entry === undefined) {
      entry = { accountId, assetId, streams: new Map(), timer: undefined };
      this.pending.set(key, entry);
    }
    const list = entry.streams.get(stream);
    if (list === undefined) entry.streams.set(stream, [...points]);
    else {
      for (const point of points) list.push(point);
      // Trimmed now and then, not at every add: the newest LIVE_MAX_POINTS survive the flush.
      if (list.length > 4 * LIVE_MAX_POINTS) keepNewest(list);
    }
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
        points: keepNewest(points),
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

/** Sorts by time and keeps the newest LIVE_MAX_POINTS, in place. */
function keepNewest(points: ValuePoint[]): ValuePoint[] {
  points.sort((a, b) => a[0] - b[0]);
  if (points.length > LIVE_MAX_POINTS) points.splice(0, points.length - LIVE_MAX_POINTS);
  return points;
}
