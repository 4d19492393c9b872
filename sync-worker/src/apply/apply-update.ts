import type { UpdateMessage } from '@plant/shared-schema';
import { modelKey, type ModelDoc, type OutboxDoc } from '../store/docs';
import { settle, serverStateOf, type ServerState } from './rebase';
import { checkSeq, type SyncCursor } from './seq';
import { compactWrites, type ApplyContext, type LocalWrite } from './writes';

/**
 * The doc an update changes, which the caller loads (with its outbox entries) before applying.
 * Only updates about a model itself touch a doc:
 * - child_created / child_deleted: the child's own `updated` / `attributes_updated` (its parent
 *   field) / `item_deleted` carry the change, and children are found by their `parent_key`;
 * - updated_list: the order is the children's `sort_key`, derived from their attributes exactly
 *   as the server orders the list. A list kept on the parent could not be rebuilt from a
 *   snapshot (which has no lists), so it would be a second truth that goes stale.
 * Those, and `hidden`, only advance lastSeq/lastTs.
 */
export function docKeyOf(msg: UpdateMessage): string | undefined {
  switch (msg.action) {
    case 'updated':
    case 'attributes_updated':
    case 'item_deleted':
      return modelKey(msg.type, msg.id);
    case 'child_created':
    case 'child_deleted':
    case 'updated_list':
    case 'hidden':
      return undefined;
    default: {
      const never: never = msg;
      throw new Error(`Unknown update ${JSON.stringify(never)}`);
    }
  }
}

/** One update and what the store holds for the doc it touches. */
export interface UpdateInput {
  readonly cursor: SyncCursor;
  readonly msg: UpdateMessage;
  /** The doc at `docKeyOf(msg)`, if the store has it. */
  readonly doc: ModelDoc | undefined;
  /** Every outbox entry for that key, any state. */
  readonly mutations: readonly OutboxDoc[];
}

export type ApplyResult =
  | { readonly kind: 'duplicate' }
  | { readonly kind: 'gap'; readonly missing: number }
  | {
      readonly kind: 'applied';
      /** Store it in the same queued write as `writes` (invariant 3). */
      readonly cursor: SyncCursor;
      readonly writes: readonly LocalWrite[];
      /**
       * A doc key whose full state this store lacks (an attributes_updated for a model it does
       * not have): the caller refreshes it through graph/{type}/{id}.
       */
      readonly refresh: string | undefined;
    };

/**
 * Applies one update idempotently and in seq order (DESIGN.md invariant 3): skipped when
 * `seq <= lastSeq` (duplicate) or `seq <= doc.last_seq` (the doc already shows it, e.g. from a
 * snapshot page); refused as a gap when updates are missing before it.
 */
export function applyUpdate(ctx: ApplyContext, input: UpdateInput): ApplyResult {
  const { msg, doc, mutations } = input;
  const check = checkSeq(input.cursor.lastSeq, msg.seq);
  if (check.kind !== 'apply') return check;
  const cursor = { lastSeq: msg.seq, lastTs: Math.max(input.cursor.lastTs, msg.ts) };
  const applied = (writes: LocalWrite[], refresh?: string): ApplyResult => ({
    kind: 'applied',
    cursor,
    writes,
    refresh,
  });
  if (msg.action === 'hidden') return applied([]);
  if (docKeyOf(msg) !== undefined && doc !== undefined && msg.seq <= doc.last_seq) {
    // The doc is newer than this update; its confirmed mutations may still be due to drop.
    return applied(settle(ctx, serverStateOf(doc), mutations, doc));
  }
  const base: ServerState =
    doc === undefined
      ? { type: msg.type, id: msg.id, server: null, last_seq: 0 }
      : serverStateOf(doc);
  switch (msg.action) {
    case 'updated':
      return applied(
        settle(ctx, { ...base, server: msg.attributes ?? {}, last_seq: msg.seq }, mutations, doc),
      );
    case 'attributes_updated':
      if (base.server === null) return applied([], modelKey(msg.type, msg.id));
      return applied(
        settle(
          ctx,
          { ...base, server: { ...base.server, ...msg.attributes }, last_seq: msg.seq },
          mutations,
          doc,
        ),
      );
    case 'item_deleted':
      if (doc === undefined) return applied([]);
      return applied(settle(ctx, { ...base, server: null, last_seq: msg.seq }, mutations, doc));
    case 'child_created':
    case 'child_deleted':
    case 'updated_list':
      // See docKeyOf: nothing on the parent to write.
      return applied([]);
    default: {
      const never: never = msg;
      throw new Error(`Unknown update ${JSON.stringify(never)}`);
    }
  }
}

/** The result of applying a run of updates (a mqttlogs page, a buffer of broker messages). */
export interface BatchResult {
  readonly cursor: SyncCursor;
  /** Compacted: the last write per document. */
  readonly writes: LocalWrite[];
  readonly refresh: string[];
  /** Set when the run stopped before an update because updates before it are missing. */
  readonly gap: { readonly seq: number; readonly missing: number } | undefined;
}

/**
 * Applies updates in order over the given docs and outbox entries, threading each result into
 * the next, so a page of the log becomes one write. Duplicates are skipped; a gap stops the run.
 * `docs` and `mutations` must hold every key `docKeyOf` names for these updates.
 */
export function applyUpdates(
  ctx: ApplyContext,
  cursor: SyncCursor,
  msgs: readonly UpdateMessage[],
  docs: ReadonlyMap<string, ModelDoc>,
  mutations: ReadonlyMap<string, readonly OutboxDoc[]>,
): BatchResult {
  const liveDocs = new Map(docs);
  const liveMutations = new Map<string, OutboxDoc[]>(
    [...mutations].map(([k, list]) => [k, [...list]]),
  );
  const writes: LocalWrite[] = [];
  const refresh: string[] = [];
  let at = cursor;
  for (const msg of msgs) {
    const key = docKeyOf(msg);
    const result = applyUpdate(ctx, {
      cursor: at,
      msg,
      doc: key === undefined ? undefined : liveDocs.get(key),
      mutations: key === undefined ? [] : (liveMutations.get(key) ?? []),
    });
    if (result.kind === 'duplicate') continue;
    if (result.kind === 'gap') {
      const gap = { seq: msg.seq, missing: result.missing };
      return { cursor: at, writes: compactWrites(writes), refresh, gap };
    }
    at = result.cursor;
    if (result.refresh !== undefined) refresh.push(result.refresh);
    for (const write of result.writes) {
      writes.push(write);
      trackWrite(write, liveDocs, liveMutations);
    }
  }
  return { cursor: at, writes: compactWrites(writes), refresh, gap: undefined };
}

/** Keeps the working copies of a batch in step with the writes made so far. */
export function trackWrite(
  write: LocalWrite,
  docs: Map<string, ModelDoc>,
  mutations: Map<string, OutboxDoc[]>,
): void {
  switch (write.kind) {
    case 'put-model':
      docs.set(write.doc.key, write.doc);
      return;
    case 'remove-model':
      docs.delete(write.key);
      return;
    case 'put-mutation': {
      const list = (mutations.get(write.mutation.key) ?? []).filter(
        (m) => m.mutation_id !== write.mutation.mutation_id,
      );
      mutations.set(write.mutation.key, [...list, write.mutation]);
      return;
    }
    case 'remove-mutation':
      for (const [key, list] of mutations) {
        mutations.set(
          key,
          list.filter((m) => m.mutation_id !== write.mutationId),
        );
      }
      return;
    default: {
      const never: never = write;
      throw new Error(`Unknown write ${JSON.stringify(never)}`);
    }
  }
}
