/*
 * Raw IndexedDB housekeeping that RxDB does not do: `db.remove()` and a schema migration clear
 * their Dexie databases but leave them in the browser, empty. These helpers delete them.
 */

/** The IndexedDB API the store uses: the worker's global one, or fake-indexeddb in tests. */
export interface IndexedDbEnv {
  readonly indexedDB: IDBFactory;
  readonly IDBKeyRange: typeof IDBKeyRange;
}

export function globalIndexedDb(): IndexedDbEnv {
  return { indexedDB: globalThis.indexedDB, IDBKeyRange: globalThis.IDBKeyRange };
}

/**
 * Names of the databases that exist. `indexedDB.databases()` is in every current browser and in
 * fake-indexeddb; where it is missing, `known` (names the store could have made) is all we have.
 */
export async function listDatabases(
  factory: IDBFactory,
  known: () => readonly string[],
): Promise<string[]> {
  if (typeof factory.databases !== 'function') return [...known()];
  const all = await factory.databases();
  return all.flatMap((info) => (info.name === undefined ? [] : [info.name]));
}

/**
 * Deletes one database. A tab that still has it open gets `versionchange` (Dexie then closes its
 * connection) and the delete goes on when it has; `blocked` only says that it waits, so it is not
 * awaited further here: the store is closed on our side and the name is free for a new store.
 */
export function deleteDatabase(factory: IDBFactory, name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = factory.deleteDatabase(name);
    request.onsuccess = () => resolve();
    request.onblocked = () => resolve();
    request.onerror = () =>
      reject(request.error ?? new Error(`Could not delete IndexedDB database ${name}`));
  });
}
