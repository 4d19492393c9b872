import type { ModelInput, ModelType } from '@plant/shared-schema';
import type { PendingWrite, Result, SyncStatus } from '../../sync-worker/src/api';
import { storeName } from '../../sync-worker/src/store/database-name';
import type { TestSession } from '../page/contract';
import type { SyncPage } from './sync-page';

/** A model as the tab's IndexedDB holds it (the models collection's doc, read from disk). */
export interface StoredDoc {
  readonly type: string;
  readonly id: string;
  readonly last_seq: number;
  /** The server's attributes as last applied; null: created here or deleted on the server. */
  readonly server: Record<string, unknown> | null;
  /** What the UI shows (server + pending writes); null: hidden. */
  readonly attributes: Record<string, unknown> | null;
}

/** What one tab's store holds: its models and where it stands in the change log. */
export interface StoredState {
  readonly docs: readonly StoredDoc[];
  readonly lastSeq: number;
}

function dataOrThrow<T>(what: string, result: Result<T>): T {
  if ('error' in result) throw new Error(`${what}: ${result.error.kind}: ${result.error.message}`);
  return result.data;
}

/**
 * One browser tab of the fault suite: the e2e test page's real sync worker (SyncPage), with the
 * writes the suite makes of every kind (creates, updates, deletes, files) and a read of its
 * store straight from IndexedDB.
 */
export class FaultTab {
  constructor(
    readonly name: string,
    readonly page: SyncPage,
    readonly session: TestSession & { readonly email: string },
  ) {}

  status(): Promise<SyncStatus | undefined> {
    return this.page.status();
  }

  writes(): Promise<readonly PendingWrite[]> {
    return this.page.writes();
  }

  async create<T extends ModelType>(
    type: T,
    attributes: ModelInput<T>,
    id?: string,
  ): Promise<{ id: string; mutationId: string }> {
    return dataOrThrow(
      `create ${type}`,
      await this.page.page.evaluate(
        ([t, a, i]): Promise<Result<{ id: string; mutationId: string }>> =>
          window.plant.api.writes.create(t, a as ModelInput<typeof t>, i ?? undefined),
        [type, attributes, id ?? null] as const,
      ),
    );
  }

  async update<T extends ModelType>(
    type: T,
    id: string,
    attributes: Partial<ModelInput<T>>,
  ): Promise<string> {
    return dataOrThrow(
      `update ${type}`,
      await this.page.page.evaluate(
        ([t, i, a]): Promise<Result<{ mutationId: string }>> =>
          window.plant.api.writes.update(t, i, a as Partial<ModelInput<typeof t>>),
        [type, id, attributes] as const,
      ),
    ).mutationId;
  }

  async remove(type: ModelType, id: string): Promise<string> {
    return dataOrThrow(
      `delete ${type}`,
      await this.page.page.evaluate(
        ([t, i]): Promise<Result<{ mutationId: string }>> => window.plant.api.writes.remove(t, i),
        [type, id] as const,
      ),
    ).mutationId;
  }

  /**
   * Adds a text document of `size` bytes to an asset through the worker's file path (bytes kept
   * here, model through the outbox, chunks uploaded by the leader). The bytes are `fileBytes`'.
   */
  async addFile(
    assetId: string,
    name: string,
    size: number,
    seed: number,
  ): Promise<{ id: string; mutationId: string }> {
    return dataOrThrow(
      `add file ${name}`,
      await this.page.page.evaluate(
        // Page code: the same formula as `fileBytes` (no helpers of the test's module here).
        ([asset, n, s, k]): Promise<Result<{ id: string; mutationId: string }>> => {
          const bytes = new Uint8Array(s);
          for (let i = 0; i < s; i++) bytes[i] = (i * 31 + k * 7 + (i >> 8)) & 255;
          return window.plant.api.files.add(
            asset,
            'document',
            new Blob([bytes], { type: 'text/plain' }),
            n,
          );
        },
        [assetId, name, size, seed] as const,
      ),
    );
  }

  /** The local store as written to disk: every model doc, and the meta's last seq. */
  stored(): Promise<StoredState> {
    const store = storeName(this.session.userId, this.session.accountId);
    // Page code without named functions of its own: the test's transform may wrap those in a
    // helper the page does not have.
    return this.page.page.evaluate(async (prefix) => {
      const names = (await indexedDB.databases()).flatMap((d) =>
        d.name?.startsWith(prefix) === true ? [d.name] : [],
      );
      const docs: {
        type: string;
        id: string;
        last_seq: number;
        server: Record<string, unknown> | null;
        attributes: Record<string, unknown> | null;
      }[] = [];
      let lastSeq = 0;
      for (const name of names) {
        const models = name.endsWith('--models');
        if (!models && !name.endsWith('--meta')) continue;
        const db = await new Promise<IDBDatabase>((resolve, reject) => {
          const open = indexedDB.open(name);
          open.onsuccess = () => resolve(open.result);
          open.onerror = () => reject(open.error ?? new Error(`cannot open ${name}`));
        });
        let rows: unknown[];
        try {
          rows = await new Promise<unknown[]>((resolve, reject) => {
            const req = db.transaction('docs', 'readonly').objectStore('docs').getAll();
            req.onsuccess = () => resolve(req.result as unknown[]);
            req.onerror = () => reject(req.error ?? new Error(`cannot read ${name}`));
          });
        } finally {
          db.close();
        }
        for (const raw of rows) {
          const doc = raw as (typeof docs)[number] & { _deleted?: unknown };
          if (doc._deleted === '1' || doc._deleted === true) continue;
          if (!models) lastSeq = Math.max(lastSeq, doc.last_seq);
          else
            docs.push({
              type: doc.type,
              id: doc.id,
              last_seq: doc.last_seq,
              server: doc.server,
              attributes: doc.attributes,
            });
        }
      }
      return { docs, lastSeq };
    }, `rxdb-dexie-${store}--`);
  }
}

/** The bytes `FaultTab.addFile` uploads for this size and seed. */
export function fileBytes(size: number, seed: number): Buffer {
  const bytes = Buffer.alloc(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 31 + seed * 7 + (i >> 8)) & 255;
  return bytes;
}
