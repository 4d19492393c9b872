import { useEffect, useState } from 'react';
import { useAtomValue } from 'jotai';
import type { RemoteUnsubscribe, UploadView, WorkerError } from '@plant/sync-worker/api';
import { sessionEpochAtom } from './status';
import { useWorkerSubscription } from './hooks';
import { syncWorker } from './worker';

/**
 * Files in React (DESIGN.md §9): the worker holds the bytes (kept, waiting to upload, or read
 * from the server with the user's token); the page gets them as object URLs.
 */

export type FileUrl =
  | { readonly name: 'loading' }
  | { readonly name: 'ready'; readonly url: string }
  | { readonly name: 'failed'; readonly error: WorkerError };

/**
 * An object URL of a file's bytes (or its thumbnail), revoked when the component goes or the
 * file changes. `version` reads again when it changes (the file became ready).
 */
export function useFileUrl(
  id: string | null,
  variant: 'content' | 'thumbnail',
  version = '',
): FileUrl | null {
  const [state, setState] = useState<{ key: string; url: FileUrl } | null>(null);
  const key = id === null ? '' : `${id}:${variant}:${version}`;
  const epoch = useAtomValue(sessionEpochAtom);
  useEffect(() => {
    if (id === null) return;
    let closed = false;
    let made: string | undefined;
    setState({ key, url: { name: 'loading' } });
    void syncWorker()
      .files.read(id, variant)
      .then((answer) => {
        if (closed) return;
        if ('error' in answer) {
          setState({ key, url: { name: 'failed', error: answer.error } });
          return;
        }
        made = URL.createObjectURL(answer.data);
        setState({ key, url: { name: 'ready', url: made } });
      });
    return () => {
      closed = true;
      if (made !== undefined) URL.revokeObjectURL(made);
    };
  }, [id, variant, key, epoch]);
  if (id === null) return null;
  return state?.key === key ? state.url : { name: 'loading' };
}

/** Every upload known to the worker, live: id -> its progress, waiting or failed. */
export function useUploads(): Readonly<Record<string, UploadView>> {
  const [uploads, setUploads] = useState<Readonly<Record<string, UploadView>>>({});
  useWorkerSubscription<Readonly<Record<string, UploadView>>>(
    'uploads',
    (callback) =>
      syncWorker().files.watchUploads(callback) as Promise<unknown> as Promise<RemoteUnsubscribe>,
    setUploads,
  );
  return uploads;
}

/**
 * Keeps an opened asset's files for offline use (DESIGN.md §9); answers how much of it is kept,
 * read again when `version` changes (a file added or removed).
 */
export function useKeptFiles(
  assetId: string,
  version: string,
): {
  readonly kept: number | undefined;
  /** Reads the amount again (after a free: without keeping the files again). */
  readonly refresh: () => void;
} {
  const [kept, setKept] = useState<number>();
  const [round, setRound] = useState(0);
  const [keptRound, setKeptRound] = useState(-1);
  const epoch = useAtomValue(sessionEpochAtom);
  useEffect(() => {
    let closed = false;
    void syncWorker()
      .files.keep(assetId)
      .finally(() => {
        if (!closed) setKeptRound((r) => r + 1);
      });
    return () => {
      closed = true;
    };
  }, [assetId, version, epoch]);
  useEffect(() => {
    if (keptRound < 0) return;
    let closed = false;
    void syncWorker()
      .files.usage()
      .then((usage) => {
        if (!closed) setKept(usage.byAsset[assetId] ?? 0);
      });
    return () => {
      closed = true;
    };
  }, [assetId, keptRound, round]);
  return { kept, refresh: () => setRound((r) => r + 1) };
}
