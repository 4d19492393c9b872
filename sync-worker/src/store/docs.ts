/**
 * The shapes of the local store's documents (DESIGN.md §4). Plain types without RxDB, so that the
 * pure apply layer can compute them and the store can persist them.
 *
 * RxDB rejects field names that start with `_`, so none here does.
 */

/** A model's attributes as the server sends them (the registry's zod schemas describe them). */
export type Attributes = Record<string, unknown>;

/**
 * One model in the `models` collection, keyed `"<type>:<id>"`.
 *
 * It keeps two states (DESIGN.md invariant 6): `server`, the attributes as of the last update the
 * server sent, and `attributes`, what the user sees: `server` with the pending local mutations
 * on top. Queries for the UI read `attributes` and leave out docs where it is null.
 *
 * A doc exists while the server has the model or a local mutation still refers to it:
 * - `server === null && last_seq === 0`: created here, not yet seen from the server;
 * - `server === null && last_seq > 0`: deleted on the server (by `item_deleted` at `last_seq`, or
 *   absent from a later snapshot) while a local mutation is still out: kept as a tombstone so
 *   that rolling the mutation back or confirming it ends in the right state;
 * - `attributes === null`: hidden from the UI (deleted here, or deleted on the server).
 */
export interface ModelDoc {
  /** `"<type>:<id>"`, see `modelKey`. */
  key: string;
  type: string;
  id: string;
  /** `"<parent_type>:<parent_id>"`: lists of children query this index. */
  parent_key: string;
  /** The registry's sort field, as the server computes its sort key (see `sortKeyOf`). */
  sort_key: string;
  /** The seq of the last server change applied to this doc; 0 while the server has not sent it. */
  last_seq: number;
  server: Attributes | null;
  attributes: Attributes | null;
}

export const MUTATION_KINDS = ['create', 'update', 'delete'] as const;
export type MutationKind = (typeof MUTATION_KINDS)[number];

/**
 * - pending: waiting for the next batch; sending: in a batch on the wire;
 * - confirmed: the server applied it, but the update that shows its effect (`through_seq`) has
 *   not been applied here yet, so it still overlays the doc (no flicker back to the old state);
 * - failed: the server rejected it; kept to be shown to the user, no longer overlays the doc.
 */
export const MUTATION_STATES = ['pending', 'sending', 'confirmed', 'failed'] as const;
export type MutationState = (typeof MUTATION_STATES)[number];

/** One local write in the persisted outbox (DESIGN.md invariant 6). */
export interface OutboxDoc {
  /** Client-made; the server answers a repeated one instead of applying it again. */
  mutation_id: string;
  /** Milliseconds; strictly increasing per store (the order mutations were made and are sent). */
  created_at: number;
  /** The account the write was made in: it is never sent in another one. */
  account_id: string;
  /**
   * The registry's collection: the route it goes to (`/api/v1/{collection}`). Not named
   * `collection`: RxDB documents have a `collection` getter, and a field of that name breaks them.
   */
  collection_name: string;
  kind: MutationKind;
  type: string;
  id: string;
  /** `modelKey(type, id)`: the doc it overlays. */
  key: string;
  /** The attributes sent: all of them for create, the changed ones for update, none for delete. */
  attributes: Attributes;
  state: MutationState;
  attempts: number;
  /** The server's message for a rejection or the last transport failure. */
  last_error: string | null;
  /** For `confirmed`: the seq of the server's update of this model that carries the change. */
  through_seq: number;
}

export const BOOTSTRAP_STATES = ['none', 'snapshot', 'replay', 'done'] as const;
export type BootstrapState = (typeof BOOTSTRAP_STATES)[number];

/** The id of the one document in `meta`. */
export const META_ID = 'sync';

/** Where this store is in the account's change log (DESIGN.md invariants 3 to 5). */
export interface MetaDoc {
  id: typeof META_ID;
  user_id: string;
  account_id: string;
  /** The layout of this store (`STORE_VERSION`); a newer build migrates or wipes older ones. */
  store_version: number;
  /** The seq of the last update applied (or skipped as hidden): the next one must be +1. */
  last_seq: number;
  /** The ts of that update: mqttlogs is asked `from=` it. */
  last_ts: number;
  bootstrap: BootstrapState;
  /** The snapshot's watermark; the log is replayed from it (0 before a bootstrap). */
  watermark_seq: number;
  watermark_ts: number;
  /** The next snapshot page to fetch, so an interrupted bootstrap goes on where it stopped. */
  snapshot_cursor: string | null;
}

/** Where a store stands before its first bootstrap, and again after a resync clears it. */
export const UNSYNCED = {
  last_seq: 0,
  last_ts: 0,
  bootstrap: 'none',
  watermark_seq: 0,
  watermark_ts: 0,
  snapshot_cursor: null,
} as const satisfies Partial<MetaDoc>;

/** The store key of a model. Ids may contain ':' (read-model tags do): the type never does. */
export function modelKey(type: string, id: string): string {
  return `${type}:${id}`;
}
