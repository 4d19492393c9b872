import { useEffect, useMemo, useState } from 'react';
import { useAtomValue } from 'jotai';
import type { PendingWrite } from '@plant/sync-worker/api';
import { syncStatusAtom } from './status';
import { syncWorker } from './worker';

/**
 * The local changes waiting to be sent (or refused), oldest first, read again whenever the
 * worker's counts change (sending ones included); null until the first answer. One source for
 * the sync details' list and for the screens that show a change as made on this device (issue 30
 * item 14).
 */
export function usePendingWrites(): readonly PendingWrite[] | null {
  const { pendingWrites, failedWrites, sendingWrites } = useAtomValue(syncStatusAtom);
  const [writes, setWrites] = useState<readonly PendingWrite[] | null>(null);
  useEffect(() => {
    let current = true;
    void syncWorker()
      .writes.list()
      .then((list) => {
        if (current) setWrites(list.filter((w) => w.state !== 'confirmed'));
      });
    return () => {
      current = false;
    };
    // A write's state moving between sending and waiting changes no count but the sending one:
    // without it the list said 'Sending' through a whole offline spell once read mid-try.
  }, [pendingWrites, failedWrites, sendingWrites]);
  return writes;
}

/** The alarms acknowledged on this device whose acknowledgement is not sent yet. */
export function useAcknowledgedHere(): ReadonlySet<string> {
  const writes = usePendingWrites();
  return useMemo(
    () =>
      new Set(
        (writes ?? []).flatMap((w) =>
          w.type === 'alarm_ack' && w.kind === 'create' && w.state !== 'failed' && w.parent !== null
            ? [w.parent.id]
            : [],
        ),
      ),
    [writes],
  );
}
