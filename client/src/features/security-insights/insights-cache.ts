import { keyedStore } from '../../storage/keyed-store';

/*
 * The last answers of security insights (issue 38 item 1), kept in this browser's IndexedDB so
 * the pages open offline with their last state and say when it was taken. They are no synced
 * models: the server evaluates the checks; this keeps what it said last, per user, account and
 * page (the overview, and the threat overview per period), replaced by every new answer.
 */

const DB_NAME = 'plant-security-insights';
const STORE = 'answers';

/** What is kept: the answer as the server sent it (parsed again on reading). */
export interface KeptAnswer {
  readonly key: string;
  readonly answer: unknown;
  /** When this browser stored it (the answer's own `taken_at` says when it was evaluated). */
  readonly savedAt: number;
}

/** One kept answer per user, account and page. */
export function keptKey(userId: string, accountId: string, page: string): string {
  return [userId, accountId, page].join('/');
}

/**
 * Forgets every answer kept for a user: at sign-out, as the worker deletes the user's databases
 * (what the account's security looked like stays on no shared tablet).
 */
export async function forgetUser(userId: string): Promise<void> {
  try {
    await answers.deletePrefix(`${userId}/`);
  } catch {
    // IndexedDB unavailable: nothing was kept either.
  }
}

const answers = keyedStore<KeptAnswer>(DB_NAME, STORE);

/** The kept answer, or undefined (none, or IndexedDB unavailable: the page then needs the network). */
export async function readKept(key: string): Promise<KeptAnswer | undefined> {
  try {
    return await answers.get(key);
  } catch {
    return undefined;
  }
}

/** Keeps an answer; a failure to keep it costs only the offline view. */
export async function keep(key: string, answer: unknown): Promise<void> {
  try {
    await answers.put({ key, answer, savedAt: Date.now() });
  } catch {
    // Nothing to do: the page still shows the answer it has.
  }
}
