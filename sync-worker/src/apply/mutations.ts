import type { ModelUpdate, UpdateMessage } from '@plant/shared-schema';
import type { ModelDoc, OutboxDoc } from '../store/docs';
import { settle, serverStateOf, type ServerState } from './rebase';
import type { SyncCursor } from './seq';
import type { ApplyContext, LocalWrite } from './writes';

/*
 * A local write's life (DESIGN.md invariant 6), each step a pure function from the doc and its
 * outbox entries to local writes:
 *
 *   addMutation ──► pending ──► sending ──┬─► confirmMutation ──► confirmed ──► (its update is
 *                      ▲                  │    (or dropped at once when       applied: dropped
 *                      └── retry ─────────┤     the update is already in)     by settle)
 *                                         └─► rejectMutation ──► failed (kept to show) or gone
 *
 * After each step the doc is recomputed: server state, then the remaining mutations on top.
 */

function stateOf(entry: OutboxDoc, doc: ModelDoc | undefined): ServerState {
  return doc === undefined
    ? { type: entry.type, id: entry.id, server: null, last_seq: 0 }
    : serverStateOf(doc);
}

function without(mutations: readonly OutboxDoc[], id: string): OutboxDoc[] {
  return mutations.filter((m) => m.mutation_id !== id);
}

/**
 * A new local write: into the outbox, and onto the doc at once (optimistic).
 * `mutations`: the doc's outbox entries so far.
 */
export function addMutation(
  ctx: ApplyContext,
  entry: OutboxDoc,
  doc: ModelDoc | undefined,
  mutations: readonly OutboxDoc[],
): LocalWrite[] {
  const rest = without(mutations, entry.mutation_id);
  return [
    { kind: 'put-mutation', mutation: entry },
    ...settle(ctx, stateOf(entry, doc), [...rest, entry], doc),
  ];
}

/**
 * The seq of the update in a write's answer (`_events`) that carries the mutation's effect on its
 * model: `updated` for a create, `attributes_updated` for an update, `item_deleted` for a delete.
 * 0 when there is none (an update that changed nothing).
 */
export function throughSeqOf(entry: OutboxDoc, events: readonly UpdateMessage[]): number {
  let seq = 0;
  for (const e of events) {
    if (e.action === 'hidden' || e.type !== entry.type || e.id !== entry.id) continue;
    if (e.action === 'updated' || e.action === 'attributes_updated' || e.action === 'item_deleted')
      seq = Math.max(seq, e.seq);
  }
  return seq;
}

/**
 * The server accepted the mutation (or answered a repeat of it). It keeps overlaying the doc
 * until the store has applied the update that shows its effect; if that is already in (the answer
 * came after the broker's message, or it was a repeat), it goes now.
 */
export function confirmMutation(
  ctx: ApplyContext,
  entry: OutboxDoc,
  events: readonly ModelUpdate[],
  cursor: SyncCursor,
  doc: ModelDoc | undefined,
  mutations: readonly OutboxDoc[],
): LocalWrite[] {
  const through = throughSeqOf(entry, events);
  const rest = without(mutations, entry.mutation_id);
  if (through <= cursor.lastSeq) {
    return [
      { kind: 'remove-mutation', mutationId: entry.mutation_id },
      ...(doc === undefined ? [] : settle(ctx, serverStateOf(doc), rest, doc)),
    ];
  }
  const confirmed: OutboxDoc = {
    ...entry,
    state: 'confirmed',
    through_seq: through,
    last_error: null,
  };
  // settle drops it at once if the doc already shows that seq (a snapshot page brought it).
  return [
    { kind: 'put-mutation', mutation: confirmed },
    ...settle(ctx, stateOf(entry, doc), [...rest, confirmed], doc),
  ];
}

/**
 * The server refused the mutation: it is rolled back (the doc recomputed from the server state
 * and the remaining mutations). `keep`: stay in the outbox as `failed` with the server's message,
 * for the UI to show; else removed.
 */
export function rejectMutation(
  ctx: ApplyContext,
  entry: OutboxDoc,
  error: string,
  keep: boolean,
  doc: ModelDoc | undefined,
  mutations: readonly OutboxDoc[],
): LocalWrite[] {
  const failed: OutboxDoc = { ...entry, state: 'failed', last_error: error };
  const rest = without(mutations, entry.mutation_id);
  return [
    keep
      ? { kind: 'put-mutation', mutation: failed }
      : { kind: 'remove-mutation', mutationId: entry.mutation_id },
    ...(doc === undefined
      ? []
      : settle(ctx, serverStateOf(doc), keep ? [...rest, failed] : rest, doc)),
  ];
}

/**
 * Drops every confirmed mutation whose update is at or below lastSeq and recomputes its doc. The
 * per-doc check in applyUpdate covers the usual path; this one covers updates that never touch
 * the doc here (hidden from this user after a permission change, or skipped by a snapshot).
 */
export function settleConfirmed(
  ctx: ApplyContext,
  cursor: SyncCursor,
  docs: ReadonlyMap<string, ModelDoc>,
  mutations: ReadonlyMap<string, readonly OutboxDoc[]>,
): LocalWrite[] {
  const writes: LocalWrite[] = [];
  for (const [key, list] of mutations) {
    const due = list.filter((m) => m.state === 'confirmed' && m.through_seq <= cursor.lastSeq);
    if (due.length === 0) continue;
    writes.push(
      ...due.map((m): LocalWrite => ({ kind: 'remove-mutation', mutationId: m.mutation_id })),
    );
    const doc = docs.get(key);
    const rest = list.filter((m) => !due.includes(m));
    if (doc !== undefined) writes.push(...settle(ctx, serverStateOf(doc), rest, doc));
  }
  return writes;
}
