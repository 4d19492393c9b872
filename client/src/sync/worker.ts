import * as Comlink from 'comlink';
import type { RemoteSyncWorker, SyncWorkerApi } from '@plant/sync-worker/api';

let remote: RemoteSyncWorker | undefined;

/**
 * The page's one sync worker (DESIGN.md §1), started by URL on first use and reached only through
 * its Comlink contract. Told at once where the server is, for the calls made before a session runs.
 */
export function syncWorker(): RemoteSyncWorker {
  if (remote !== undefined) return remote;
  // The built page's head started it already (client/public/sync-boot.js): adopted, not doubled.
  const worker =
    (globalThis as { __plantSyncWorker?: Worker }).__plantSyncWorker ??
    new Worker(new URL('../../../sync-worker/src/worker.ts', import.meta.url), {
      type: 'module',
      name: 'sync',
    });
  const api = Comlink.wrap<SyncWorkerApi>(worker) as unknown as RemoteSyncWorker;
  // The address without query or hash: a reset link's token must not reach failure reports.
  void api.http.configure({ origin: location.origin, appUrl: location.origin + location.pathname });
  remote = api;
  return api;
}

/** Wraps a page callback for the worker (it stays callable until its subscription ends). */
export const proxy = Comlink.proxy;
