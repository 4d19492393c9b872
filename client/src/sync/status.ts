import { atom } from 'jotai';
import type { SyncStatus } from '@plant/sync-worker/api';

/** Until the worker reports, the app shows "not started" rather than guessing. */
export const INITIAL_STATUS: SyncStatus = {
  started: false,
  leader: false,
  connection: { name: 'stopped' },
  bootstrap: { name: 'idle' },
  pendingWrites: 0,
  failedWrites: 0,
  lastSyncedAt: null,
  accountId: null,
};

/** The worker's sync status, always current (the sync indicator and the progress bar read it). */
export const syncStatusAtom = atom<SyncStatus>(INITIAL_STATUS);

/** Whether the browser says it has a network (navigator.onLine and its events). */
export const browserOnlineAtom = atom<boolean>(
  typeof navigator === 'undefined' || navigator.onLine,
);

/**
 * Bumped whenever the worker starts a session (sign-in, start, account switch): live queries
 * subscribe again then, as a subscription belongs to the session it was made in.
 */
export const sessionEpochAtom = atom(0);
