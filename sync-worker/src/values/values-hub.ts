import {
  deferred,
  apiPaths,
  downsampleM4,
  envelopeSchema,
  latestValuesSchema,
  liveValuesSchema,
  MAX_VALUE_POINTS,
  MAX_VALUE_STREAMS,
  streamValuesSchema,
  type LiveValues,
  type StreamValues,
} from '@plant/shared-schema';
import { z } from 'zod';
import type { AssetValues, HistoryQuery, HistoryResult, HistorySeries, Point } from '../api';
import type { Logger } from '../log';
import type { ApiClient, ApiResult } from '../transport/http';
import type { CachedRange, ValuesCache } from './cache';
import { TabChannel, TabWants } from '../tab-relay';
import { frameThrottle } from './frame';

/** What an asset opened caches for offline use: its streams' last day. */
export const RECENT_MS = 24 * 3_600_000;
/** Points of that day per stream (about one every 86 s, M4). */
export const RECENT_POINTS = 1_000;
/**
 * Values newer than this may still arrive (an agent's buffer, a slow batch): a span read from
 * the server ends this far before now, so the next read asks for that tail again.
 */
export const SETTLE_MS = 30_000;
/** A follower tab says which assets it shows this often; the leader forgets it after 3 misses. */
export const WANT_EVERY_MS = 10_000;
/** A watch whose gaps could not be read tries again this often (and at once on reconnect). */
export const REFILL_EVERY_MS = 15_000;
/**
 * How long a history watch whose cache lacks only a moving range's newest moments waits before
 * reading them (the page draws what the cache gave first; live values arrive meanwhile).
 */
export const TAIL_WAIT_MS = 1_000;
/**
 * How long after a history watch's first answer from the cache its live subscription starts
 * (its streams' assets looked up in the store, the broker asked for them): that work and the
 * broker's messages competed with the page's first paint of the answer for a tablet's few cores
 * (the dashboard bench's opening, five runs of 12 to 20 openings each way in turns: the median
 * 5 to 25 ms sooner with the wait in every run, 126 to 146 ms against 141 to 165). A watch
 * whose cache lacks more than a moving range's newest moments subscribes at once, beside the
 * server's read the page waits for.
 */
export const LIVE_AFTER_MS = 500;

const latestAnswer = /* @__PURE__ */ deferred(() => envelopeSchema(latestValuesSchema));
const severalAnswer = /* @__PURE__ */ deferred(() => envelopeSchema(z.array(streamValuesSchema)));
const oneAnswer = /* @__PURE__ */ deferred(() => envelopeSchema(streamValuesSchema));

/** Messages between the tabs' workers of one store (only the leader holds the broker). */
type ChannelMessage =
  | { readonly t: 'want'; readonly tab: string; readonly assets: readonly string[] }
  | { readonly t: 'values'; readonly message: LiveValues }
  | { readonly t: 'leader' }
  | { readonly t: 'connected' };

export interface ValuesHubOptions {
  readonly api: ApiClient;
  readonly log: Logger;
  readonly cache: ValuesCache;
  /** The cross-tab channel's name (per store). */
  readonly channel: string;
  /** The ids of an asset's streams in the local store. */
  readonly assetStreams: (asset: string) => Promise<string[]>;
  /** The asset of a stream in the local store. */
  readonly streamAsset: (stream: string) => Promise<string | undefined>;
  readonly now?: () => number;
}

/** The leader's broker, as far as values go. */
export interface ValueTopics {
  setValueAssets(assets: ReadonlySet<string>): void;
}

interface Watch {
  /** Assets whose live values it needs. */
  readonly assets: ReadonlySet<string>;
  /** A live message for one of its assets arrived (its points are in the cache already). */
  live(message: LiveValues): void;
  /** The server can be reached again: read what could not be read. */
  reconnected(): void;
  stop(): void;
}

function isNetworkFailure(answer: ApiResult<unknown>): boolean {
  if (answer.ok) return false;
  const { error } = answer;
  return (
    error.kind === 'network' || (error.kind === 'http' && [502, 503, 504].includes(error.status))
  );
}

/**
 * Machine values in the worker (DESIGN.md §8): the live subscriptions (only the leader tab
 * holds them: followers say what they show over a BroadcastChannel and get the leader's
 * messages back), the values cache, and the watches the page holds (an asset's latest values,
 * streams' history).
 */
export class ValuesHub {
  private readonly watches = new Set<Watch>();
  private readonly tab = Math.random().toString(36).slice(2);
  private readonly channel: TabChannel<ChannelMessage>;
  /** Other tabs' assets (leader only). */
  private readonly remote: TabWants;
  private broker: ValueTopics | undefined;
  private wantTimer: ReturnType<typeof setInterval> | undefined;
  private stopped = false;
  private readonly now: () => number;

  constructor(private readonly options: ValuesHubOptions) {
    this.now = options.now ?? Date.now;
    this.remote = new TabWants(3 * WANT_EVERY_MS, this.now);
    this.channel = new TabChannel(options.channel, (m) => this.heard(m), options.log);
    this.wantTimer = setInterval(() => {
      if (this.broker === undefined) this.sayWant();
      else this.updateTopics();
    }, WANT_EVERY_MS);
  }

  get cache(): ValuesCache {
    return this.options.cache;
  }

  /** This tab leads: it holds the live subscriptions of every tab. */
  lead(broker: ValueTopics): void {
    this.broker = broker;
    this.post({ t: 'leader' });
    this.updateTopics();
  }

  /** The leader's broker subscribed (again): the server can be reached. */
  connected(): void {
    this.post({ t: 'connected' });
    for (const w of this.watches) w.reconnected();
  }

  /** A live message from the leader's broker. */
  received(message: LiveValues): void {
    this.post({ t: 'values', message });
    this.background(() => this.dispatch(message));
  }

  watchAsset(asset: string, callback: (values: AssetValues) => void): () => void {
    return this.add(new AssetWatch(this, asset, callback));
  }

  watchHistory(query: HistoryQuery, callback: (result: HistoryResult) => void): () => void {
    return this.add(new HistoryWatch(this, query, callback));
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.wantTimer);
    for (const w of [...this.watches]) w.stop();
    this.watches.clear();
    this.channel.close();
    this.options.cache.close();
  }

  // ---- for the watches ----------------------------------------------------------------------

  get api(): ApiClient {
    return this.options.api;
  }

  get log(): Logger {
    return this.options.log;
  }

  time(): number {
    return this.now();
  }

  isStopped(): boolean {
    return this.stopped;
  }

  /** Runs a watch's background work: a failure is logged (none once the hub has stopped). */
  background(work: () => Promise<unknown>): void {
    work().catch((err: unknown) => {
      if (!this.stopped) this.log.warn('values work failed', { error: String(err) });
    });
  }

  assetStreams(asset: string): Promise<string[]> {
    return this.options.assetStreams(asset);
  }

  streamAsset(stream: string): Promise<string | undefined> {
    return this.options.streamAsset(stream);
  }

  /** The latest values of an asset's streams from the server ('offline': not reachable). */
  async fetchLatest(
    asset: string,
  ): Promise<readonly { stream: string; point: Point }[] | 'offline' | 'refused'> {
    const answer = await this.api.get(apiPaths.latestValues(asset), {
      schema: latestAnswer,
      quiet: true,
      background: true,
    });
    if (!answer.ok) return isNetworkFailure(answer) ? 'offline' : 'refused';
    return answer.data.data.map((l) => ({ stream: l.stream, point: [l.ts, l.value] as const }));
  }

  /**
   * Reads streams' values over [from, to] at `points` each from the server into the cache, the
   * span marked as read (up to SETTLE_MS before now). Answers whether the server could be reached
   * and how many points came.
   */
  async fill(
    reads: readonly { stream: string; from: number; to: number }[],
    step: number,
  ): Promise<{ reached: boolean; points: number }> {
    const now = this.now();
    let reached = true;
    let count = 0;
    const store = async (values: StreamValues, from: number, to: number) => {
      count += values.points.length;
      const end = Math.min(to, now - SETTLE_MS);
      await this.cache.put(
        values.stream,
        values.points,
        end > from ? { from, to: end, step: values.downsampled ? step : 0 } : undefined,
      );
    };
    // The same range for several streams goes as one request (an asset's day, a diagram).
    const byRange = new Map<string, { from: number; to: number; streams: string[] }>();
    for (const r of reads) {
      const key = `${r.from}-${r.to}`;
      const group = byRange.get(key) ?? { from: r.from, to: r.to, streams: [] };
      group.streams.push(r.stream);
      byRange.set(key, group);
    }
    for (const { from, to, streams } of byRange.values()) {
      const points = Math.min(
        MAX_VALUE_POINTS,
        Math.max(2, Math.ceil((to - from) / Math.max(1, step))),
      );
      for (let i = 0; i < streams.length; i += MAX_VALUE_STREAMS) {
        const some = streams.slice(i, i + MAX_VALUE_STREAMS);
        const answer =
          some.length === 1
            ? await this.api.get(apiPaths.streamValues(some[0] ?? '', from, to, points), {
                schema: oneAnswer,
                quiet: true,
                background: true,
              })
            : await this.api.get(apiPaths.severalValues(some, from, to, points), {
                schema: severalAnswer,
                quiet: true,
                background: true,
              });
        if (!answer.ok) {
          if (isNetworkFailure(answer)) reached = false;
          else this.log.warn('values read refused', { streams: some, ...answer.error });
          continue;
        }
        const list = Array.isArray(answer.data.data) ? answer.data.data : [answer.data.data];
        for (const values of list) await store(values, from, to);
      }
    }
    return { reached, points: count };
  }

  // ---- live subscriptions -------------------------------------------------------------------

  private add(watch: Watch): () => void {
    this.watches.add(watch);
    this.wantChanged();
    return () => {
      if (!this.watches.delete(watch)) return;
      watch.stop();
      this.wantChanged();
    };
  }

  /** A watch learnt its assets (history watches look them up). */
  wantChanged(): void {
    if (this.broker === undefined) this.sayWant();
    else this.updateTopics();
  }

  private localAssets(): Set<string> {
    const assets = new Set<string>();
    for (const w of this.watches) for (const a of w.assets) assets.add(a);
    return assets;
  }

  private sayWant(): void {
    if (this.stopped) return;
    this.post({ t: 'want', tab: this.tab, assets: [...this.localAssets()] });
  }

  private updateTopics(): void {
    if (this.broker === undefined || this.stopped) return;
    this.broker.setValueAssets(this.remote.union(this.localAssets()));
  }

  private heard(message: ChannelMessage): void {
    if (this.stopped) return;
    switch (message.t) {
      case 'want':
        if (this.broker === undefined) return;
        this.remote.note(message.tab, message.assets);
        this.updateTopics();
        return;
      case 'values': {
        const parsed = liveValuesSchema.safeParse(message.message);
        if (parsed.success && this.broker === undefined) {
          this.background(() => this.dispatch(parsed.data));
        }
        return;
      }
      case 'leader':
        this.sayWant();
        return;
      case 'connected':
        for (const w of this.watches) w.reconnected();
        return;
    }
  }

  private post(message: ChannelMessage): void {
    if (!this.stopped) this.channel.post(message);
  }

  /** A live message for an asset this tab shows: into the cache, then to its watches. */
  private async dispatch(message: LiveValues): Promise<void> {
    const interested = [...this.watches].filter((w) => w.assets.has(message.asset));
    if (interested.length === 0) return;
    try {
      for (const { stream, points } of message.values) await this.cache.put(stream, points);
    } catch (err) {
      this.log.warn('caching live values failed', { error: String(err) });
    }
    if (this.stopped) return;
    for (const w of interested) w.live(message);
  }
}

/** An asset's latest values: cache, then server, then live; its last day cached. */
class AssetWatch implements Watch {
  readonly assets: ReadonlySet<string>;
  private readonly latest = new Map<string, Point>();
  private offline = false;
  private ended = false;
  private readonly post = frameThrottle(() => this.send());
  private refillTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly hub: ValuesHub,
    private readonly asset: string,
    private readonly callback: (values: AssetValues) => void,
  ) {
    this.assets = new Set([asset]);
    hub.background(() => this.load());
  }

  private async load(): Promise<void> {
    const streams = await this.hub.assetStreams(this.asset);
    for (const stream of streams) {
      const last = await this.hub.cache.last(stream);
      if (last !== undefined) this.note(stream, last);
    }
    if (this.ended) return;
    this.post.schedule();
    await this.fromServer(streams);
  }

  private async fromServer(streams: readonly string[]): Promise<void> {
    const latest = await this.hub.fetchLatest(this.asset);
    if (this.ended) return;
    this.offline = latest === 'offline';
    if (typeof latest !== 'string') for (const l of latest) this.note(l.stream, l.point);
    this.post.schedule();
    if (this.offline) {
      this.scheduleRefill();
      return;
    }
    // The last day of every stream, for the sparklines and offline use.
    const now = this.hub.time();
    const step = RECENT_MS / RECENT_POINTS;
    const reads = [];
    for (const stream of streams) {
      for (const gap of await this.hub.cache.gaps(stream, now - RECENT_MS, now, step)) {
        reads.push({ stream, from: Math.floor(gap.from), to: Math.ceil(now) });
        break; // one read per stream, from its first gap to now
      }
    }
    if (reads.length === 0) return;
    const from = Math.min(...reads.map((r) => r.from));
    const { reached } = await this.hub.fill(
      reads.map((r) => ({ ...r, from })),
      step,
    );
    if (!reached && !this.ended) {
      this.offline = true;
      this.post.schedule();
      this.scheduleRefill();
    }
  }

  private scheduleRefill(): void {
    clearTimeout(this.refillTimer);
    this.refillTimer = setTimeout(() => this.reconnected(), REFILL_EVERY_MS);
  }

  private note(stream: string, point: Point): void {
    const had = this.latest.get(stream);
    if (had === undefined || had[0] <= point[0]) this.latest.set(stream, point);
  }

  live(message: LiveValues): void {
    for (const { stream, points } of message.values) {
      const newest = points.reduce<Point | undefined>(
        (a, p) => (a === undefined || p[0] >= a[0] ? p : a),
        undefined,
      );
      if (newest !== undefined) this.note(stream, newest);
    }
    this.offline = false;
    this.post.schedule();
  }

  reconnected(): void {
    if (this.ended) return;
    this.hub.background(async () => this.fromServer(await this.hub.assetStreams(this.asset)));
  }

  private send(): void {
    if (this.ended) return;
    this.callback({
      asset: this.asset,
      latest: Object.fromEntries(this.latest),
      offline: this.offline,
    });
  }

  stop(): void {
    this.ended = true;
    this.post.cancel();
    clearTimeout(this.refillTimer);
  }
}

/** What a history watch's cache lacks of its window (HistoryWatch.missing). */
interface Missing {
  readonly reads: { stream: string; from: number; to: number }[];
  /** Only a moving range's newest moments. */
  readonly tail: boolean;
  readonly step: number;
}

/** Streams' history over a range: cache first, gaps from the server, live values on top. */
class HistoryWatch implements Watch {
  assets: ReadonlySet<string> = new Set();
  private ended = false;
  private loading = false;
  private offline = false;
  private filling: Promise<void> | undefined;
  private readonly post = frameThrottle(() => this.hub.background(() => this.send()));
  private refillTimer: ReturnType<typeof setInterval> | undefined;
  /** The wait after the first answer (for the live subscription, for the newest moments). */
  private waitTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly hub: ValuesHub,
    private readonly query: HistoryQuery,
    private readonly callback: (result: HistoryResult) => void,
  ) {
    hub.background(() => this.start());
  }

  private window(): { from: number; to: number; step: number } {
    const { range, points } = this.query;
    const now = this.hub.time();
    const { from, to } = 'last' in range ? { from: now - range.last, to: now } : range;
    return { from, to, step: (to - from) / Math.max(2, points) };
  }

  private async start(): Promise<void> {
    // What the cache holds goes to the page first (a dashboard's charts draw at once); the
    // streams' assets (for the live subscriptions) are looked up after it: twenty store
    // lookups beside the cache's reads held the charts' answers back.
    await this.send();
    if (this.ended) return;
    const missing = await this.missing();
    if (this.ended) return;
    // The cache held it all, or all but a moving range's newest moments (a dashboard opened
    // again, within a minute or so of its last read): the page is drawing that now, so the live
    // subscription waits LIVE_AFTER_MS and the newest moments are read TAIL_WAIT_MS after the
    // answer (their requests and the answers they bring compete with the first paint for a
    // tablet's few cores). Otherwise the page waits for the gaps just found: read now.
    const fromCache = missing.reads.length === 0 || (missing.tail && 'last' in this.query.range);
    if (fromCache) await this.wait(LIVE_AFTER_MS);
    if (this.ended) return;
    await this.subscribe();
    if (this.ended) return;
    if (fromCache && missing.reads.length > 0) {
      await this.wait(TAIL_WAIT_MS - LIVE_AFTER_MS);
      if (this.ended) return;
      await this.fill();
    } else {
      await this.fill(missing);
    }
    // A moving range reads its new tail now and then even without live values.
    if ('last' in this.query.range) {
      this.refillTimer = setInterval(() => this.hub.background(() => this.fill()), REFILL_EVERY_MS);
    }
  }

  /** Waits `ms` (ended by `stop`: then it never resolves, and nothing after it runs). */
  private async wait(ms: number): Promise<void> {
    await new Promise((resolve) => {
      this.waitTimer = setTimeout(resolve, ms);
    });
    this.waitTimer = undefined;
  }

  /** Looks up the streams' assets, whose live values the hub then subscribes to. */
  private async subscribe(): Promise<void> {
    const assets = new Set<string>();
    for (const stream of this.query.streams) {
      const asset = await this.hub.streamAsset(stream);
      if (asset !== undefined) assets.add(asset);
    }
    if (this.ended) return;
    this.assets = assets;
    this.hub.wantChanged();
  }

  /** Reads what the cache lacks (`known`: just found, else looked up now), once at a time. */
  private fill(known?: Missing): Promise<void> {
    this.filling ??= this.fillOnce(known).finally(() => (this.filling = undefined));
    return this.filling;
  }

  /**
   * What the cache lacks of the window, and whether that is only a moving range's newest moments
   * (read again on every open and refill).
   */
  private async missing(): Promise<Missing> {
    const { from, to, step } = this.window();
    const reads: { stream: string; from: number; to: number }[] = [];
    for (const stream of this.query.streams) {
      for (const gap of await this.hub.cache.gaps(stream, from, to, step)) {
        reads.push({ stream, from: Math.floor(gap.from), to: Math.ceil(gap.to) });
      }
    }
    const tail = reads.every((r) => r.from >= to - 2 * SETTLE_MS - step);
    return { reads, tail, step };
  }

  private async fillOnce(known?: Missing): Promise<void> {
    const { reads, tail, step } = known ?? (await this.missing());
    if (this.ended) return;
    if (reads.length === 0) {
      this.offline = false;
      return;
    }
    // Only the newest moments missing: no 'loading' for them, and no new answer unless they
    // held points or the server was not there.
    if (!tail) {
      this.loading = true;
      this.post.schedule();
    }
    const { reached, points } = await this.hub.fill(reads, step);
    if (this.ended) return;
    const changed = !tail || points > 0 || this.offline !== !reached;
    this.loading = false;
    this.offline = !reached;
    if (changed) this.post.schedule();
  }

  live(message: LiveValues): void {
    if (message.values.some((v) => this.query.streams.includes(v.stream))) this.post.schedule();
  }

  reconnected(): void {
    // Gaps that could not be read, or the new tail of a moving range (unless that read is
    // waiting already: it comes when the wait ends).
    if (this.waitTimer !== undefined) return;
    if (!this.ended && (this.offline || 'last' in this.query.range)) {
      this.hub.background(() => this.fill());
    }
  }

  private async send(): Promise<void> {
    if (this.ended) return;
    const { from, to } = this.window();
    // Every stream at once: the cache reads what all the page's watches ask in one go.
    const cached = await Promise.all(
      this.query.streams.map((stream) => this.hub.cache.readRange(stream, from, to)),
    );
    if (this.ended) return;
    const series: HistorySeries[] = this.query.streams.map((stream, k) => {
      const { columns, held } = cached[k] as CachedRange;
      const { downsampled, points } = downsampleM4(
        columns.ts,
        columns.values,
        from,
        to,
        this.query.points,
      );
      return {
        stream,
        ts: points.map((p) => p[0]),
        values: points.map((p) => p[1]),
        downsampled,
        held,
      };
    });
    this.callback({ from, to, series, loading: this.loading, offline: this.offline });
  }

  stop(): void {
    this.ended = true;
    this.post.cancel();
    clearInterval(this.refillTimer);
    clearTimeout(this.waitTimer);
  }
}
