/**
 * The e2e test page: starts the REAL sync worker (the same entry the client starts by URL) and
 * puts a Comlink-wrapped `SyncWorkerApi` on `window.plant` for Playwright to drive.
 */
import * as Comlink from 'comlink';
import type {
  ModelQuery,
  QueryResult,
  SyncEvent,
  SyncStatus,
  SyncWorkerApi,
} from '../../sync-worker/src/api';
import {
  seenKey,
  type RemoteSyncWorker,
  type RemoteUnsubscribe,
  type TestPage,
  type Watched,
} from './contract';

const worker = new Worker(new URL('../../sync-worker/src/worker.ts', import.meta.url), {
  type: 'module',
  name: 'sync',
});
const api = Comlink.wrap<SyncWorkerApi>(worker) as unknown as RemoteSyncWorker;

/** Stable per browser, as the client keeps it (broker credentials are per browser). */
function browserId(): string {
  const stored = localStorage.getItem('browserId');
  if (stored !== null) return stored;
  const made = `browser-${crypto.randomUUID()}`;
  localStorage.setItem('browserId', made);
  return made;
}

const now = () => performance.timeOrigin + performance.now();
const watched: Record<string, Watched> = {};
const unsubscribers = new Map<string, () => Promise<void>>();
const events: SyncEvent[] = [];
let status: SyncStatus | undefined;

const statusCallback = Comlink.proxy((next: SyncStatus) => {
  status = next;
});
const eventCallback = Comlink.proxy((event: SyncEvent) => {
  events.push(event);
});
// Subscribed before any start: the worker reports every engine's status and events here.
const ready = Promise.all([api.status.subscribe(statusCallback), api.status.events(eventCallback)]);

const page: TestPage = {
  api,
  async start(session) {
    await ready;
    return api.session.start({
      origin: location.origin,
      appUrl: location.href,
      browserId: browserId(),
      ...session,
    });
  },
  get status() {
    return status;
  },
  events,
  async watch(name, query) {
    await page.unwatch(name);
    watched[name] = { calls: 0, latest: undefined, firstSeen: {} };
    const callback = Comlink.proxy((result: QueryResult) => {
      const at = now();
      const before = watched[name];
      if (before === undefined) return;
      const firstSeen = { ...before.firstSeen };
      for (const item of result.items) {
        const name = 'name' in item.attributes ? item.attributes.name : undefined;
        firstSeen[seenKey(item.id, name)] ??= at;
      }
      watched[name] = { calls: before.calls + 1, latest: result, firstSeen };
    });
    // Any type's query (the test names it): Comlink's Remote keeps no type parameter anyway.
    const subscribe = api.data.subscribe as unknown as (
      query: ModelQuery,
      callback: (result: QueryResult) => void,
    ) => Promise<unknown>;
    const unsubscribe = (await subscribe(query, callback)) as RemoteUnsubscribe;
    unsubscribers.set(name, async () => {
      await unsubscribe();
      unsubscribe[Comlink.releaseProxy]();
    });
  },
  async unwatch(name) {
    await unsubscribers.get(name)?.();
    unsubscribers.delete(name);
  },
  watched,
};

window.plant = page;
