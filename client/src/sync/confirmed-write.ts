import { useCallback, useEffect, useRef, useState } from 'react';
import { useAtomValue } from 'jotai';
import type { ModelType } from '@plant/shared-schema';
import type { WorkerError } from '@plant/sync-worker/api';
import { callErrorText } from '../i18n/server-texts';
import { onSyncEvent } from './bridge';
import { useLiveModel } from './hooks';
import { syncStatusAtom } from './status';

/** How long a form waits for the server's word on its write before it closes anyway. */
const CONFIRM_WAIT_MS = 8_000;

/**
 * A form's write and the server's word on it (alarms, reports): online the form waits for the
 * server (`waitOrClose`); a refusal comes back on its fields (`serverErrors`) or as one message
 * (`formError`), the model arriving confirmed (or CONFIRM_WAIT_MS) closes it through `onDone`.
 * Offline the write waits in the outbox and the form closes at once.
 */
export function useConfirmedWrite<E extends Partial<Record<string, string>>>(
  type: ModelType,
  onDone: (savedId: string) => void,
  translate: (text: string) => string,
) {
  const [serverErrors, setServerErrors] = useState<E>({} as E);
  const [formError, setFormError] = useState<string | null>(null);
  const [waitingFor, setWaitingFor] = useState<string | null>(null);
  const done = useRef(onDone);
  const say = useRef(translate);
  useEffect(() => {
    done.current = onDone;
    say.current = translate;
  });

  const refused = useCallback(
    (fields: Readonly<Record<string, readonly string[]>>, message: string) => {
      const first = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v[0] ?? '']));
      setServerErrors(first as E);
      if (Object.keys(first).length === 0) setFormError(say.current(message));
    },
    [],
  );

  const saved = useLiveModel(type, waitingFor ?? '');
  useEffect(() => {
    if (waitingFor === null) return;
    const off = onSyncEvent((event) => {
      if (event.name !== 'write-rejected' || event.write.id !== waitingFor) return;
      setWaitingFor(null);
      refused(event.fields ?? {}, event.message);
    });
    const timer = setTimeout(() => done.current(waitingFor), CONFIRM_WAIT_MS);
    return () => {
      off();
      clearTimeout(timer);
    };
  }, [waitingFor, refused]);
  useEffect(() => {
    if (waitingFor !== null && saved.name === 'found' && !saved.model.pending) {
      done.current(waitingFor);
    }
  }, [waitingFor, saved]);

  const status = useAtomValue(syncStatusAtom);
  return {
    serverErrors,
    setServerErrors,
    formError,
    setFormError,
    /** The write whose answer the form awaits, null when none. */
    waitingFor,
    /** A call's failure, on its fields or as the form's message. */
    showWorkerError: (error: WorkerError) => refused(error.fields ?? {}, callErrorText(error)),
    /** Online, the server's answer is awaited (its refusal shows here); offline the write waits. */
    waitOrClose: (id: string) => {
      if (status.connection.name === 'connected') setWaitingFor(id);
      else done.current(id);
    },
  };
}
