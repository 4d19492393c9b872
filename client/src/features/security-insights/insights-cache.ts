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

let opened: Promise<IDBDatabase> | undefined;

function database(): Promise<IDBDatabase> {
  opened ??= new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: 'key' });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('insights store not opened'));
  });
  opened.catch(() => (opened = undefined));
  return opened;
}

function run<T>(
  mode: IDBTransactionMode,
  work: (store: IDBObjectStore) => IDBRequest<T>,
): Promise<T> {
  return database().then(
    (db) =>
      new Promise<T>((resolve, reject) => {
        const tx = db.transaction(STORE, mode);
        const request = work(tx.objectStore(STORE));
        tx.oncomplete = () => resolve(request.result);
        tx.onerror = () => reject(tx.error ?? new Error('insights not kept'));
        tx.onabort = () => reject(tx.error ?? new Error('insights not kept'));
      }),
  );
}

/** The kept answer, or undefined (none, or IndexedDB unavailable: the page then needs the network). */
export async function readKept(key: string): Promise<KeptAnswer | undefined> {
  try {
    return (
      (await run('readonly', (s) => s.get(key) as IDBRequest<KeptAnswer | undefined>)) ?? undefined
    );
  } catch {
    return undefined;
  }
}

/** Keeps an answer; a failure to keep it costs only the offline view. */
export async function keep(key: string, answer: unknown): Promise<void> {
  try {
    await run('readwrite', (s) => s.put({ key, answer, savedAt: Date.now() } satisfies KeptAnswer));
  } catch {
    // Nothing to do: the page still shows the answer it has.
  }
}
