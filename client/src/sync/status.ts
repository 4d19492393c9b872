import { atom } from 'jotai';
import type { SyncStatus } from '@plant/sync-worker/api';

/** Until the worker reports, the app shows "not started" rather than guessing. */
export const INITIAL_STATUS: SyncStatus = {
  started: false,
  leader: false,
  connection: { name: 'stopped' },
  bootstrap: { name: 'idle' },
  pendingWrites: 0,
  sendingWrites: 0,
  failedWrites: 0,
  lastSyncedAt: null,
  accountId: null,
  clockOffsetMs: 0,
};

/** The worker's sync status, always current (the sync indicator and the progress bar read it). */
export const syncStatusAtom = atom<SyncStatus>(INITIAL_STATUS);

/** Whether the browser says it has a network (navigator.onLine and its events). */
export const browserOnlineAtom = atom<boolean>(
  typeof navigator === 'undefined' || navigator.onLine,
);

export type SyncState = 'online' | 'offline' | 'syncing';

/** What the indicator says: syncing while loading or sending, offline without the server. */
export function syncStateOf(status: SyncStatus, browserOnline: boolean): SyncState {
  if (!browserOnline) return 'offline';
  if (status.bootstrap.name === 'loading') return 'syncing';
  const c = status.connection;
  if (c.name === 'follower') return status.pendingWrites > 0 ? 'syncing' : 'online';
  if (c.name !== 'connected') return 'offline';
  return status.pendingWrites > 0 ? 'syncing' : 'online';
}

/**
 * Whether this page hears the server now. While it does not, what the server last said about the
 * world (a gateway online, a live state) is only the last known state, and says so.
 */
export const serverReachableAtom = atom(
  (get) => syncStateOf(get(syncStatusAtom), get(browserOnlineAtom)) !== 'offline',
);

/**
 * Bumped whenever the worker starts a session (sign-in, start, account switch): live queries
 * subscribe again then, as a subscription belongs to the session it was made in.
 */
export const sessionEpochAtom = atom(0);

/**
 * Whether this device opens the app without a network (issue 30 item 14): `ready` once a service
 * worker with the whole app precached controls the page (pwa.tsx), `preparing` until then,
 * `unavailable` where the browser has no service worker or refused it.
 */
export type OfflineReadiness = 'preparing' | 'ready' | 'unavailable';
export const offlineReadinessAtom = atom<OfflineReadiness>('preparing');
