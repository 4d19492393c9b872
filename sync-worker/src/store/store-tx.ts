import type {
  BulkWriteRow,
  RxCollection,
  RxDocument,
  RxDocumentData,
  RxStorageWriteError,
  RxStorageWriteErrorConflict,
} from 'rxdb';
import { compactWrites, type LocalWrite } from '../apply/writes';
import { META_ID, type MetaDoc, type ModelDoc, type OutboxDoc } from './docs';
import type { ModelWriter } from './model-write';

export interface StoreCollections {
  models: RxCollection<ModelDoc>;
  outbox: RxCollection<OutboxDoc>;
  meta: RxCollection<MetaDoc>;
}

/** The fields of meta a write may change along with its documents. */
export type MetaPatch = Partial<Omit<MetaDoc, 'id' | 'user_id' | 'account_id'>>;

/**
 * What a queued write task may do: read the documents it computes from, then commit. Only tasks
 * in the store's queue get one, so a read here sees every earlier write and no later one.
 */
export interface StoreTx {
  /** The model docs with these keys (absent keys are missing from the map). */
  models(keys: Iterable<string>): Promise<Map<string, ModelDoc>>;
  /** Every model doc (a snapshot's sweep needs them). */
  allModels(): Promise<ModelDoc[]>;
  /** The outbox entries of these model keys, oldest first, by key (every key present). */
  mutationsFor(keys: Iterable<string>): Promise<Map<string, OutboxDoc[]>>;
  /** The whole outbox, oldest first. */
  outbox(): Promise<OutboxDoc[]>;
  meta(): Promise<MetaDoc>;
  /**
   * Runs the apply layer's writes (compacted) and the meta change. The Dexie storage keeps each
   * collection in its own IndexedDB database, so no transaction spans them; the order makes any
   * crash between the steps harmless:
   * 1. outbox puts: a new mutation is persisted before the doc shows it (a crash here leaves a
   *    mutation the doc does not show yet: `recoverOverlays` at open fixes that);
   * 2. models: puts and removes;
   * 3. outbox removes (a crash before: the entry is settled again, or re-sent and answered again);
   * 4. meta last: a crash before it means the same updates are applied again at the next start,
   *    which skips them (`seq <= doc.last_seq`) or removes again what is already gone.
   */
  commit(writes: readonly LocalWrite[], meta?: MetaPatch): Promise<void>;
  /**
   * A read-compute-commit over model docs in one step: reads the docs at `keys`, runs `compute`
   * on them (synchronously) and commits its writes and meta change as `commit` does. The models
   * are read and written in ONE IndexedDB transaction (see model-write.ts), the bulk paths
   * (updates, snapshot pages) take this. `compute` may not put outbox entries (they must be
   * written before the models).
   */
  updateModels<R>(
    keys: Iterable<string>,
    compute: (docs: ReadonlyMap<string, ModelDoc>) => ComputedWrites<R>,
  ): Promise<R>;
}

/** What an `updateModels` computation answers. */
export interface ComputedWrites<R> {
  readonly writes: readonly LocalWrite[];
  readonly meta?: MetaPatch | undefined;
  readonly result: R;
}

function check<T>(what: string, result: { error: RxStorageWriteError<T>[] }): void {
  const first = result.error[0];
  if (first !== undefined) {
    throw new Error(
      `${what} failed for ${result.error.length} document(s), first ${first.documentId}: status ${first.status}`,
    );
  }
}

/** The context of our writes in RxDB's change events. */
export const STORE_WRITE_CONTEXT = 'plant-store-write';

/** A write that keeps meeting another tab's newer document gives up after this many tries. */
const WRITE_ATTEMPTS = 5;

/** The stored documents a task has read, with RxDB's revision: what its writes replace. */
type Known<T> = Map<string, RxDocumentData<T>>;

function remember<T>(known: Known<T>, docs: Iterable<RxDocument<T>>): void {
  for (const doc of docs) known.set(doc.primary, doc._data);
}

/**
 * Puts and removes documents in one write of the collection's storage instance (one IndexedDB
 * transaction; RxDB's change events fire as for any collection write: live queries, the
 * document cache and other tabs see it).
 *
 * `collection.bulkUpsert` costs more: it first tries an insert (a transaction that reads every
 * document and fails for the existing ones), then writes those again through a second one; and
 * it builds an RxDocument per document. Here each document goes with the stored state the task
 * read (`known`), so one write does. A document written meanwhile by another tab (or one the task
 * did not read) comes back as a conflict with its stored state and is written over it, as
 * bulkUpsert would; a remove of a missing document is nothing, as bulkRemove.
 */
async function writeDocs<T>(
  what: string,
  collection: RxCollection<T>,
  puts: readonly T[],
  removeIds: readonly string[],
  known: Known<T>,
): Promise<void> {
  if (puts.length === 0 && removeIds.length === 0) return;
  const primary = collection.schema.primaryPath as keyof T & string;
  const wanted = new Map<string, T | null>();
  for (const doc of puts) wanted.set(doc[primary] as string, doc);
  for (const id of removeIds) wanted.set(id, null);
  const unknownRemoves = removeIds.filter((id) => !known.has(id));
  if (unknownRemoves.length > 0) {
    for (const doc of await collection.storageInstance.findDocumentsById(unknownRemoves, false)) {
      known.set(doc[primary] as string, doc);
    }
  }
  const rowOf = (id: string, previous: RxDocumentData<T> | undefined) => {
    const doc = wanted.get(id);
    if (doc === undefined) return [];
    if (doc === null) {
      // Removing: only what is there (and not removed already).
      if (previous === undefined || previous._deleted) return [];
      return [{ previous, document: { ...previous, _deleted: true } }];
    }
    const document = {
      ...doc,
      _deleted: false,
      _attachments: {},
      // Both set anew by RxDB's write (a new revision, the write time).
      _rev: previous?._rev ?? '',
      _meta: previous?._meta ?? { lwt: 0 },
    } as RxDocumentData<T>;
    return [previous === undefined ? { document } : { previous, document }];
  };
  let rows: BulkWriteRow<T>[] = [...wanted.keys()].flatMap((id) => rowOf(id, known.get(id)));
  for (let attempt = 1; rows.length > 0; attempt++) {
    const result = await collection.storageInstance.bulkWrite(rows, STORE_WRITE_CONTEXT);
    const conflicts: RxStorageWriteErrorConflict<T>[] = [];
    const failures: RxStorageWriteError<T>[] = [];
    for (const e of result.error) {
      if (e.status === 409 && 'documentInDb' in e) conflicts.push(e);
      else failures.push(e);
    }
    check(what, { error: failures });
    if (conflicts.length > 0 && attempt >= WRITE_ATTEMPTS) check(what, { error: conflicts });
    rows = conflicts.flatMap((e) => rowOf(e.documentId, e.documentInDb));
  }
  // Their stored revisions are new now: a later write in this task reads them again.
  for (const id of wanted.keys()) known.delete(id);
}

interface SplitWrites {
  readonly putModels: ModelDoc[];
  readonly removeModels: string[];
  readonly putMutations: OutboxDoc[];
  readonly removeMutations: string[];
}

/** The writes (compacted: the last one per document) by collection and kind. */
function split(writes: readonly LocalWrite[]): SplitWrites {
  const out: SplitWrites = {
    putModels: [],
    removeModels: [],
    putMutations: [],
    removeMutations: [],
  };
  for (const write of compactWrites(writes)) {
    switch (write.kind) {
      case 'put-model':
        out.putModels.push(write.doc);
        break;
      case 'remove-model':
        out.removeModels.push(write.key);
        break;
      case 'put-mutation':
        out.putMutations.push(write.mutation);
        break;
      case 'remove-mutation':
        out.removeMutations.push(write.mutationId);
        break;
      default: {
        const never: never = write;
        throw new Error(`Unknown write ${JSON.stringify(never)}`);
      }
    }
  }
  return out;
}

/**
 * `writer`: the one-transaction read-modify-write of model docs (model-write.ts), null where
 * the storage is not RxDB's Dexie storage (then a read, and a write of what was read).
 */
export function createStoreTx(
  collections: StoreCollections,
  writer: ModelWriter | null = null,
): StoreTx {
  const { models, outbox, meta } = collections;
  const knownModels: Known<ModelDoc> = new Map();
  const knownOutbox: Known<OutboxDoc> = new Map();
  const knownMeta: Known<MetaDoc> = new Map();
  const readMeta = async () => {
    const doc = await meta.findOne(META_ID).exec();
    if (doc === null) throw new Error('The store has no meta document.');
    remember(knownMeta, [doc]);
    return doc.toMutableJSON();
  };
  /** Steps 3 and 4 of a commit: outbox removes, then meta. */
  const afterModels = async (removeMutations: readonly string[], patch: MetaPatch | undefined) => {
    await writeDocs('outbox remove', outbox, [], removeMutations, knownOutbox);
    if (patch !== undefined && Object.keys(patch).length > 0) {
      const current = await readMeta();
      await writeDocs('meta write', meta, [{ ...current, ...patch }], [], knownMeta);
    }
  };
  const readModels = async (keys: Iterable<string>) => {
    const found = await models.findByIds([...new Set(keys)]).exec();
    remember(knownModels, found.values());
    return new Map([...found].map(([key, doc]) => [key, doc.toMutableJSON()]));
  };
  const readOutbox = async () => {
    const found = await outbox.find({ sort: [{ created_at: 'asc' }] }).exec();
    remember(knownOutbox, found);
    return found.map((doc) => doc.toMutableJSON());
  };
  return {
    models: readModels,
    async allModels() {
      const found = await models.find().exec();
      remember(knownModels, found);
      return found.map((doc) => doc.toMutableJSON());
    },
    async mutationsFor(keys) {
      const byKey = new Map<string, OutboxDoc[]>([...keys].map((key) => [key, []]));
      if (byKey.size === 0) return byKey;
      // The whole outbox, filtered here: the same query every time, which RxDB answers from its
      // query cache while the outbox has not changed (a query by these keys would read
      // IndexedDB each time). The outbox holds only unsent and unconfirmed writes.
      for (const entry of await readOutbox()) byKey.get(entry.key)?.push(entry);
      return byKey;
    },
    outbox: readOutbox,
    meta: readMeta,
    async commit(writes, patch) {
      const { putModels, removeModels, putMutations, removeMutations } = split(writes);
      await writeDocs('outbox put', outbox, putMutations, [], knownOutbox);
      await writeDocs('models write', models, putModels, removeModels, knownModels);
      await afterModels(removeMutations, patch);
    },
    async updateModels<R>(
      keys: Iterable<string>,
      compute: (docs: ReadonlyMap<string, ModelDoc>) => ComputedWrites<R>,
    ): Promise<R> {
      let rest: SplitWrites | undefined;
      let patch: MetaPatch | undefined;
      const run = (docs: ReadonlyMap<string, ModelDoc>) => {
        const computed = compute(docs);
        rest = split(computed.writes);
        patch = computed.meta;
        if (rest.putMutations.length > 0) {
          throw new Error('updateModels: outbox puts go before the models (use commit)');
        }
        return {
          changes: { puts: rest.putModels, removes: rest.removeModels },
          result: computed.result,
        };
      };
      const wanted = [...new Set(keys)];
      let result: R;
      if (writer === null) {
        const { changes, result: computed } = run(await readModels(wanted));
        await writeDocs('models write', models, changes.puts, changes.removes, knownModels);
        result = computed;
      } else {
        result = await writer(wanted, run);
        // Their stored revisions are new: a later write in this task reads them again.
        for (const key of wanted) knownModels.delete(key);
      }
      await afterModels(rest?.removeMutations ?? [], patch);
      return result;
    },
  };
}
