import type { RxCollection, RxStorageWriteError } from 'rxdb';
import { compactWrites, type LocalWrite } from '../apply/writes';
import { META_ID, type MetaDoc, type ModelDoc, type OutboxDoc } from './docs';

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
}

function check<T>(what: string, result: { error: RxStorageWriteError<T>[] }): void {
  const first = result.error[0];
  if (first !== undefined) {
    throw new Error(
      `${what} failed for ${result.error.length} document(s), first ${first.documentId}: status ${first.status}`,
    );
  }
}

export function createStoreTx(collections: StoreCollections): StoreTx {
  const { models, outbox, meta } = collections;
  const readMeta = async () => {
    const doc = await meta.findOne(META_ID).exec();
    if (doc === null) throw new Error('The store has no meta document.');
    return doc.toMutableJSON();
  };
  return {
    async models(keys) {
      const found = await models.findByIds([...new Set(keys)]).exec();
      return new Map([...found].map(([key, doc]) => [key, doc.toMutableJSON()]));
    },
    async allModels() {
      return (await models.find().exec()).map((doc) => doc.toMutableJSON());
    },
    async mutationsFor(keys) {
      const wanted = [...new Set(keys)];
      const byKey = new Map<string, OutboxDoc[]>(wanted.map((key) => [key, []]));
      if (wanted.length === 0) return byKey;
      const found = await outbox
        .find({ selector: { key: { $in: wanted } }, sort: [{ created_at: 'asc' }] })
        .exec();
      for (const doc of found) byKey.get(doc.key)?.push(doc.toMutableJSON());
      return byKey;
    },
    async outbox() {
      const found = await outbox.find({ sort: [{ created_at: 'asc' }] }).exec();
      return found.map((doc) => doc.toMutableJSON());
    },
    meta: readMeta,
    async commit(writes, patch) {
      const putModels: ModelDoc[] = [];
      const removeModels: string[] = [];
      const putMutations: OutboxDoc[] = [];
      const removeMutations: string[] = [];
      for (const write of compactWrites(writes)) {
        switch (write.kind) {
          case 'put-model':
            putModels.push(write.doc);
            break;
          case 'remove-model':
            removeModels.push(write.key);
            break;
          case 'put-mutation':
            putMutations.push(write.mutation);
            break;
          case 'remove-mutation':
            removeMutations.push(write.mutationId);
            break;
          default: {
            const never: never = write;
            throw new Error(`Unknown write ${JSON.stringify(never)}`);
          }
        }
      }
      if (putMutations.length > 0) check('outbox put', await outbox.bulkUpsert(putMutations));
      if (putModels.length > 0) check('models put', await models.bulkUpsert(putModels));
      if (removeModels.length > 0) check('models remove', await models.bulkRemove(removeModels));
      if (removeMutations.length > 0)
        check('outbox remove', await outbox.bulkRemove(removeMutations));
      if (patch !== undefined && Object.keys(patch).length > 0) {
        await meta.upsert({ ...(await readMeta()), ...patch });
      }
    },
  };
}
