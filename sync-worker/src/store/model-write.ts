import {
  categorizeBulkWriteRows,
  createRevision,
  now,
  runPluginHooks,
  type BulkWriteRow,
  type RxCollection,
  type RxDocumentData,
  type RxStorageChangeEvent,
  type EventBulk,
  type RxStorageDefaultCheckpoint,
} from 'rxdb';
import { fromStorageToDexie, getDocsInDb } from 'rxdb/plugins/storage-dexie';
import type { ModelDoc } from './docs';

/** What a read-modify-write changes: docs to put, keys to remove (missing ones are nothing). */
export interface ModelChanges {
  readonly puts: readonly ModelDoc[];
  readonly removes: readonly string[];
}

/**
 * Reads the model docs at `keys` (absent and removed ones are missing from the map), lets
 * `compute` answer the changes and a result, writes the changes, answers the result.
 */
export type ModelWriter = <R>(
  keys: readonly string[],
  compute: (docs: Map<string, ModelDoc>) => { readonly changes: ModelChanges; readonly result: R },
) => Promise<R>;

/** The parts of RxDB's Dexie storage instance this writes through. */
interface DexieInstance {
  readonly internals: Promise<{
    readonly dexieDb: {
      transaction<T>(mode: 'rw', table: unknown, scope: () => Promise<T>): Promise<T>;
    };
    readonly dexieTable: { bulkPut(docs: unknown[]): Promise<unknown> };
    readonly booleanIndexes: string[];
  }>;
  readonly changes$: {
    next(bulk: EventBulk<RxStorageChangeEvent<RxDocumentData<ModelDoc>>, unknown>): void;
  };
  readonly schema: unknown;
}

/**
 * Reads and writes model docs in ONE IndexedDB transaction of the models database: the docs at
 * the keys are read, `compute` (synchronous: an await inside would let the transaction commit)
 * turns them into changes, and those are written, all under the transaction's lock. No other
 * tab can write these docs in between, so nothing is overwritten that was not read.
 *
 * Why not `storageInstance.bulkWrite`: it reads the docs again inside its own transaction (to
 * check revisions), so a read-compute-write costs two reads of every doc; a read of 500 docs
 * costs about a fifth of their write. This is RxDB's Dexie `bulkWrite` with the
 * compute in the middle, built from the same exported parts (`getDocsInDb`,
 * `categorizeBulkWriteRows`, `fromStorageToDexie`, revisions and write times as RxDB makes
 * them), and its change events go out the same way, through the storage instance's change
 * stream: the collection's live queries and document cache, and other tabs (RxDB's
 * BroadcastChannel listens to that stream), see them as any RxDB write.
 *
 * It uses RxDB 17.6's Dexie storage instance beyond its interface (`internals`, `changes$`):
 * re-check with an RxDB upgrade (store-writes.test.ts reads back through RxDB and watches a live
 * query; e2e/tabs.test.ts sees the events in another tab). Null (the caller reads, then writes
 * through the storage instance) when the storage is not RxDB's Dexie storage.
 */
export function modelWriter(collection: RxCollection<ModelDoc>): ModelWriter | null {
  const instance = collection.storageInstance.originalStorageInstance as unknown;
  if (!isDexieInstance(instance)) return null;
  const primaryPath = 'key';
  const database = collection.database;
  return async <R>(
    keys: readonly string[],
    compute: (docs: Map<string, ModelDoc>) => {
      readonly changes: ModelChanges;
      readonly result: R;
    },
  ): Promise<R> => {
    const state = await instance.internals;
    let answer: { readonly changes: ModelChanges; readonly result: R } | undefined;
    let bulk: EventBulk<RxStorageChangeEvent<RxDocumentData<ModelDoc>>, unknown> | undefined;
    await database.lockedRun(() =>
      state.dexieDb.transaction('rw', state.dexieTable, async () => {
        const unique = [...new Set(keys)];
        const stored = await getDocsInDb<ModelDoc>(instance.internals as never, unique);
        const inDb = new Map<string, RxDocumentData<ModelDoc>>();
        const docs = new Map<string, ModelDoc>();
        for (const doc of stored) {
          if (doc === undefined) continue;
          inDb.set(doc.key, doc);
          if (!doc._deleted) docs.set(doc.key, plainDoc(doc));
        }
        answer = compute(docs);
        const rows = rowsFor(answer.changes, new Set(unique), inDb, database.token);
        if (rows.length === 0) return;
        runPluginHooks('preStorageWrite', { storageInstance: instance, rows });
        const categorized = categorizeBulkWriteRows<ModelDoc>(
          instance as never,
          primaryPath,
          inDb,
          rows,
          MODEL_WRITE_CONTEXT,
        );
        const failed = categorized.errors[0];
        if (failed !== undefined) {
          throw new Error(`models write failed for ${failed.documentId}: status ${failed.status}`);
        }
        const docsToPut = [...categorized.bulkInsertDocs, ...categorized.bulkUpdateDocs].map(
          (row): unknown => toDexieDoc(state.booleanIndexes, row.document),
        );
        await state.dexieTable.bulkPut(docsToPut);
        const newest = categorized.newestRow?.document;
        if (categorized.eventBulk.events.length > 0 && newest !== undefined) {
          bulk = {
            ...categorized.eventBulk,
            checkpoint: {
              id: newest.key,
              lwt: newest._meta.lwt,
            } satisfies RxStorageDefaultCheckpoint,
          };
        }
      }),
    );
    // After the commit, as RxDB's own write: what the events say is in the store.
    if (bulk !== undefined) instance.changes$.next(bulk);
    if (answer === undefined) throw new Error('models write: the transaction did not run');
    return answer.result;
  };
}

/** The context of these writes in RxDB's change events. */
export const MODEL_WRITE_CONTEXT = 'plant-model-write';

function isDexieInstance(value: unknown): value is DexieInstance {
  const v = value as Partial<DexieInstance> | undefined;
  return (
    v?.internals instanceof Promise &&
    typeof (v.changes$ as { next?: unknown } | undefined)?.next === 'function'
  );
}

/**
 * A doc as RxDB's Dexie storage stores it: `_deleted` as '1' / '0' (IndexedDB cannot index
 * booleans). RxDB's `fromStorageToDexie` also deep-copies every doc to rename keys that start
 * with '|' (key compression's, which no schema here uses): 200 ms of a 50,000-model bootstrap in
 * headless Chromium. Only `_deleted` is boolean-indexed in `models`; any other layout goes
 * through RxDB's own conversion.
 */
function toDexieDoc(booleanIndexes: readonly string[], doc: RxDocumentData<ModelDoc>): unknown {
  if (booleanIndexes.length !== 1 || booleanIndexes[0] !== '_deleted') {
    return fromStorageToDexie(booleanIndexes as string[], doc);
  }
  return { ...doc, _deleted: doc._deleted ? '1' : '0' };
}

/** A stored doc without RxDB's fields (a fresh object: the transaction read it). */
function plainDoc(stored: RxDocumentData<ModelDoc>): ModelDoc {
  const doc: Partial<RxDocumentData<ModelDoc>> = { ...stored };
  delete doc._deleted;
  delete doc._attachments;
  delete doc._meta;
  delete doc._rev;
  return doc as ModelDoc;
}

/** The storage rows of the changes, over what the transaction read (as RxDB's write makes them). */
function rowsFor(
  changes: ModelChanges,
  read: ReadonlySet<string>,
  inDb: ReadonlyMap<string, RxDocumentData<ModelDoc>>,
  databaseToken: string,
): BulkWriteRow<ModelDoc>[] {
  const time = now();
  const rows: BulkWriteRow<ModelDoc>[] = [];
  const seen = new Set<string>();
  // Only docs the transaction read: of another, what is stored (and so the event) is unknown.
  const claim = (key: string) => {
    if (!read.has(key)) throw new Error(`models write of ${key}, which it did not read`);
    if (seen.has(key)) throw new Error(`models write of ${key} twice`);
    seen.add(key);
  };
  for (const doc of changes.puts) {
    claim(doc.key);
    const previous = inDb.get(doc.key);
    const document: RxDocumentData<ModelDoc> = {
      ...doc,
      _deleted: false,
      _attachments: {},
      _meta: { lwt: time },
      _rev: createRevision(databaseToken, previous),
    };
    rows.push(previous === undefined ? { document } : { previous, document });
  }
  for (const key of changes.removes) {
    claim(key);
    const previous = inDb.get(key);
    if (previous === undefined || previous._deleted) continue;
    rows.push({
      previous,
      document: {
        ...previous,
        _deleted: true,
        _meta: { ...previous._meta, lwt: time },
        _rev: createRevision(databaseToken, previous),
      },
    });
  }
  return rows;
}
