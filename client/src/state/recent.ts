import { useEffect } from 'react';
import { atom, useSetAtom, useStore } from 'jotai';
import { accountIdOf, sessionAtom } from './session';
import { readJson, STORAGE_KEYS, writeJson } from './storage';

/*
 * What the user opened lately on this device (issue 30 item 4: Home's "Recently opened"): the
 * assets and dashboards, newest first, per user and account, kept in local storage (not synced:
 * it is this device's history, like the stored preferences). Not removed at sign-out, as it is
 * keyed by the user; "clear storage" (spec 000 §4) removes it.
 */

export type RecentKind = 'asset' | 'dashboard';

export interface RecentVisit {
  readonly kind: RecentKind;
  readonly id: string;
  /** When it was opened last (ms). */
  readonly at: number;
}

/** How many visits a list keeps (Home shows them all). */
export const RECENT_LIMIT = 8;
/** How many user and account lists the device keeps (the least recently used go). */
const LISTS_LIMIT = 20;

type RecentLists = Readonly<Record<string, readonly RecentVisit[]>>;

function isVisit(v: unknown): v is RecentVisit {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return (
    (o.kind === 'asset' || o.kind === 'dashboard') &&
    typeof o.id === 'string' &&
    typeof o.at === 'number'
  );
}

/** The stored lists; anything unreadable is dropped. */
export function parseRecent(raw: unknown): RecentLists {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return {};
  const lists: Record<string, readonly RecentVisit[]> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (Array.isArray(value)) lists[key] = value.filter(isVisit).slice(0, RECENT_LIMIT);
  }
  return lists;
}

/** The list with `visit` first (an earlier visit of the same model goes), at most the limit. */
export function withVisit(list: readonly RecentVisit[], visit: RecentVisit): RecentVisit[] {
  return [visit, ...list.filter((v) => v.kind !== visit.kind || v.id !== visit.id)].slice(
    0,
    RECENT_LIMIT,
  );
}

/** The lists with `key`'s updated, the least recently used lists dropped beyond the limit. */
export function withList(
  lists: RecentLists,
  key: string,
  list: readonly RecentVisit[],
): RecentLists {
  const latest = (l: readonly RecentVisit[]) => l[0]?.at ?? 0;
  const entries = Object.entries({ ...lists, [key]: list })
    .sort(([, a], [, b]) => latest(b) - latest(a))
    .slice(0, LISTS_LIMIT);
  return Object.fromEntries(entries);
}

const listsValue = atom<RecentLists>(parseRecent(readJson(STORAGE_KEYS.recentlyOpened)));

/** The signed-in user's key in the active account (null: signed out or no account). */
const listKeyAtom = atom((get) => {
  const user = get(sessionAtom)?.user;
  if (user === undefined) return null;
  const account = accountIdOf(user);
  return account === null ? null : `${user.id}|${account}`;
});

/** The user's recently opened assets and dashboards in the active account, newest first. */
export const recentVisitsAtom = atom<readonly RecentVisit[]>((get) => {
  const key = get(listKeyAtom);
  return key === null ? [] : (get(listsValue)[key] ?? []);
});

/**
 * Records that the user opened an asset or a dashboard (stored at once). `listKey`: the user's
 * and account's list the visit belongs to, when it was made: recorded later, a sign-out or an
 * account switch in between drops it.
 */
export const recordVisitAtom = atom(
  null,
  (
    get,
    set,
    visit: { readonly kind: RecentKind; readonly id: string; readonly listKey?: string | null },
  ) => {
    const key = get(listKeyAtom);
    if (key === null || visit.id === '') return;
    if (visit.listKey !== undefined && visit.listKey !== key) return;
    // Another tab may have recorded since: start from what storage holds.
    const stored = parseRecent(readJson(STORAGE_KEYS.recentlyOpened));
    const made = { kind: visit.kind, id: visit.id, at: Date.now() };
    const next = withList(stored, key, withVisit(stored[key] ?? [], made));
    writeJson(STORAGE_KEYS.recentlyOpened, next);
    set(listsValue, next);
  },
);

/** Records a visit when a page of an asset or a dashboard opens (id null: not yet, or none). */
export function useRecordVisit(kind: RecentKind, id: string | null): void {
  const record = useSetAtom(recordVisitAtom);
  const store = useStore();
  useEffect(() => {
    if (id === null) return;
    // In an idle moment after the page showed: the record reads, parses and writes local storage
    // (synchronous), which ran in the navigation's own task, before the page's first paint. Not
    // cancelled when the page goes: it was opened.
    const listKey = store.get(listKeyAtom);
    whenIdle(() => record({ kind, id, listKey }));
  }, [kind, id, record, store]);
}

/** Runs `run` in an idle moment of the page (within a second), or soon where there is no such. */
function whenIdle(run: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: 1_000 });
  else setTimeout(run, 200);
}
