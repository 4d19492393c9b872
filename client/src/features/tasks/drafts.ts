import type { FormValues } from '@plant/shared-schema';

/*
 * Drafts of filled-in forms (issue 37 item 2): what a technician has typed, photographed and
 * signed, kept in this browser's IndexedDB as it changes, so a reload, a crash or a flat battery
 * loses nothing. A draft is the user's own on this device (keyed by user, account, asset, form
 * and task) and goes once the entry is sent to the worker's outbox (which then keeps it).
 * The photos and the signature are kept as Blobs beside the typed answers.
 */

const DB_NAME = 'plant-form-drafts';
const STORE = 'drafts';

export interface FormDraft {
  readonly key: string;
  readonly values: FormValues;
  /** Number and time fields as typed. */
  readonly texts: Readonly<Record<string, string>>;
  /** The photos and signature taken, by field id, in order. */
  readonly files: Readonly<Record<string, readonly DraftFile[]>>;
  readonly savedAt: number;
}

export interface DraftFile {
  readonly id: string;
  readonly name: string;
  readonly blob: Blob;
}

/** A draft's key: one draft per user, account, asset, form and task. */
export function draftKey(parts: {
  readonly userId: string;
  readonly accountId: string;
  readonly assetId: string;
  readonly formId: string;
  readonly taskId: string | null;
}): string {
  return [parts.userId, parts.accountId, parts.assetId, parts.formId, parts.taskId ?? '-'].join(
    '/',
  );
}

let opened: Promise<IDBDatabase> | undefined;

function database(): Promise<IDBDatabase> {
  opened ??= new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: 'key' });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('drafts not opened'));
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
        tx.onerror = () => reject(tx.error ?? new Error('draft not stored'));
        tx.onabort = () => reject(tx.error ?? new Error('draft not stored'));
      }),
  );
}

export async function readDraft(key: string): Promise<FormDraft | undefined> {
  return (
    (await run('readonly', (s) => s.get(key) as IDBRequest<FormDraft | undefined>)) ?? undefined
  );
}

export async function saveDraft(draft: FormDraft): Promise<void> {
  await run('readwrite', (s) => s.put(draft));
}

export async function dropDraft(key: string): Promise<void> {
  await run('readwrite', (s) => s.delete(key));
}
