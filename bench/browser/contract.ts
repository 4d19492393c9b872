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
}

declare global {
  interface Window {
    bench: BenchPage;
  }
}
