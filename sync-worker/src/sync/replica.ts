import {
  uuidv7,
  type ModelUpdate,
  type SyncedModel,
  type UpdateMessage,
  type Watermark,
} from '@plant/shared-schema';
import {
  addMutation,
  applySnapshotPage,
  applyUpdates,
  confirmMutation,
  docKeyOf,
  rejectMutation,
  settle,
  settleConfirmed,
  type ApplyContext,
  type LocalWrite,
} from '../apply';
import { modelKey, UNSYNCED, type MetaDoc, type MutationKind, type OutboxDoc } from '../store/docs';
import type { LocalStore } from '../store/store';

/** What applying a run of updates found. */
export interface ReceiveResult {
  /** Updates before `seq` are missing: fetch the log (DESIGN.md invariant 4). */
  readonly gap: { readonly seq: number; readonly missing: number } | undefined;
  /** Doc keys the store lacks whole (attributes_updated for an unknown model): read them. */
  readonly refresh: readonly string[];
  readonly lastSeq: number;
}

export interface NewMutation {
  readonly kind: MutationKind;
  readonly type: string;
  readonly collection: string;
  readonly id: string;
  readonly attributes: Record<string, unknown>;
}

/**
 * The sync operations on one account's local store, each one queued store write that reads what
 * it computes from and commits the apply layer's writes with the new cursor (DESIGN.md
 * invariants 3, 5, 6). The pure rules are in apply/; this is their I/O.
 */
export class Replica {
  private readonly ctx: ApplyContext;
  private lastCreatedAt = 0;

  constructor(readonly store: LocalStore) {
    this.ctx = { accountId: store.accountId };
  }

  get accountId(): string {
    return this.store.accountId;
  }

  meta(): Promise<MetaDoc> {
    return this.store.meta();
  }

  /** Applies updates in seq order; duplicates skipped, a gap stops the run. */
  receive(msgs: readonly UpdateMessage[]): Promise<ReceiveResult> {
    return this.store.write(async (tx) => {
      const meta = await tx.meta();
      const cursor = { lastSeq: meta.last_seq, lastTs: meta.last_ts };
      const keys = msgs.flatMap((m) => docKeyOf(m) ?? []);
      const mutations = await tx.mutationsFor(keys);
      // The docs are read, the updates applied and the docs written in one transaction.
      return tx.updateModels(keys, (docs) => {
        const result = applyUpdates(
          this.ctx,
          cursor,
          [...msgs].sort((a, b) => a.seq - b.seq),
          docs,
          mutations,
        );
        const moved = result.cursor.lastSeq !== cursor.lastSeq;
        return {
          writes: result.writes,
          meta: moved
            ? { last_seq: result.cursor.lastSeq, last_ts: result.cursor.lastTs }
            : undefined,
          result: { gap: result.gap, refresh: result.refresh, lastSeq: result.cursor.lastSeq },
        };
      });
    });
  }

  /** Drops confirmed writes whose update is in (after a catch-up or a bootstrap). */
  settleConfirmed(): Promise<void> {
    return this.store.write(async (tx) => {
      const outbox = await tx.outbox();
      if (!outbox.some((m) => m.state === 'confirmed')) return;
      const meta = await tx.meta();
      const keys = outbox.map((m) => m.key);
      const writes = settleConfirmed(
        this.ctx,
        { lastSeq: meta.last_seq, lastTs: meta.last_ts },
        await tx.models(keys),
        await tx.mutationsFor(keys),
      );
      await tx.commit(writes);
    });
  }

  /**
   * Models from the snapshot or a graph read: each replaces its doc unless the doc is newer.
   * `meta` rides along in the same queued write (the bootstrap's cursor). The docs are read and
   * written in one transaction; for a bootstrap page into an empty store the read finds nothing
   * at the cost of one request (range reads, see store/range-reads.ts).
   */
  putModels(models: readonly SyncedModel[], meta?: Partial<MetaDoc>): Promise<void> {
    return this.store.write(async (tx) => {
      const keys = models.map((m) => modelKey(m.type, m.id));
      const mutations = await tx.mutationsFor(keys);
      await tx.updateModels(keys, (docs) => ({
        writes: applySnapshotPage(this.ctx, models, docs, mutations),
        meta,
        result: undefined,
      }));
    });
  }

  /** The ids of the stored models of a type (the streams whose cached values may stay). */
  async idsOfType(type: string): Promise<string[]> {
    const docs = await this.store.db.models.find({ selector: { type } }).exec();
    return docs.map((d) => d.id);
  }

  /**
   * Forgets every model the server sent (a resync: spec 000 §9 deletes the local data and loads
   * it again). The outbox stays: nothing typed is lost; docs of pending writes are recomputed.
   */
  clearModels(): Promise<void> {
    return this.store.write(async (tx) => {
      const docs = await tx.allModels();
      const outbox = await tx.outbox();
      const byKey = await tx.mutationsFor(outbox.map((m) => m.key));
      const writes: LocalWrite[] = docs.map((d) => ({ kind: 'remove-model', key: d.key }));
      for (const list of byKey.values()) {
        const first = list[0];
        if (first === undefined) continue;
        const state = { type: first.type, id: first.id, server: null, last_seq: 0 };
        writes.push(...settle(this.ctx, state, list, undefined));
      }
      await tx.commit(writes, UNSYNCED);
    });
  }

  /** Marks the bootstrap's snapshot done: the log is replayed from the watermark next. */
  snapshotDone(watermark: Watermark): Promise<void> {
    return this.store.commit([], {
      bootstrap: 'replay',
      snapshot_cursor: null,
      last_seq: watermark.seq,
      last_ts: watermark.ts,
    });
  }

  bootstrapDone(): Promise<void> {
    return this.store.commit([], { bootstrap: 'done' });
  }

  /** A local write: shown at once, persisted in the outbox (DESIGN.md invariant 6). */
  mutate(change: NewMutation): Promise<OutboxDoc> {
    return this.store.write(async (tx) => {
      const key = modelKey(change.type, change.id);
      const outbox = await tx.outbox();
      // created_at orders the outbox: strictly increasing, also across reloads.
      const newest = outbox.at(-1)?.created_at ?? 0;
      this.lastCreatedAt = Math.max(Date.now(), newest + 1, this.lastCreatedAt + 1);
      const entry: OutboxDoc = {
        mutation_id: uuidv7(),
        created_at: this.lastCreatedAt,
        account_id: this.accountId,
        collection_name: change.collection,
        kind: change.kind,
        type: change.type,
        id: change.id,
        key,
        attributes: change.attributes,
        state: 'pending',
        attempts: 0,
        last_error: null,
        through_seq: 0,
      };
      const docs = await tx.models([key]);
      const mutations = await tx.mutationsFor([key]);
      await tx.commit(addMutation(this.ctx, entry, docs.get(key), mutations.get(key) ?? []));
      return entry;
    });
  }

  /** Sets outbox entries' state (sending, back to pending after a transport failure, …). */
  markOutbox(entries: readonly OutboxDoc[], patch: Partial<OutboxDoc>): Promise<void> {
    return this.store.write(async (tx) => {
      const current = new Map((await tx.outbox()).map((m) => [m.mutation_id, m]));
      const writes: LocalWrite[] = entries.flatMap((e) => {
        const now = current.get(e.mutation_id);
        return now === undefined ? [] : [{ kind: 'put-mutation', mutation: { ...now, ...patch } }];
      });
      await tx.commit(writes);
    });
  }

  /** The server applied the write (or answered its repeat). */
  confirm(entry: OutboxDoc, events: readonly ModelUpdate[]): Promise<void> {
    return this.store.write(async (tx) => {
      const meta = await tx.meta();
      const docs = await tx.models([entry.key]);
      const list = (await tx.mutationsFor([entry.key])).get(entry.key) ?? [];
      const current = list.find((m) => m.mutation_id === entry.mutation_id);
      if (current === undefined) return;
      await tx.commit(
        confirmMutation(
          this.ctx,
          current,
          events,
          { lastSeq: meta.last_seq, lastTs: meta.last_ts },
          docs.get(entry.key),
          list,
        ),
      );
    });
  }

  /** The server refused the write: rolled back; kept as failed to be shown when `keep`. */
  reject(entry: OutboxDoc, message: string, keep: boolean): Promise<OutboxDoc | undefined> {
    return this.store.write(async (tx) => {
      const docs = await tx.models([entry.key]);
      const list = (await tx.mutationsFor([entry.key])).get(entry.key) ?? [];
      const current = list.find((m) => m.mutation_id === entry.mutation_id);
      if (current === undefined) return undefined;
      await tx.commit(rejectMutation(this.ctx, current, message, keep, docs.get(entry.key), list));
      return { ...current, state: 'failed', last_error: message };
    });
  }

  /** A failed write sent again: it overlays its doc again and waits for the next batch. */
  retry(mutationId: string): Promise<boolean> {
    return this.store.write(async (tx) => {
      const entry = (await tx.outbox()).find((m) => m.mutation_id === mutationId);
      if (entry === undefined) return false;
      const docs = await tx.models([entry.key]);
      const list = (await tx.mutationsFor([entry.key])).get(entry.key) ?? [];
      const again: OutboxDoc = { ...entry, state: 'pending', attempts: 0, last_error: null };
      await tx.commit(addMutation(this.ctx, again, docs.get(entry.key), list));
      return true;
    });
  }

  /** A failed write given up: removed; its doc shows the server's state. */
  discard(mutationId: string): Promise<boolean> {
    return this.store.write(async (tx) => {
      const entry = (await tx.outbox()).find((m) => m.mutation_id === mutationId);
      if (entry === undefined) return false;
      const docs = await tx.models([entry.key]);
      const list = (await tx.mutationsFor([entry.key])).get(entry.key) ?? [];
      await tx.commit(rejectMutation(this.ctx, entry, '', false, docs.get(entry.key), list));
      return true;
    });
  }

  outbox(): Promise<OutboxDoc[]> {
    return this.store.write((tx) => tx.outbox());
  }
}
