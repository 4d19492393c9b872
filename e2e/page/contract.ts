import type {
  ModelQuery,
  QueryResult,
  Result,
  SyncEvent,
  SyncStatus,
} from '../../sync-worker/src/api';

import type { RemoteSyncWorker } from '../../sync-worker/src/api';
export type { RemoteSyncWorker, RemoteUnsubscribe } from '../../sync-worker/src/api';

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
