import type { Remote } from 'comlink';
import type { BenchWorker } from './bench-worker';

/** What the bench page puts on `window.bench` (beside the e2e page's `window.plant`). */
export interface BenchPage {
  /** The benchmarks' own worker (store and raw Dexie side by side). */
  readonly worker: Remote<BenchWorker>;
  /**
   * A plain mqtt.js client on this page, subscribed to the account's updates with its own
   * browser credentials: when each `"<id>=<name>"` first arrived (epoch ms). The baseline of the
   * update-to-callback latency.
   */
  rawSubscribe(token: string, accountId: string): Promise<void>;
  readonly rawSeen: Readonly<Record<string, number>>;
  /**
   * Machine values: the real worker's `values.watchAsset` for each asset, and a plain mqtt.js
   * client on this page subscribed to the same assets' values topics; when each
   * `"<stream>@<ts>"` first reached each (epoch ms).
   */
  watchValues(token: string, accountId: string, assets: readonly string[]): Promise<void>;
  readonly valuesSeen: {
    readonly ours: Record<string, number>;
    readonly raw: Record<string, number>;
  };
  /**
   * A diagram from the real worker's cache: `values.watchHistory` up to its first complete
   * answer, drawn by uPlot and painted. Answers the milliseconds and the points drawn.
   */
  drawFromCache(stream: string, from: number, to: number, points: number): Promise<DrawRun>;
  /** The baseline: uPlot drawing `count` points already in the page, painted. */
  drawDirect(count: number): Promise<DrawRun>;
  /** `values.watchHistory` of several streams up to its first complete answer (ms, points). */
  historyFromCache(
    streams: readonly string[],
    from: number,
    to: number,
    points: number,
  ): Promise<DrawRun>;
}

export interface DrawRun {
  readonly ms: number;
  readonly points: number;
}

declare global {
  interface Window {
    bench: BenchPage;
  }
}
