import { modelKey, type Attributes, type ModelDoc, type OutboxDoc } from '../store/docs';
import { placementOf, type Placement } from './keys';
import { sameJson, type ApplyContext, type LocalWrite } from './writes';

/** The mutations that overlay a doc: all but the failed ones, in the order they were made. */
export function overlaying(mutations: readonly OutboxDoc[]): OutboxDoc[] {
  return mutations
    .filter((m) => m.state !== 'failed')
    .sort((a, b) => a.created_at - b.created_at || (a.mutation_id < b.mutation_id ? -1 : 1));
}

/**
 * DESIGN.md invariant 6: what the user sees is the server's state with the pending mutations on
 * top, oldest first. A field with a pending change therefore shows the local value whatever the
 * server sent, and rolling a mutation back is recomputing without it.
 *
 * - create: its attributes over whatever the server has. Not when the server has had the model
 *   and deleted it since (`server === null`, `lastSeq > 0`): a create does not bring it back.
 * - update: its attributes over the model, if there is one (an update of a deleted model shows
 *   nothing; the server will reject it).
 * - delete: the model is gone.
 */
export function rebase(
  server: Attributes | null,
  lastSeq: number,
  mutations: readonly OutboxDoc[],
): Attributes | null {
  let attributes = server === null ? null : { ...server };
  for (const m of mutations) {
    switch (m.kind) {
      case 'create':
        if (server === null && lastSeq > 0) break;
        attributes = { ...attributes, ...m.attributes };
        break;
      case 'update':
        if (attributes !== null) attributes = { ...attributes, ...m.attributes };
        break;
      case 'delete':
        attributes = null;
        break;
      default: {
        const never: never = m.kind;
        throw new Error(`Unknown mutation kind ${String(never)}`);
      }
    }
  }
  return attributes;
}

/** What the server says about one model, before the local mutations go on top. */
export interface ServerState {
  readonly type: string;
  readonly id: string;
  /** Null: the server does not have it (not yet, or no longer). */
  readonly server: Attributes | null;
  readonly last_seq: number;
  /** Where the server puts it, for read models (the snapshot says); else derived. */
  readonly placement?: Placement;
}

/**
 * Recomputes one doc from the server's state and its outbox entries, and answers the writes
 * that bring the store there. Confirmed mutations whose server update is now applied
 * (`through_seq <= last_seq`) are dropped here: from now on the server state shows their effect.
 * The doc is removed when the server does not have the model and nothing local refers to it.
 */
export function settle(
  ctx: ApplyContext,
  state: ServerState,
  mutations: readonly OutboxDoc[],
  previous: ModelDoc | undefined,
): LocalWrite[] {
  const done = mutations.filter((m) => m.state === 'confirmed' && m.through_seq <= state.last_seq);
  const writes: LocalWrite[] = done.map((m) => ({
    kind: 'remove-mutation',
    mutationId: m.mutation_id,
  }));
  const live = overlaying(mutations.filter((m) => !done.includes(m)));
  const key = modelKey(state.type, state.id);
  if (state.server === null && live.length === 0) {
    if (previous !== undefined) writes.push({ kind: 'remove-model', key });
    return writes;
  }
  const attributes = rebase(state.server, state.last_seq, live);
  const doc: ModelDoc = {
    key,
    type: state.type,
    id: state.id,
    ...placementOf(
      state.type,
      attributes ?? state.server,
      ctx.accountId,
      state.placement ?? previous,
    ),
    last_seq: state.last_seq,
    server: state.server,
    attributes,
  };
  if (previous === undefined || !sameJson(previous, doc)) writes.push({ kind: 'put-model', doc });
  return writes;
}

/** The server state a doc holds, to recompute it after its mutations change. */
export function serverStateOf(doc: ModelDoc): ServerState {
  return {
    type: doc.type,
    id: doc.id,
    server: doc.server,
    last_seq: doc.last_seq,
    placement: { parent_key: doc.parent_key, sort_key: doc.sort_key },
  };
}
