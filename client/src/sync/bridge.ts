import type { SyncEvent, SyncStatus } from '@plant/sync-worker/api';
import { appStore } from '../state/store';
import { browserOnlineAtom, syncStatusAtom } from './status';
import { proxy, syncWorker } from './worker';

type EventListener = (event: SyncEvent) => void;
const listeners = new Set<EventListener>();
let connected = false;

/**
 * Connects the worker's status and events to the page once, before any session starts: the
 * status goes into syncStatusAtom, events to whoever listens (toasts, dialogs, sign-out).
 */
export function connectSyncBridge(): void {
  if (connected) return;
  connected = true;
  const api = syncWorker();
  void api.status.subscribe(proxy((status: SyncStatus) => appStore.set(syncStatusAtom, status)));
  void api.status.events(
    proxy((event: SyncEvent) => {
      for (const listener of listeners) listener(event);
    }),
  );
  const visibility = () => void api.session.setVisible(document.visibilityState === 'visible');
  document.addEventListener('visibilitychange', visibility);
  visibility();
  addEventListener('online', () => appStore.set(browserOnlineAtom, true));
  addEventListener('offline', () => appStore.set(browserOnlineAtom, false));
}

/** Listens to the worker's one-off events; answers the unsubscribe. */
export function onSyncEvent(listener: EventListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
