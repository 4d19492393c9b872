import { useEffect, useMemo, useRef, useState } from 'react';
import { useAtomValue } from 'jotai';
import type { ModelType } from '@plant/shared-schema';
import type {
  LocalModel,
  ModelQueryOf,
  QueryResult,
  RemoteUnsubscribe,
} from '@plant/sync-worker/api';
import { appStore } from '../state/store';
import { sessionEpochAtom } from './status';
import { releaseProxy } from 'comlink';
import { proxy, syncWorker } from './worker';

/**
 * Runs a worker subscription for as long as the component is mounted (and the session lasts):
 * the callback proxy and the worker's unsubscribe are both released on unmount.
 */
export function useWorkerSubscription<T>(
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

/*
 * Comlink's `Remote` keeps a method's parameters but not its type parameters: the worker's
 * generic `subscribe<T>` and `watch<T>` arrive as their `ModelType` forms. These two restore the
 * link between the query's type and its results (the worker answers each query with models of
 * its type: sync-worker/src/queries.ts).
 */
function subscribeQuery<T extends ModelType>(
  query: ModelQueryOf<T>,
  callback: (result: QueryResult<T>) => void,
): Promise<RemoteUnsubscribe> {
  const subscribe = syncWorker().data.subscribe as unknown as (
    query: ModelQueryOf<T>,
    callback: (result: QueryResult<T>) => void,
  ) => Promise<unknown>;
  return subscribe(query, callback) as Promise<RemoteUnsubscribe>;
}

function watchModel<T extends ModelType>(
  type: T,
  id: string,
  callback: (model: LocalModel<T> | null) => void,
): Promise<RemoteUnsubscribe> {
  const watch = syncWorker().data.watch as unknown as (
    type: T,
    id: string,
    callback: (model: LocalModel<T> | null) => void,
  ) => Promise<unknown>;
  return watch(type, id, callback) as Promise<RemoteUnsubscribe>;
}

/** A live query on the local store: undefined until the first result, then every change. */
export function useLiveQuery<T extends ModelType>(
  query: ModelQueryOf<T> | null,
): QueryResult<T> | undefined {
  const [result, setResult] = useState<QueryResult<T>>();
  const key = query === null ? '' : JSON.stringify(query);
  useWorkerSubscription<QueryResult<T>>(
    key,
    (callback) =>
      query === null ? Promise.resolve(noSubscription()) : subscribeQuery(query, callback),
    setResult,
  );
  return query === null ? undefined : result;
}

export type ModelState<T extends ModelType = ModelType> =
  | { readonly name: 'loading' }
  | { readonly name: 'missing' }
  | { readonly name: 'found'; readonly model: LocalModel<T> };

/**
 * The models last shown by `useLiveModel(…, { remembered: true })`, of this session of the app
 * only, the latest used last: forgotten whenever the epoch moves on (a sign-in, sign-out or
 * account switch).
 */
const remembered = new Map<string, LocalModel<ModelType>>();
const REMEMBERED_MAX = 50;
appStore.sub(sessionEpochAtom, () => remembered.clear());

function remember(epoch: number, key: string, model: LocalModel<ModelType> | null): void {
  // A late answer of the last session's watch is not kept.
  if (epoch !== appStore.get(sessionEpochAtom)) return;
  remembered.delete(key);
  if (model === null) return;
  remembered.set(key, model);
  if (remembered.size > REMEMBERED_MAX) {
    const oldest = remembered.keys().next().value;
    if (oldest !== undefined) remembered.delete(oldest);
  }
}

/**
 * One model from the local store, live: 'missing' when it does not exist or was deleted.
 * `remembered`: a page opened again shows the model it last showed in its first render (no
 * skeleton, no round trip to the worker before its own reads start), then the store's answer,
 * a moment later, replaces it. Only for a page that renders from the model's latest state (no
 * form seeded from it): a change made meanwhile shows one answer later.
 */
export function useLiveModel<T extends ModelType>(
  type: T,
  id: string,
  options: { readonly remembered?: boolean } = {},
): ModelState<T> {
  const key = `${type}:${id}`;
  const epoch = useAtomValue(sessionEpochAtom);
  const memoKey = options.remembered === true ? key : null;
  // The state names its model: after a change of id, the last model's state is not shown.
  const [state, setState] = useState<{ readonly key: string; readonly state: ModelState<T> }>();
  useWorkerSubscription<LocalModel<T> | null>(
    key,
    (callback) => watchModel(type, id, callback),
    (model) => {
      if (memoKey !== null) remember(epoch, memoKey, model);
      setState({ key, state: model === null ? { name: 'missing' } : { name: 'found', model } });
    },
  );
  if (state?.key === key) return state.state;
  const known = memoKey === null ? undefined : remembered.get(memoKey);
  return known === undefined
    ? { name: 'loading' }
    : { name: 'found', model: known as LocalModel<T> };
}

/** Stands for a subscription when there is nothing to watch. */
export function noSubscription(): RemoteUnsubscribe {
  const off = (() => Promise.resolve()) as unknown as RemoteUnsubscribe;
  Object.defineProperty(off, releaseProxy, { value: () => undefined });
  return off;
}

/** Rows asked for beyond the visible ones on each side, and the step windows move by. */
export const WINDOW_PAGE = 100;

/** A part of a long list: `start` and `end` are indexes of the first and last row shown. */
export interface ListRange {
  readonly start: number;
  readonly end: number;
}

/** The query of a windowed list: everything but the window, which the hook chooses. */
export type ListQuery<T extends ModelType> = Omit<ModelQueryOf<T>, 'offset' | 'limit'>;

export interface LiveWindow<T extends ModelType> {
  /** How many models match; undefined until the first answer. */
  readonly total: number | undefined;
  /** The model at an index of the whole list, once its window has been answered. */
  readonly at: (index: number) => LocalModel<T> | undefined;
  /** The answer is for this query (false right after a change, while the old rows still show). */
  readonly current: boolean;
  /** The total is final (false while the account's models still stream in). */
  readonly complete: boolean;
}

interface ListWindow {
  readonly offset: number;
  readonly limit: number;
}

/** The window for a range: whole pages, one page of margin on each side. */
export function windowFor(range: ListRange, page = WINDOW_PAGE): ListWindow {
  const start = Math.max(0, Math.floor(range.start / page) * page - page);
  const end = (Math.floor(Math.max(range.start, range.end) / page) + 2) * page;
  return { offset: start, limit: Math.min(1000, end - start) };
}

function covers(win: ListWindow, range: ListRange): boolean {
  return win.offset <= range.start && Math.max(range.start, range.end) < win.offset + win.limit;
}

/** While the range moves, the window follows it at most this often (with the latest range). */
const WINDOW_SETTLE_MS = 60;

/**
 * A long list, live, a window at a time (DESIGN.md §6: 10,000 rows stay smooth): only the rows
 * around `range` cross from the worker, in windows of whole pages that move only when the range
 * leaves them. The total (for the scroll height and the count) comes with every answer. While a
 * new window or a new query is on its way, the last answer keeps showing.
 */
export function useLiveWindow<T extends ModelType>(
  query: ListQuery<T> | null,
  range: ListRange,
): LiveWindow<T> {
  const base = query === null ? '' : JSON.stringify(query);
  const [win, setWin] = useState<ListWindow & { readonly base: string }>(() => ({
    base,
    ...windowFor(range),
  }));
  // A new query starts at the top. A range outside the window moves it at most every
  // WINDOW_SETTLE_MS while the user scrolls: each new window is a new query in the worker.
  const latest = useRef(range);
  useEffect(() => {
    latest.current = range;
  });
  const stale = win.base !== base || !covers(win, range);
  useEffect(() => {
    if (!stale) return;
    if (win.base !== base) {
      const { start, end } = latest.current;
      setWin({ base, ...windowFor({ start: 0, end: end - start }) });
      return;
    }
    const timer = setTimeout(
      () => setWin({ base, ...windowFor(latest.current) }),
      WINDOW_SETTLE_MS,
    );
    return () => clearTimeout(timer);
  }, [stale, base, win]);

  const [answer, setAnswer] = useState<{
    readonly base: string;
    readonly result: QueryResult<T>;
  }>();
  const windowed: ModelQueryOf<T> | null =
    query === null ? null : { ...query, offset: win.offset, limit: win.limit };
  useWorkerSubscription<QueryResult<T>>(
    windowed === null ? '' : `${win.base}|${win.offset}|${win.limit}`,
    (callback) =>
      windowed === null ? Promise.resolve(noSubscription()) : subscribeQuery(windowed, callback),
    (result) => setAnswer({ base: win.base, result }),
  );

  // `at` changes only with the answer: the table's row model is memoised on it.
  const at = useMemo(() => {
    const result = answer?.result;
    if (result === undefined) return () => undefined;
    return (index: number) => result.items[index - result.offset];
  }, [answer]);
  if (query === null || answer === undefined) {
    return { total: undefined, at, current: false, complete: false };
  }
  const current = answer.base === base;
  return { total: answer.result.total, at, current, complete: current && answer.result.complete };
}
