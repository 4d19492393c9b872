/*
 * A small IndexedDB object store of records keyed by their `key` (form drafts, security
 * insights' last answers): one database per use, opened once per page, each call its own
 * transaction that resolves once committed. Not the worker's store: these are the page's own
 * records, never synced.
 */

export interface KeyedStore<T extends { readonly key: string }> {
  get(key: string): Promise<T | undefined>;
  put(record: T): Promise<void>;
  delete(key: string): Promise<void>;
  /** Deletes every record whose key starts with `prefix` (a user's, at sign-out). */
  deletePrefix(prefix: string): Promise<void>;
}

export function keyedStore<T extends { readonly key: string }>(
  dbName: string,
  storeName: string,
): KeyedStore<T> {
  let opened: Promise<IDBDatabase> | undefined;
  const database = (): Promise<IDBDatabase> => {
    opened ??= new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open(dbName, 1);
      request.onupgradeneeded = () =>
        request.result.createObjectStore(storeName, { keyPath: 'key' });
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error ?? new Error(`${dbName} not opened`));
    });
    // A failed open is tried again by the next call.
    opened.catch(() => (opened = undefined));
    return opened;
  };
  const run = async <R>(
    mode: IDBTransactionMode,
    work: (store: IDBObjectStore) => IDBRequest<R>,
  ): Promise<R> => {
    const db = await database();
    return new Promise<R>((resolve, reject) => {
      const tx = db.transaction(storeName, mode);
      const request = work(tx.objectStore(storeName));
      tx.oncomplete = () => resolve(request.result);
      tx.onerror = () => reject(tx.error ?? new Error(`${dbName} not written`));
      tx.onabort = () => reject(tx.error ?? new Error(`${dbName} not written`));
    });
  };
  return {
    async get(key) {
      return (await run('readonly', (s) => s.get(key) as IDBRequest<T | undefined>)) ?? undefined;
    },
    async put(record) {
      await run('readwrite', (s) => s.put(record));
    },
    async delete(key) {
      await run('readwrite', (s) => s.delete(key));
    },
    async deletePrefix(prefix) {
      // Keys are texts: [prefix, prefix + U+FFFF) holds exactly those that start with it.
      await run('readwrite', (s) => s.delete(IDBKeyRange.bound(prefix, `${prefix}\uffff`)));
    },
  };
}
