import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createStore } from 'jotai';
import type { CurrentUser } from '@plant/shared-schema';
import type * as SessionModule from './session';
import type * as StorageModule from './storage';
import { installLocalStorage, type MemoryStorage } from '../testing/memory-storage';

/** localStorage as the app sees it: one store shared by every tab of the origin. */
let storage: MemoryStorage;
let state: typeof SessionModule;
let keys: typeof StorageModule;

beforeAll(async () => {
  // Before the modules load: the session atom reads the stored session when it is made.
  storage = installLocalStorage();
  state = await import('./session');
  keys = await import('./storage');
});
beforeEach(() => storage.clear());

function user(firstname: string): CurrentUser {
  return {
    id: 'u-1',
    firstname,
    lastname: 'Tech',
    email: 'tech@example.com',
    language: 'en',
    account: 'a-1',
    activeAccount: null,
    roles: [],
    activeRoles: [],
    permissions: [],
    tags: [],
    featureFlags: [],
  };
}

describe('the stored session', () => {
  it('is written on sign-in, on an update of it, and removed on sign-out', () => {
    const store = createStore();
    store.set(state.sessionAtom, state.sessionOf(user('Ada'), 't-1'));
    expect(storage.getItem(keys.STORAGE_KEYS.token)).toBe('t-1');
    store.set(state.sessionAtom, state.sessionOf(user('Ada B.'), 't-1'));
    expect(state.loadSession()?.user.firstname).toBe('Ada B.');
    store.set(state.sessionAtom, null);
    expect(state.loadSession()).toBeNull();
  });

  it('is not stored again by an update once another tab emptied it (this tab reloads then)', () => {
    const store = createStore();
    store.set(state.sessionAtom, state.sessionOf(user('Ada'), 't-1'));
    // Another tab signs out, or the user empties the stored user.
    keys.clearSession();
    // A refresh of the user that was under way answers now.
    store.set(state.sessionAtom, state.sessionOf(user('Ada B.'), 't-1'));
    expect(state.loadSession()).toBeNull();
    expect(store.get(state.sessionAtom)?.user.firstname).toBe('Ada B.');
  });

  it('is not overwritten by an update once another tab signed someone else in; a new sign-in here is stored', () => {
    const store = createStore();
    store.set(state.sessionAtom, state.sessionOf(user('Ada'), 't-1'));
    storage.setItem(keys.STORAGE_KEYS.token, 't-2');
    store.set(state.sessionAtom, state.sessionOf(user('Ada B.'), 't-1'));
    expect(storage.getItem(keys.STORAGE_KEYS.token)).toBe('t-2');
    store.set(state.sessionAtom, state.sessionOf(user('Ada'), 't-3'));
    expect(storage.getItem(keys.STORAGE_KEYS.token)).toBe('t-3');
  });
});
