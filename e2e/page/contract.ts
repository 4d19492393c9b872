import type { Remote } from 'comlink';
import type {
  ModelQuery,
  QueryResult,
  Result,
  SyncEvent,
  SyncStatus,
  SyncWorkerApi,
  Unsubscribe,
} from '../../sync-worker/src/api';

/**
 * What `Comlink.wrap` really gives for `SyncWorkerApi`. `Remote<SyncWorkerApi>` types each area
 * as a Promise (the areas are plain objects, not `ProxyMarked`), so `api.session.start(…)` does
 * not type-check although it works: Comlink resolves the whole path in the worker. Remote per
 * area is the truth.
 */
export type RemoteSyncWorker = { readonly [K in keyof SyncWorkerApi]: Remote<SyncWorkerApi[K]> };

/**
 * What a subscription answers across the boundary: the worker wraps its unsubscribe in
 * `Comlink.proxy`, so the page holds a remote function (call it, then release it), while the
 * contract types it as a plain `() => void`.
 */
export type RemoteUnsubscribe = Remote<Unsubscribe>;

/** Who the page starts the worker for (origin and app URL are the page's own). */
export interface TestSession {
  readonly token: string;
  readonly userId: string;
  readonly accountId: string;
}

/** What one live query has delivered so far. */
export interface Watched {
  readonly calls: number;
  readonly latest: QueryResult | undefined;
  /**
   * When each `"<id>=<name>"` was first in a result (epoch ms, `performance.timeOrigin +
   * performance.now()`): an asset appearing or renamed is seen here without polling.
   */
  readonly firstSeen: Readonly<Record<string, number>>;
}

/**
 * What the test page puts on `window.plant`: the real worker behind Comlink (`api`), and the
 * callbacks the tests cannot pass through `page.evaluate` turned into state they can read.
 */
export interface TestPage {
  /** The worker's contract, wrapped with Comlink exactly as the client does. */
  readonly api: RemoteSyncWorker;
  /** `session.start` for this page's origin, with the browser id kept in localStorage. */
  start(session: TestSession): Promise<Result<SyncStatus>>;
  /** The last status the worker reported (status.subscribe). */
  readonly status: SyncStatus | undefined;
  /** Every event the worker reported (status.events). */
  readonly events: readonly SyncEvent[];
  /** data.subscribe under a name; `watched[name]` records its results. */
  watch(name: string, query: ModelQuery): Promise<void>;
  unwatch(name: string): Promise<void>;
  readonly watched: Readonly<Record<string, Watched>>;
}

/** The key `Watched.firstSeen` uses. */
export function seenKey(id: string, name: unknown): string {
  return `${id}=${String(name)}`;
}

declare global {
  interface Window {
    plant: TestPage;
  }
}
