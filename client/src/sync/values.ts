import { useState } from 'react';
import type {
  AssetValues,
  HistoryQuery,
  HistoryResult,
  RemoteUnsubscribe,
} from '@plant/sync-worker/api';
import { noSubscription, useWorkerSubscription } from './hooks';
import { syncWorker } from './worker';

/**
 * Machine values in React (DESIGN.md §8): the worker holds the live subscriptions and the values
 * cache; these hooks watch through it and get at most one result per animation frame.
 */

/** An asset's latest values, live: undefined until the first answer (the cache's). */
export function useAssetValues(assetId: string): AssetValues | undefined {
  const [state, setState] = useState<AssetValues>();
  useWorkerSubscription<AssetValues>(
    `asset:${assetId}`,
    (callback) =>
      syncWorker().values.watchAsset(
        assetId,
        callback,
      ) as Promise<unknown> as Promise<RemoteUnsubscribe>,
    setState,
  );
  return state?.asset === assetId ? state : undefined;
}

/** Streams' history over a range, live: undefined until the first answer (the cache's). */
export function useHistory(query: HistoryQuery | null): HistoryResult | undefined {
  const key = query === null ? '' : JSON.stringify(query);
  const [state, setState] = useState<{ readonly key: string; readonly result: HistoryResult }>();
  useWorkerSubscription<HistoryResult>(
    key,
    (callback) =>
      query === null
        ? Promise.resolve(noSubscription())
        : (syncWorker().values.watchHistory(
            query,
            callback,
          ) as Promise<unknown> as Promise<RemoteUnsubscribe>),
    (result) => setState({ key, result }),
  );
  return state?.key === key ? state.result : undefined;
}
