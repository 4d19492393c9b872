/**
 * Which tab's worker holds the broker connection, the missed-update poller and the outbox drain
 * (issue 4 item 9): one leader per user and account; the other tabs read the same store.
 */
export interface LeaderLock {
  /** Calls `onLeader` once this worker leads (maybe never); answers a release. */
  acquire(name: string, onLeader: () => void): () => void;
}

/** Node tests and single-tab use: always the leader. */
export const alwaysLeader: LeaderLock = {
  acquire(_name, onLeader) {
    onLeader();
    return () => undefined;
  },
};

/**
 * Web Locks: the lock is held until release (or until the tab closes, when the browser frees it
 * and the next waiting tab becomes leader).
 */
export function webLocksLeader(locks: LockManager): LeaderLock {
  return {
    acquire(name, onLeader) {
      const abort = new AbortController();
      let release: (() => void) | undefined;
      locks
        .request(name, { signal: abort.signal }, () => {
          onLeader();
          return new Promise<void>((resolve) => {
            release = resolve;
          });
        })
        .catch(() => undefined);
      return () => {
        abort.abort();
        release?.();
      };
    },
  };
}
