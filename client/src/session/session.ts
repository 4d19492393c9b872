import { atom } from 'jotai';
import { z } from 'zod';
import {
  deferred,
  accountViewSchema,
  apiPaths,
  currentUserSchema,
  mayUseApp,
  setActiveAccountResponseSchema,
  type CurrentUser,
  type PasskeyAssertion,
} from '@plant/shared-schema';
import type { WorkerError } from '@plant/sync-worker/api';
import { permissionsReadyAtom } from '../permissions/permissions';
import {
  accountIdOf,
  loadSession,
  sessionAtom,
  sessionOf,
  type StoredSession,
} from '../state/session';
import { browserId, clearAll, clearSession, STORAGE_KEYS } from '../state/storage';
import { appStore } from '../state/store';
import { sessionEpochAtom, syncStatusAtom } from '../sync/status';
import { syncWorker } from '../sync/worker';
import { callApi } from './api';
import { applyAccountStyle } from './style';
import { forgetUser as forgetKeptInsights } from '../features/security-insights/insights-cache';

/**
 * The session's life in the page (spec 000 §4): sign-in, start, account switch, sign-out. React
 * reads the outcome through atoms (sessionAtom, permissionsReadyAtom, accountSwitchAtom).
 */

const staticConfSchema = /* @__PURE__ */ deferred(() => z.object({ client_id: z.string() }));
const tokenSchema = /* @__PURE__ */ deferred(() => z.object({ access_token: z.string() }));

export type SignInOutcome =
  | { readonly name: 'signed-in'; readonly session: StoredSession }
  | { readonly name: 'wrong-credentials' }
  /** The user's only role is norole: refused, local data cleared (spec 000 §4). */
  | { readonly name: 'norole' }
  /**
   * The password was right and a second factor is missing or was wrong (issue 38 item 2):
   * `message` says which (the grant's `otp` field).
   */
  | { readonly name: 'second-factor'; readonly message: string }
  /** The password was right; an account requires a second factor the user has not set up. */
  | { readonly name: 'second-factor-setup' }
  | { readonly name: 'failed'; readonly kind: WorkerError['kind']; readonly message: string };

function failed(error: WorkerError): SignInOutcome {
  return { name: 'failed', kind: error.kind, message: error.message };
}

/**
 * The page's address as failure reports name it: no query or hash, which may carry a reset
 * token or an e-mail address.
 */
export function appUrlNow(): string {
  return location.origin + location.pathname;
}

/** Starts the worker for the stored session; live queries subscribe again. */
export async function startSync(session: StoredSession): Promise<void> {
  const accountId = accountIdOf(session.user);
  if (accountId === null) return;
  const started = await syncWorker().session.start({
    origin: location.origin,
    appUrl: appUrlNow(),
    token: session.token,
    userId: session.user.id,
    accountId,
    browserId: browserId(),
  });
  appStore.set(sessionEpochAtom, (n) => n + 1);
  if ('error' in started) throw new Error(started.error.message);
}

/** Spec 000 §4: a norole user is refused and the local data is cleared (the user's databases too). */
async function refuseNorole(userId?: string): Promise<SignInOutcome> {
  await syncWorker().session.signOut(userId);
  clearAll();
  appStore.set(sessionAtom, null);
  return { name: 'norole' };
}

/** What the password grant carries as the second factor (issue 38 item 2), if anything. */
export interface SecondFactorAnswer {
  /** An authenticator app's code or a recovery code. */
  readonly otp?: string;
  /** A passkey's answer to a challenge of POST 2fa/passkey/options. */
  readonly webauthn?: PasskeyAssertion;
}

/** Password sign-in (OAuth password grant with the first-party client of /staticconf). */
export async function signIn(
  email: string,
  password: string,
  second: SecondFactorAnswer = {},
): Promise<SignInOutcome> {
  const conf = await callApi('GET', apiPaths.staticconf(), staticConfSchema, {
    envelope: false,
    quiet: true,
  });
  if ('error' in conf) return failed(conf.error);
  const token = await callApi('POST', apiPaths.token(), tokenSchema, {
    envelope: false,
    quiet: true,
    body: {
      grant_type: 'password',
      client_id: conf.data.client_id,
      username: email,
      password,
      ...second,
    },
  });
  if ('error' in token) {
    // The grant names the second factor's problem on its `otp` field.
    const otp = token.error.fields?.otp?.[0];
    if (otp !== undefined && token.error.status === 403) return { name: 'second-factor-setup' };
    if (otp !== undefined && token.error.status === 401)
      return { name: 'second-factor', message: otp };
    if (token.error.status === 401) return { name: 'wrong-credentials' };
    if (token.error.status === 403) return refuseNorole();
    return failed(token.error);
  }
  return signInWithToken(token.data.access_token);
}

/** The rest of a sign-in once a token is there (also after registering). */
export async function signInWithToken(accessToken: string): Promise<SignInOutcome> {
  const user = await callApi('GET', apiPaths.user(), currentUserSchema, {
    token: accessToken,
    quiet: true,
  });
  if ('error' in user) return failed(user.error);
  if (!mayUseApp(user.data.roles.map((r) => r.slug))) return refuseNorole(user.data.id);
  const session = sessionOf(user.data, accessToken);
  appStore.set(sessionAtom, session);
  try {
    await startSync(session);
  } catch (err) {
    return { name: 'failed', kind: 'not-started', message: String(err) };
  } finally {
    appStore.set(permissionsReadyAtom, true);
  }
  // Colours and logos follow when they come; a slow network does not hold up the sign-in.
  void applyAccountStyle(session);
  return { name: 'signed-in', session };
}

/** Sign-out: the server forgets the token, the worker deletes the user's local databases. */
export async function signOut(): Promise<void> {
  const session = appStore.get(sessionAtom);
  if (session !== null) {
    // Best effort, not waited for: offline (or on a network that swallows packets) the token
    // simply stays until it expires, and the local clean-up must not wait for it.
    void syncWorker().http.call('POST', apiPaths.logout(), undefined, {
      quiet: true,
      token: session.token,
    });
  }
  await syncWorker().session.signOut(session?.user.id);
  // The page's own records of the user go too: security insights' last answers.
  if (session !== null) await forgetKeptInsights(session.user.id);
  clearSession();
  appStore.set(permissionsReadyAtom, false);
  appStore.set(sessionAtom, null);
  appStore.set(sessionEpochAtom, (n) => n + 1);
}

/** Who is switching where: the overlay 'Switching to account {accountName}...' shows it. */
export const accountSwitchAtom = atom<{ readonly accountName: string } | null>(null);

export interface SwitchTarget {
  readonly accountId: string;
  readonly accountName: string;
}

/**
 * The account switch of spec 000 §4, in its order. Nothing happens for the current account; any
 * failure reloads the page (which starts again from what is stored).
 */
let switching: Promise<void> = Promise.resolve();

export function switchAccount(
  target: SwitchTarget,
  navigate: (to: string) => Promise<void>,
  redirect?: string,
): Promise<void> {
  // One switch at a time (a scan link's and the start-up check's may come together): the next
  // one starts from where the first ended, and does nothing if that is already its target.
  const next = switching.then(() => runSwitch(target, navigate, redirect));
  switching = next.catch(() => undefined);
  return next;
}

async function runSwitch(
  target: SwitchTarget,
  navigate: (to: string) => Promise<void>,
  redirect?: string,
): Promise<void> {
  const session = appStore.get(sessionAtom);
  if (session === null) return;
  if (accountIdOf(session.user) === target.accountId) return;
  appStore.set(accountSwitchAtom, { accountName: target.accountName });
  try {
    const answer = await callApi(
      'POST',
      apiPaths.setActiveAccount(session.user.id, target.accountId),
      setActiveAccountResponseSchema,
      { quiet: true },
    );
    if ('error' in answer) throw new Error(answer.error.message);
    appStore.set(permissionsReadyAtom, false);
    // Clears the old account's cached models, reconnects the broker and restarts the sync.
    const next = sessionOf(answer.data.user, session.token);
    appStore.set(sessionAtom, next);
    const started = await syncWorker().session.switchAccount(target.accountId, session.token);
    if ('error' in started) throw new Error(started.error.message);
    appStore.set(sessionEpochAtom, (n) => n + 1);
    void applyAccountStyle(next);
    appStore.set(permissionsReadyAtom, true);
    await navigate(redirect ?? '/app/devices/list');
    appStore.set(accountSwitchAtom, null);
  } catch {
    location.reload();
  }
}

/**
 * At start (spec 000 §4): the stored session runs at once from the local store (offline first);
 * then the server is asked for the current account. None: storage is cleared and the page
 * reloads. Another one than stored: a switch. No answer (offline): carry on with what is stored,
 * and ask again once the server can be reached (`checkWhenReachable`).
 */
export async function resumeSession(navigate: (to: string) => Promise<void>): Promise<void> {
  const session = loadSession();
  if (session === null) {
    appStore.set(permissionsReadyAtom, true);
    return;
  }
  appStore.set(sessionAtom, session);
  const started = startSync(session);
  // The screens need not wait for the store to open: the worker answers a list's first rows
  // from disk as soon as the start is asked for (issue 13), and subscriptions made meanwhile
  // are made again when the start ends (the session epoch).
  appStore.set(permissionsReadyAtom, true);
  try {
    await started;
  } catch {
    // The local store could not open: the screens say what they can.
  }
  void applyAccountStyle(session);
  // Not awaited: the caller (main.tsx) holds the app's first render on this function, and the
  // server may take its time or never answer.
  void checkAccount(session, navigate).then((answered) => {
    if (!answered) checkWhenReachable(session, navigate);
  });
}

/** The start-up account check; false when the server gave no usable answer. */
async function checkAccount(
  session: StoredSession,
  navigate: (to: string) => Promise<void>,
): Promise<boolean> {
  const account = await callApi('GET', apiPaths.userAccount(), accountViewSchema.nullable(), {
    quiet: true,
  });
  // A switch or sign-out while it was asked: the answer is about a session that is gone.
  if (appStore.get(sessionAtom)?.token !== session.token) return true;
  if ('error' in account) {
    if (account.error.status !== 401) return false;
    await signOut();
    await navigate('/user/login');
    return true;
  }
  if (account.data === null) {
    await syncWorker().session.signOut();
    clearAll();
    location.reload();
    return true;
  }
  if (account.data.id !== accountIdOf(session.user)) {
    await switchAccount({ accountId: account.data.id, accountName: account.data.name }, navigate);
    return true;
  }
  await refreshUser(session);
  return true;
}

/**
 * The start-up check had no answer (offline, or the server failed): it runs again when this
 * tab's sync connects to the broker (the server is reachable again) or the browser says it is
 * online, until it is answered. A tab that follows another's sync gets only the latter.
 */
function checkWhenReachable(session: StoredSession, navigate: (to: string) => Promise<void>): void {
  let connected = appStore.get(syncStatusAtom).connection.name === 'connected';
  let done = false;
  const again = () => {
    if (done) return;
    done = true;
    unsubscribe();
    window.removeEventListener('online', again);
    if (appStore.get(sessionAtom)?.token !== session.token) return;
    void checkAccount(session, navigate).then((answered) => {
      if (!answered) checkWhenReachable(session, navigate);
    });
  };
  const unsubscribe = appStore.sub(syncStatusAtom, () => {
    const now = appStore.get(syncStatusAtom).connection.name === 'connected';
    if (now && !connected) again();
    connected = now;
  });
  window.addEventListener('online', again);
}

/**
 * Reads the signed-in user again when what it may see or change may have moved (the worker
 * loaded the account again after `_notify/access`, or the server refused a write): its stored
 * access (the pencils, DESIGN.md §10) follows. Offline it keeps what it has.
 */
export async function refreshSignedInUser(): Promise<void> {
  const session = appStore.get(sessionAtom);
  if (session !== null) await refreshUser(session);
}

/** Reads the signed-in user again (roles, permissions, tags may have changed). */
async function refreshUser(session: StoredSession): Promise<void> {
  const user = await callApi('GET', apiPaths.user(), currentUserSchema, { quiet: true });
  if ('error' in user) return;
  const current = appStore.get(sessionAtom);
  // A switch or sign-out in the meantime: this answer is about a session that is gone.
  if (current?.token !== session.token) return;
  if (accountIdOf(current.user) !== accountIdOf(user.data)) return;
  appStore.set(sessionAtom, keepRole(current, user.data));
}

function keepRole(session: StoredSession, user: CurrentUser): StoredSession {
  const role = user.activeRoles.find((r) => r.id === session.role?.id) ?? user.activeRoles[0];
  return { user, token: session.token, role: role ?? null };
}

/**
 * Spec 000 §4: setting the stored user to an empty value reloads the page. Another tab that signs
 * out (or a user clearing it) empties it; this tab then starts again from what is stored, that is
 * signed out, instead of writing into databases the other tab deleted.
 */
export function reloadWhenStoredUserEmptied(): void {
  addEventListener('storage', (event) => {
    if (event.key !== STORAGE_KEYS.user && event.key !== null) return;
    const value = event.key === null ? null : event.newValue;
    if (value === null || value === '' || value === 'null') {
      // A write of this tab's may have crossed the emptying (a refresh of the user answered just
      // then, before this event came): the session stored now is then this tab's own, and the
      // page would start signed in again. Another tab's new sign-in stays.
      const mine = appStore.get(sessionAtom)?.token;
      if (mine !== undefined && loadSession()?.token === mine) clearSession();
      location.reload();
      return;
    }
    // Another user signed in in another tab: this tab's session is not the stored one any more.
    // Another user signed in in another tab, or this user switched account there: this tab's
    // session (and its worker's account) is not the stored one any more.
    const stored = currentUserSchema.safeParse(safeJson(value));
    const mine = appStore.get(sessionAtom)?.user;
    if (mine === undefined) return;
    if (!stored.success || stored.data.id !== mine.id) location.reload();
    else if (
      accountIdOf(stored.data) !== accountIdOf(mine) &&
      appStore.get(accountSwitchAtom) === null
    ) {
      location.reload();
    }
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
