import { useEffect, useState } from 'react';
import { useAtomValue } from 'jotai';
import type {
  LocalModel,
  ModelQuery,
  QueryResult,
  RemoteUnsubscribe,
} from '@plant/sync-worker/api';
import { sessionEpochAtom } from './status';
import { releaseProxy } from 'comlink';
import { proxy, syncWorker } from './worker';

/**
 * Runs a worker subscription for as long as the component is mounted (and the session lasts):
 * the callback proxy and the worker's unsubscribe are both released on unmount.
 */
function useWorkerSubscription<T>(
  key: string,
  open: (callback: (value: T) => void) => Promise<RemoteUnsubscribe>,
  onValue: (value: T) => void,
): void {
  const epoch = useAtomValue(sessionEpochAtom);
  useEffect(() => {
    let closed = false;
    const callback = proxy((value: T) => {
      if (!closed) onValue(value);
    });
    const pending = open(callback);
    return () => {
      closed = true;
      void pending.then(async (unsubscribe) => {
        await unsubscribe();
        unsubscribe[releaseProxy]();
      });
    };
    // `key` stands for the subscription's arguments: open and onValue change every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, epoch]);
}

/** A live query on the local store: undefined until the first result, then every change. */
export function useLiveQuery(query: ModelQuery | null): QueryResult | undefined {
  const [result, setResult] = useState<QueryResult>();
  const key = query === null ? '' : JSON.stringify(query);
  useWorkerSubscription<QueryResult>(
    key,
    (callback) =>
      query === null
        ? Promise.resolve(noSubscription())
        : (syncWorker().data.subscribe(
            query,
            callback,
          ) as Promise<unknown> as Promise<RemoteUnsubscribe>),
    setResult,
  );
  return query === null ? undefined : result;
}

export type ModelState =
  | { readonly name: 'loading' }
  | { readonly name: 'missing' }
  | { readonly name: 'found'; readonly model: LocalModel };

/** One model from the local store, live: 'missing' when it does not exist or was deleted. */
export function useLiveModel(type: string, id: string): ModelState {
  const [state, setState] = useState<ModelState>({ name: 'loading' });
  useWorkerSubscription<LocalModel | null>(
    `${type}:${id}`,
    (callback) =>
      syncWorker().data.watch(type, id, callback) as Promise<unknown> as Promise<RemoteUnsubscribe>,
    (model) => setState(model === null ? { name: 'missing' } : { name: 'found', model }),
  );
  return state;
}

function noSubscription(): RemoteUnsubscribe {
  const off = (() => Promise.resolve()) as unknown as RemoteUnsubscribe;
  Object.defineProperty(off, releaseProxy, { value: () => undefined });
  return off;
}
