import { addRxPlugin, createRxDatabase, type RxDatabase, type RxStorage } from 'rxdb';
import { RxDBCleanupPlugin } from 'rxdb/plugins/cleanup';
import { RxDBMigrationSchemaPlugin } from 'rxdb/plugins/migration-schema';
import { settle, serverStateOf } from '../apply/rebase';
import type { LocalWrite } from '../apply/writes';
import { dexieDatabaseName, dexiePrefix, storeName } from './database-name';
import { META_ID, UNSYNCED, type MetaDoc } from './docs';
import { deleteDatabase, globalIndexedDb, listDatabases, type IndexedDbEnv } from './indexeddb';
import { storeStorage } from './lean-models';
import { modelWriter, type ModelWriter } from './model-write';
import { useRangeReads } from './range-reads';
import { COLLECTION_NAMES, STORE_DEFINITION, STORE_VERSION, type StoreDefinition } from './schemas';
import { createStoreTx, type StoreCollections, type StoreTx } from './store-tx';
import { crossTabExclusive, WriteQueue } from './write-queue';

addRxPlugin(RxDBMigrationSchemaPlugin);
addRxPlugin(RxDBCleanupPlugin);

/** RxDB's own bookkeeping database of every store (schema version 0 in RxDB 17). */
const INTERNAL_COLLECTION = '_rxdb_internal';

export interface StoreOptions {
  readonly userId: string;
  readonly accountId: string;
  /** Default: the worker's global IndexedDB. Tests pass a fresh fake-indexeddb factory. */
  readonly env?: IndexedDbEnv;
  /**
   * Tabs share the store through RxDB's BroadcastChannel (default true). Node tests turn it off:
   * there it keeps the process alive for seconds after close.
   */
  readonly multiInstance?: boolean;
  /** Tests only: wrap the storage (schema validation in dev-mode). */
  readonly wrapStorage?: (storage: RxStorage<unknown, unknown>) => RxStorage<unknown, unknown>;
  /** Tests only: another set of schemas (a newer version, to run a migration). */
  readonly definition?: StoreDefinition;
  /**
   * Runs as soon as the collections exist, before the store's own first writes (the live
   * queries subscribe to the models' changes here, so that they miss none).
   */
  readonly onCollections?: (db: StoreDatabase) => void;
}

export type StoreDatabase = RxDatabase<StoreCollections>;

/**
 * One user's local store for one account (DESIGN.md §4): RxDB on IndexedDB through Dexie.
 * Reads and live queries use `db`; every write goes through `write()`, one at a time.
 */
export class LocalStore {
  /** Every write of every tab to this store, one at a time (the Web Lock spans the tabs). */
  private readonly queue: WriteQueue;
  private closing: Promise<void> | undefined;

  private constructor(
    readonly name: string,
    readonly accountId: string,
    /** For reads and live queries. Writing through it would bypass the queue: use `write()`. */
    readonly db: StoreDatabase,
    private readonly env: IndexedDbEnv,
    private readonly definition: StoreDefinition,
    private readonly writer: ModelWriter | null,
  ) {
    this.queue = new WriteQueue(crossTabExclusive(name));
  }

  static async open(options: StoreOptions): Promise<LocalStore> {
    const env = options.env ?? globalIndexedDb();
    const definition = options.definition ?? STORE_DEFINITION;
    const name = storeName(options.userId, options.accountId);
    const dexie = storeStorage(env);
    const storage = options.wrapStorage?.(dexie) ?? dexie;
    const db = await createRxDatabase<StoreCollections>({
      name,
      storage,
      multiInstance: options.multiInstance ?? true,
      // The worker is the only RxDB user in its tab; a second open of the same store (hot
      // reload, a test reopening) replaces the first instead of failing.
      closeDuplicates: true,
      cleanupPolicy: {
        // Deleted docs are kept only for other tabs' live queries: they have seen them by then.
        minimumDeletedTime: 60_000,
        awaitReplicationsInSync: false,
        waitForLeadership: false,
      },
    });
    try {
      // Under the cross-tab write lock: a schema migration runs here, and no tab's write may
      // land behind its read position (lean-models.ts).
      await crossTabExclusive(name)(() =>
        db.addCollections({
          models: { ...definition.models },
          outbox: { ...definition.outbox },
          meta: { ...definition.meta },
        }),
      );
      options.onCollections?.(db);
      await useRangeReads(db.models);
      const store = new LocalStore(
        name,
        options.accountId,
        db,
        env,
        definition,
        modelWriter(db.models),
      );
      await store.ensureMeta(options.userId);
      await store.recoverOverlays();
      await store.deleteStaleDatabases();
      return store;
    } catch (error) {
      await db.close();
      throw error;
    }
  }

  /** Runs `task` alone: no other store write, in this tab or another, starts before it ends. */
  write<T>(task: (tx: StoreTx) => Promise<T>): Promise<T> {
    if (this.closing !== undefined) return Promise.reject(new Error('The store is closed.'));
    return this.queue.run(() => task(createStoreTx(this.db.collections, this.writer)));
  }

  /** Shorthand: commit writes (and a meta change) as one queued write. */
  commit(writes: readonly LocalWrite[], meta?: Parameters<StoreTx['commit']>[1]): Promise<void> {
    return this.write((tx) => tx.commit(writes, meta));
  }

  async meta(): Promise<MetaDoc> {
    return createStoreTx(this.db.collections, this.writer).meta();
  }

  /** Closes after the queued writes; later writes are refused. */
  close(): Promise<void> {
    this.closing ??= this.queue.idle().then(async () => {
      await this.db.close();
    });
    return this.closing;
  }

  /**
   * Closes and deletes every IndexedDB database of this store (`db.remove()` would leave them
   * behind, empty). Answers the names deleted.
   */
  async wipe(): Promise<string[]> {
    await this.close();
    return deleteStoreDatabases(this.name, this.env, this.definition);
  }

  /** Creates meta at the first open; refuses a store that belongs to someone else. */
  private async ensureMeta(userId: string): Promise<void> {
    // insertIfNotExists: another tab may be opening the same new store at this moment.
    const meta = await this.queue.run(() =>
      this.db.meta.insertIfNotExists({
        id: META_ID,
        user_id: userId,
        account_id: this.accountId,
        store_version: STORE_VERSION,
        ...UNSYNCED,
      }),
    );
    if (meta.user_id !== userId || meta.account_id !== this.accountId)
      throw new Error(`Store ${this.name} belongs to another user or account.`);
    // Opened by a newer build: its collections have been migrated by now (addCollections).
    if (meta.store_version < STORE_VERSION) {
      await this.queue.run(() => meta.incrementalPatch({ store_version: STORE_VERSION }));
    }
  }

  /**
   * Recomputes the docs the outbox refers to. A commit writes the outbox before the models, so a
   * crash between the two leaves a mutation its doc does not show yet; this makes it show.
   */
  private async recoverOverlays(): Promise<void> {
    await this.write(async (tx) => {
      const outbox = await tx.outbox();
      if (outbox.length === 0) return;
      const keys = new Set(outbox.map((m) => m.key));
      const docs = await tx.models(keys);
      const mutations = await tx.mutationsFor(keys);
      const writes: LocalWrite[] = [];
      for (const key of keys) {
        const list = mutations.get(key) ?? [];
        const doc = docs.get(key);
        const first = list[0];
        if (first === undefined) continue;
        const state =
          doc === undefined
            ? { type: first.type, id: first.id, server: null, last_seq: 0 }
            : serverStateOf(doc);
        writes.push(...settle({ accountId: this.accountId }, state, list, doc));
      }
      await tx.commit(writes);
    });
  }

  /**
   * A migration copies documents into the new version's Dexie database and clears the old one,
   * but leaves it (and RxDB's migration-state database) in the browser. Everything under this
   * store's prefix that the current schemas do not use goes.
   */
  private async deleteStaleDatabases(): Promise<void> {
    const current = new Set(currentDatabaseNames(this.name, this.definition));
    const all = await listDatabases(this.env.indexedDB, () => []);
    const stale = all.filter((n) => n.startsWith(dexiePrefix(this.name)) && !current.has(n));
    for (const n of stale) await deleteDatabase(this.env.indexedDB, n);
  }
}

function currentDatabaseNames(name: string, definition: StoreDefinition): string[] {
  return [
    dexieDatabaseName(name, 0, INTERNAL_COLLECTION),
    ...COLLECTION_NAMES.map((c) => dexieDatabaseName(name, definition[c].schema.version, c)),
  ];
}

/**
 * Deletes every IndexedDB database of the store `name` (open or not: close it first). Where
 * `indexedDB.databases()` is missing, the names of every schema version up to the current one.
 */
export async function deleteStoreDatabases(
  name: string,
  env: IndexedDbEnv,
  definition: StoreDefinition = STORE_DEFINITION,
): Promise<string[]> {
  const known = () => [
    dexieDatabaseName(name, 0, INTERNAL_COLLECTION),
    ...COLLECTION_NAMES.flatMap((c) =>
      Array.from({ length: definition[c].schema.version + 1 }, (_, v) =>
        dexieDatabaseName(name, v, c),
      ),
    ),
  ];
  const names = (await listDatabases(env.indexedDB, known)).filter((n) =>
    n.startsWith(dexiePrefix(name)),
  );
  for (const n of names) await deleteDatabase(env.indexedDB, n);
  return names;
}

/** The IndexedDB database of one user's models for one account (the live queries read it). */
export function modelsDatabaseName(userId: string, accountId: string): string {
  return dexieDatabaseName(
    storeName(userId, accountId),
    STORE_DEFINITION.models.schema.version,
    'models',
  );
}

/** Deletes one user's store for one account without opening it (an account switch). */
export function wipeStore(
  userId: string,
  accountId: string,
  env: IndexedDbEnv = globalIndexedDb(),
): Promise<string[]> {
  return deleteStoreDatabases(storeName(userId, accountId), env);
}
