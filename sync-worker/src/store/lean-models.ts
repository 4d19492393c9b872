import {
  INDEX_MAX,
  INDEX_MIN,
  now,
  type DexieSettings,
  type DexieStorageInternals,
  type PreparedQuery,
  type RxDocumentData,
  type RxQueryPlan,
  type RxStorage,
  type RxStorageDefaultCheckpoint,
  type RxStorageInstance,
} from 'rxdb';
import { fromDexieToStorage, getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import type { IndexedDbEnv } from './indexeddb';

/*
 * The `models` collection without RxDB's index entries that nothing here reads (DESIGN.md §6:
 * RxDB's own index entries are most of what its writes cost over a plain Dexie put).
 *
 * RxDB's Dexie storage gives every collection three indexes besides the schema's own:
 * `[_deleted+key]`, `[_meta.lwt+key]` and `_meta.lwt`. Per model that is three of seven entries
 * written with every put (the primary key and the schema's three indexes are the others). RxDB
 * reads them in two places only; its queries never pick `[_deleted+key]`, which it adds to a
 * schema's index list only when the schema has none of its own:
 * - `getChangedDocumentsSince`, for replication (we have none) and for a schema migration, which
 *   reads the old version's documents through it once;
 * - `cleanup`, which purges deleted documents, and reads every document older than the cleanup
 *   age to find them (all 50,000 models of a large account, on every run).
 * For `models` at schema version `LEAN_MODELS_FROM` and later, the Dexie database is declared
 * without the two `_meta.lwt` indexes, and from `KEYLESS_MODELS_FROM` on without `[_deleted+key]`
 * too (the `lwt` value is still stored: RxDB's document cache compares it); the storage instance
 * answers both methods without them, through indexes it has:
 * - changes since a checkpoint: every document in key order after the checkpoint's key. That is
 *   what a migration from a lean version needs, if nothing writes the old version meanwhile: a
 *   write behind the read position would be missed. The store opens (and so migrates) under its
 *   cross-tab write lock, which every lean build's writes take. It is not a replication feed,
 *   and nothing here replicates. The full layout (version 0) keeps RxDB's own write-time order:
 *   a tab still on a version-0 build takes no lock, and its writes during the migration to
 *   version 1 are read again in that order;
 * - cleanup: the deleted documents only, through `[_deleted+last_seq+key]` (the schema's index,
 *   in every version: deleted documents are the `'1'` end of it).
 * From `SHORT_MODELS_FROM` on, the schema's indexes are declared without the key RxDB ends each
 * with (`[_deleted+type+sort_key]`, `[_deleted+parent_key+sort_key]`, `[_deleted+last_seq]`):
 * IndexedDB orders an index's equal entries by primary key, so the order is the same and each
 * entry shorter. RxDB's own queries and counts are put on them (`shortPlan`), and
 * `query/model-reader.ts` reads them.
 * Measured (bench bootstrap): a bootstrap of 50,000 models in headless Chromium, see
 * sync-worker/CONTEXT.md.
 *
 * It works on RxDB 17.6's Dexie storage (`onCreate` is its documented setting; the index list
 * and `internals` are its own): re-check with an RxDB upgrade (migration.test.ts).
 */

/** The `models` schema version from which its Dexie database has no `_meta.lwt` indexes. */
export const LEAN_MODELS_FROM = 1;

/** The `models` schema version from which its Dexie database has no `[_deleted+key]` either. */
export const KEYLESS_MODELS_FROM = 2;

/**
 * The `models` schema version from which its Dexie indexes end before the key: RxDB ends every
 * index with the primary key, and IndexedDB keeps the primary key beside every index entry
 * anyway (entries with equal index keys are in primary-key order), so the key was in each entry
 * twice. Shorter entries are a cheaper write: a bootstrap of 50,000 models is mostly its index
 * entries (sync-worker CONTEXT). RxDB's queries on these run through `shortQueries`.
 */
export const SHORT_MODELS_FROM = 3;

/** The Dexie storage of the local store, with the lean `models` layout. */
export function storeStorage(env: IndexedDbEnv): RxStorage<DexieStorageInternals, DexieSettings> {
  const dexie = getRxStorageDexie({
    indexedDB: env.indexedDB,
    IDBKeyRange: env.IDBKeyRange,
    onCreate: leanLayout,
  });
  return {
    name: dexie.name,
    rxdbVersion: dexie.rxdbVersion,
    async createStorageInstance(params) {
      const instance = await dexie.createStorageInstance(params);
      if (params.collectionName === 'models') {
        const models = instance as unknown as ModelsInstance;
        const short = params.schema.version >= SHORT_MODELS_FROM;
        cleanupDeleted(models, short ? DELETED_BY_SEQ_SHORT : DELETED_BY_SEQ);
        if (params.schema.version >= LEAN_MODELS_FROM) changesInKeyOrder(models);
        if (short) shortQueries(models);
      }
      return instance;
    },
  };
}

/** What this module reads of a model document: its key. */
interface ModelsDoc {
  key: string;
}

type ModelsInstance = RxStorageInstance<ModelsDoc, DexieStorageInternals, unknown>;

/** The schema version of `rxdb-dexie-<store>--<version>--models`; undefined for other names. */
function modelsVersionOf(dexieName: string): number | undefined {
  const match = /--(\d+)--models$/.exec(dexieName);
  return match === null ? undefined : Number(match[1]);
}

/** `rxdb-dexie-<store>--<version>--models` at a lean version. */
export function isLeanModelsDatabase(dexieName: string): boolean {
  return (modelsVersionOf(dexieName) ?? -1) >= LEAN_MODELS_FROM;
}

/** The table RxDB's Dexie storage keeps documents in. */
const DOCS_TABLE = 'docs';

/** Whether one part of a Dexie store spec indexes `_meta.lwt` (alone or first). */
function indexesLwt(part: string): boolean {
  return part === '_meta.lwt' || part.startsWith('[_meta.lwt+');
}

/** The Dexie store spec of the docs table without the `_meta.lwt` indexes. */
export function withoutLwtIndexes(spec: string): string {
  return spec
    .split(',')
    .map((p) => p.trim())
    .filter((p) => !indexesLwt(p))
    .join(', ');
}

/** The Dexie store spec of the docs table without `[_deleted+key]`. */
export function withoutKeyIndex(spec: string): string {
  return spec
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '[_deleted+key]')
    .join(', ');
}

/** The primary key, last in each of RxDB's indexes (and the suffix of its Dexie name). */
const KEY = 'key';
const KEY_SUFFIX = `+${KEY}]`;

/** The Dexie store spec of the docs table with each compound index ending before the key. */
export function withShortIndexes(spec: string): string {
  return spec
    .split(',')
    .map((p) => p.trim())
    .map((p) => (p.endsWith(KEY_SUFFIX) ? `${p.slice(0, -KEY_SUFFIX.length)}]` : p))
    .join(', ');
}

/** The Dexie store spec of a models database's docs table at its schema version. */
export function leanDocsSpec(spec: string, version: number): string {
  if (version < LEAN_MODELS_FROM) return spec;
  const lean = withoutLwtIndexes(spec);
  if (version < KEYLESS_MODELS_FROM) return lean;
  const keyless = withoutKeyIndex(lean);
  return version < SHORT_MODELS_FROM ? keyless : withShortIndexes(keyless);
}

/**
 * RxDB's query plan for an index that ends with the key, on the same index without it. The order
 * is the same (ties in primary-key order). Where the plan's range on the key is only the filler
 * RxDB's planner puts after the fields it bounds, dropping it keeps the range exact; a range on
 * the key itself (a selector on `key`) widens to the rest, and the query's matcher picks.
 */
export function shortPlan(plan: RxQueryPlan): RxQueryPlan {
  const last = plan.index.length - 1;
  if (last < 1 || plan.index[last] !== KEY) return plan;
  const startFiller = plan.inclusiveStart ? INDEX_MIN : INDEX_MAX;
  const endFiller = plan.inclusiveEnd ? INDEX_MAX : INDEX_MIN;
  const exact = plan.startKeys[last] === startFiller && plan.endKeys[last] === endFiller;
  return {
    ...plan,
    index: plan.index.slice(0, last),
    startKeys: plan.startKeys.slice(0, last),
    endKeys: plan.endKeys.slice(0, last),
    ...(exact ? {} : { inclusiveStart: true, inclusiveEnd: true, selectorSatisfiedByIndex: false }),
  };
}

/** RxDB's queries and counts of a short-index database, on its indexes (`shortPlan`). */
function shortQueries(instance: ModelsInstance): void {
  const query = instance.query.bind(instance);
  const count = instance.count.bind(instance);
  const onShort = (prepared: PreparedQuery<ModelsDoc>): PreparedQuery<ModelsDoc> => ({
    ...prepared,
    queryPlan: shortPlan(prepared.queryPlan),
  });
  instance.query = (prepared) => query(onShort(prepared));
  instance.count = async (prepared) => {
    const short = onShort(prepared);
    if (short.queryPlan.selectorSatisfiedByIndex || !prepared.queryPlan.selectorSatisfiedByIndex) {
      return count(short);
    }
    // Widened (a bound on the key): the matcher decides, so the count is what the query answers,
    // as exact as the index's count was (RxDB refuses a 'slow' count unless told to allow it).
    return { count: (await query(short)).documents.length, mode: 'fast' };
  };
}

/**
 * Dexie's `onCreate`: runs before RxDB declares the database's tables. For a lean models
 * database, the docs table is declared without the indexes its version drops.
 */
const leanLayout: NonNullable<DexieSettings['onCreate']> = (db, dexieName) => {
  const modelsVersion = modelsVersionOf(dexieName);
  if (modelsVersion === undefined || modelsVersion < LEAN_MODELS_FROM) return;
  const declare = db.version.bind(db);
  db.version = (versionNumber: number) => {
    const version = declare(versionNumber);
    const stores = version.stores.bind(version);
    version.stores = (schema) => {
      const docs = schema[DOCS_TABLE];
      return stores(
        typeof docs === 'string'
          ? { ...schema, [DOCS_TABLE]: leanDocsSpec(docs, modelsVersion) }
          : schema,
      );
    };
    return version;
  };
};

/** `getChangedDocumentsSince` without the `[_meta.lwt+key]` index: key order (see above). */
function changesInKeyOrder(instance: ModelsInstance): void {
  const primaryPath = 'key';
  instance.getChangedDocumentsSince = async (limit, checkpoint) => {
    const state = await instance.internals;
    const after = (checkpoint as RxStorageDefaultCheckpoint | undefined)?.id ?? '';
    const stored = await state.dexieDb.transaction('r', state.dexieTable, () =>
      state.dexieTable.where(':id').above(after).limit(limit).toArray(),
    );
    const documents = stored.map((d) =>
      fromDexieToStorage<RxDocumentData<ModelsDoc>>(state.booleanIndexes, d),
    );
    const last = documents[documents.length - 1];
    const next: unknown =
      last === undefined
        ? (checkpoint ?? { id: '', lwt: 0 })
        : ({ id: last[primaryPath], lwt: last._meta.lwt } satisfies RxStorageDefaultCheckpoint);
    return { documents, checkpoint: next };
  };
}

/** The schema's `last_seq` index in Dexie, before and from SHORT_MODELS_FROM. */
const DELETED_BY_SEQ = '[_deleted+last_seq+key]';
const DELETED_BY_SEQ_SHORT = withShortIndexes(DELETED_BY_SEQ);

/**
 * `cleanup` without the `_meta.lwt` index, reading the deleted documents only: the `'1'` end of
 * the schema's `last_seq` index (`index`: its Dexie name in this layout; every layout has it).
 */
function cleanupDeleted(instance: ModelsInstance, index: string): void {
  instance.cleanup = async (minimumDeletedTime) => {
    const state = await instance.internals;
    const before = now() - minimumDeletedTime;
    await state.dexieDb.transaction('rw', state.dexieTable, async () => {
      // RxDB's Dexie storage stores `_deleted` as '1' / '0' (IndexedDB cannot index booleans).
      const deleted = (await state.dexieTable
        .where(index)
        // ['1'] is below every ['1', seq(, key)] (a prefix sorts first); arrays sort after
        // every number, so ['1', []] is above them all.
        .between(['1'], ['1', []])
        .toArray()) as { key: string; _meta: { lwt: number } }[];
      const purge = deleted.filter((d) => d._meta.lwt < before).map((d) => d.key);
      if (purge.length > 0) await state.dexieTable.bulkDelete(purge);
    });
    return true;
  };
}
