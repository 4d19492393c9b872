import { atom } from 'jotai';
import {
  currentUserSchema,
  roleViewSchema,
  type CurrentUser,
  type RoleView,
} from '@plant/shared-schema';
import { readJson, readString, STORAGE_KEYS, writeJson, writeString } from './storage';

/** The signed-in user as the browser keeps it (spec 000 §3: user, role, access_token, account). */
export interface StoredSession {
  readonly user: CurrentUser;
  readonly token: string;
  /** The active role: the first active role, set at sign-in and on every account switch. */
  readonly role: RoleView | null;
}

/** Reads the stored session; a stored value that no longer parses counts as none. */
export function loadSession(): StoredSession | null {
  const token = readString(STORAGE_KEYS.token);
  const user = currentUserSchema.safeParse(readJson(STORAGE_KEYS.user));
  if (token === null || token === '' || !user.success) return null;
  const role = roleViewSchema.safeParse(readJson(STORAGE_KEYS.role));
  return { user: user.data, token, role: role.success ? role.data : null };
}

function saveSession(session: StoredSession | null): void {
  writeJson(STORAGE_KEYS.user, session?.user ?? null);
  writeString(STORAGE_KEYS.token, session?.token ?? null);
  writeJson(STORAGE_KEYS.role, session?.role ?? null);
  writeString(STORAGE_KEYS.account, session === null ? null : accountIdOf(session.user));
}

const sessionValue = atom<StoredSession | null>(loadSession());

/**
 * The session, kept in storage on every write (null: signed out). An update of this tab's session
 * (the same token: a refreshed user, a role, an account switch) is stored only while storage still
 * holds it: once another tab emptied or replaced it, this tab reloads (session.ts), and storing it
 * again would undo that sign-out or sign-in.
 */
export const sessionAtom = atom(
  (get) => get(sessionValue),
  (get, set, next: StoredSession | null) => {
    const update = next !== null && get(sessionValue)?.token === next.token;
    if (!update || readString(STORAGE_KEYS.token) === next.token) saveSession(next);
    set(sessionValue, next);
  },
);

/** The user's active account's id (null: none). */
export function accountIdOf(user: CurrentUser): string | null {
  return user.activeAccount?.id ?? user.account;
}

/** The active account's id, or null when signed out. */
export const activeAccountIdAtom = atom((get) => {
  const user = get(sessionAtom)?.user;
  return user === undefined ? null : accountIdOf(user);
});

/** A session for a user and token: the active role is the first active role (spec 000 §4). */
export function sessionOf(user: CurrentUser, token: string): StoredSession {
  return { user, token, role: user.activeRoles[0] ?? null };
}
