import type { SyncedModel, Watermark } from '@plant/shared-schema';
import { modelKey, type ModelDoc, type OutboxDoc } from '../store/docs';
import { settle, serverStateOf } from './rebase';
import { compactWrites, type ApplyContext, type LocalWrite } from './writes';

/**
 * One snapshot page over what the store already has (DESIGN.md invariant 5). A model replaces the
 * doc's server state unless the doc is newer (`doc.last_seq > model.last_seq`: an update from the
 * log got there first). Equal last_seq replaces too: read models always come with 0 and are
 * refreshed by each snapshot. Pending local mutations stay on top.
 * `docs` and `mutations` must hold every key of the page's models.
 */
export function applySnapshotPage(
  ctx: ApplyContext,
  models: readonly SyncedModel[],
  docs: ReadonlyMap<string, ModelDoc>,
  mutations: ReadonlyMap<string, readonly OutboxDoc[]>,
): LocalWrite[] {
  const writes: LocalWrite[] = [];
  for (const model of models) {
    const key = modelKey(model.type, model.id);
    const doc = docs.get(key);
    if (doc !== undefined && doc.last_seq > model.last_seq) continue;
    writes.push(
      ...settle(
        ctx,
        {
          type: model.type,
          id: model.id,
          server: model.attributes,
          last_seq: model.last_seq,
          placement: {
            parent_key: modelKey(model.parent_type, model.parent_id),
            sort_key: doc?.sort_key ?? '',
          },
        },
        mutations.get(key) ?? [],
        doc,
      ),
    );
  }
  return compactWrites(writes);
}

/**
 * After the last page: docs the snapshot did not contain are gone from the server (or hidden from
 * this user now). Their server state becomes null, which removes them unless a local mutation
 * still refers to them. Docs newer than the watermark came from the log and stay.
 * `seen`: every key of every page of this snapshot.
 */
export function sweepAfterSnapshot(
  ctx: ApplyContext,
  docs: Iterable<ModelDoc>,
  seen: ReadonlySet<string>,
  watermark: Watermark,
  mutations: ReadonlyMap<string, readonly OutboxDoc[]>,
): LocalWrite[] {
  const writes: LocalWrite[] = [];
  for (const doc of docs) {
    if (seen.has(doc.key) || doc.server === null || doc.last_seq > watermark.seq) continue;
    writes.push(
      ...settle(ctx, { ...serverStateOf(doc), server: null }, mutations.get(doc.key) ?? [], doc),
    );
  }
  return compactWrites(writes);
}
