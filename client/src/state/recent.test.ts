import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createStore } from 'jotai';
import type { CurrentUser } from '@plant/shared-schema';
import type * as RecentModule from './recent';
import type * as SessionModule from './session';
import { installLocalStorage, type MemoryStorage } from '../testing/memory-storage';

let storage: MemoryStorage;
let recent: typeof RecentModule;
let session: typeof SessionModule;

beforeAll(async () => {
  // Before the modules load: the atoms read storage when they are made.
  storage = installLocalStorage();
  recent = await import('./recent');
  session = await import('./session');
});
beforeEach(() => storage.clear());

function user(id: string, account: string): CurrentUser {
  return {
    id,
    firstname: 'Ada',
    lastname: 'Admin',
    email: `${id}@example.com`,
    language: 'en',
    account,
    activeAccount: null,
    roles: [],
    activeRoles: [],
    permissions: [],
    tags: [],
    featureFlags: [],
  };
}

describe('recently opened (issue 30 item 4)', () => {
  it('keeps the newest first, once each, at most eight, per user and account', () => {
    const store = createStore();
    store.set(session.sessionAtom, session.sessionOf(user('u-1', 'a-1'), 't-1'));
    for (let i = 0; i < 10; i += 1)
      store.set(recent.recordVisitAtom, { kind: 'asset', id: `a${i}` });
    store.set(recent.recordVisitAtom, { kind: 'dashboard', id: 'd1' });
    store.set(recent.recordVisitAtom, { kind: 'asset', id: 'a5' });
    const ids = store.get(recent.recentVisitsAtom).map((v) => v.id);
    expect(ids).toEqual(['a5', 'd1', 'a9', 'a8', 'a7', 'a6', 'a4', 'a3']);

    // Another account of the same user, and another user: lists of their own.
    store.set(session.sessionAtom, session.sessionOf(user('u-1', 'a-2'), 't-1'));
    expect(store.get(recent.recentVisitsAtom)).toEqual([]);
    store.set(recent.recordVisitAtom, { kind: 'asset', id: 'x' });
    store.set(session.sessionAtom, session.sessionOf(user('u-2', 'a-1'), 't-2'));
    expect(store.get(recent.recentVisitsAtom)).toEqual([]);

    // Back: the first list is still there, also for a page that starts again (stored).
    store.set(session.sessionAtom, session.sessionOf(user('u-1', 'a-1'), 't-3'));
    expect(store.get(recent.recentVisitsAtom)[0]?.id).toBe('a5');
    const stored = recent.parseRecent(JSON.parse(storage.getItem('recentlyOpened') ?? '{}'));
    expect(stored['u-1|a-2']?.map((v) => v.id)).toEqual(['x']);
  });

  it('drops a visit recorded late into another account or user than it was made in', () => {
    const store = createStore();
    store.set(session.sessionAtom, session.sessionOf(user('u-3', 'a-1'), 't-1'));
    // Made in u-3's a-1 (the page's key then), recorded after a switch to a-2: not in a-2's list.
    store.set(session.sessionAtom, session.sessionOf(user('u-3', 'a-2'), 't-1'));
    store.set(recent.recordVisitAtom, { kind: 'asset', id: 'late', listKey: 'u-3|a-1' });
    expect(store.get(recent.recentVisitsAtom)).toEqual([]);
    // Recorded in the list it was made in: kept.
    store.set(recent.recordVisitAtom, { kind: 'asset', id: 'here', listKey: 'u-3|a-2' });
    expect(store.get(recent.recentVisitsAtom).map((v) => v.id)).toEqual(['here']);
    // The key says where it goes; it is not stored with the visit.
    const stored = JSON.parse(storage.getItem('recentlyOpened') ?? '{}') as Record<
      string,
      Record<string, unknown>[]
    >;
    expect(Object.keys(stored['u-3|a-2']?.[0] ?? {}).sort()).toEqual(['at', 'id', 'kind']);
  });

  it('drops what it cannot read', () => {
    expect(recent.parseRecent('nonsense')).toEqual({});
    expect(
      recent.parseRecent({ k: [{ kind: 'asset', id: 'a', at: 1 }, { kind: 'x' }, 3] }),
    ).toEqual({
      k: [{ kind: 'asset', id: 'a', at: 1 }],
    });
  });
});
