import type { MigrationStrategies, RxJsonSchema } from 'rxdb';
import {
  BOOTSTRAP_STATES,
  MUTATION_KINDS,
  MUTATION_STATES,
  type MetaDoc,
  type ModelDoc,
  type OutboxDoc,
} from './docs';

/*
 * The three collections (DESIGN.md §4: the free RxDB edition opens at most 13 collections in a
 * process, so every model type shares `models`). RxDB rules that cost time:
 * - every indexed field is `required`, strings indexed have `maxLength`, numbers indexed have
 *   `minimum`, `maximum` and `multipleOf` (RxDB builds fixed-width index strings from them);
 * - no field name starts with `_`, and none is a property of RxDocument (`collection`, `primary`,
 *   `deleted`, `revision`, `get`, `update`, …): dev-mode lists them, without it writes fail with
 *   "Cannot set property collection of #<Object> which has only a getter";
 * - changing a schema means `version + 1` and a migration strategy for that version in
 *   `migrationStrategies` (store.test.ts shows one running); never edit a released version.
 * There is no `account_id` index on models: one store holds one account.
 */

/** Bumped with any collection's schema version; kept in meta. */
export const STORE_VERSION = 3;

const seqNumber = { type: 'integer', minimum: 0, maximum: 1e15, multipleOf: 1 } as const;
const jsonObject = { type: 'object', additionalProperties: true } as const;
const jsonObjectOrNull = { type: ['object', 'null'], additionalProperties: true } as const;

export const modelsSchemaV0: RxJsonSchema<ModelDoc> = {
  version: 0,
  title: 'models',
  primaryKey: 'key',
  type: 'object',
  properties: {
    key: { type: 'string', maxLength: 300 },
    type: { type: 'string', maxLength: 64 },
    id: { type: 'string', maxLength: 235 },
    parent_key: { type: 'string', maxLength: 300 },
    sort_key: { type: 'string', maxLength: 200 },
    last_seq: seqNumber,
    server: jsonObjectOrNull,
    attributes: jsonObjectOrNull,
  },
  required: ['key', 'type', 'id', 'parent_key', 'sort_key', 'last_seq', 'server', 'attributes'],
  // Lists: a type sorted (`type` + `sort_key`), a parent's children sorted.
  indexes: [['type', 'sort_key'], ['parent_key', 'sort_key'], 'last_seq'],
};

/**
 * Version 1: the same documents; its Dexie database has the lean layout (lean-models.ts: no
 * `_meta.lwt` indexes). Version 0 documents are copied over as they are.
 */
export const modelsSchemaV1: RxJsonSchema<ModelDoc> = { ...modelsSchemaV0, version: 1 };

/**
 * Version 2: the same documents; its Dexie database has no `[_deleted+key]` index either
 * (lean-models.ts: one index entry fewer per model written, a bootstrap's main cost).
 */
export const modelsSchemaV2: RxJsonSchema<ModelDoc> = { ...modelsSchemaV0, version: 2 };

/**
 * Version 3: the same documents; its Dexie indexes end before the key (lean-models.ts: each index
 * entry without a second copy of the key, which IndexedDB keeps beside every entry anyway).
 */
export const modelsSchemaV3: RxJsonSchema<ModelDoc> = { ...modelsSchemaV0, version: 3 };

export const outboxSchemaV0: RxJsonSchema<OutboxDoc> = {
  version: 0,
  title: 'outbox',
  primaryKey: 'mutation_id',
  type: 'object',
  properties: {
    mutation_id: { type: 'string', maxLength: 64 },
    created_at: seqNumber,
    account_id: { type: 'string', maxLength: 64 },
    collection_name: { type: 'string', maxLength: 64 },
    kind: { type: 'string', enum: [...MUTATION_KINDS] },
    type: { type: 'string', maxLength: 64 },
    id: { type: 'string', maxLength: 235 },
    key: { type: 'string', maxLength: 300 },
    attributes: jsonObject,
    state: { type: 'string', enum: [...MUTATION_STATES] },
    attempts: { type: 'integer', minimum: 0 },
    last_error: { type: ['string', 'null'] },
    through_seq: seqNumber,
  },
  required: [
    'mutation_id',
    'created_at',
    'account_id',
    'collection_name',
    'kind',
    'type',
    'id',
    'key',
    'attributes',
    'state',
    'attempts',
    'last_error',
    'through_seq',
  ],
  // The drain reads in created_at order; a doc's recompute reads its own entries.
  indexes: ['created_at', ['key', 'created_at']],
};

export const metaSchemaV0: RxJsonSchema<MetaDoc> = {
  version: 0,
  title: 'meta',
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: { type: 'string', maxLength: 16 },
    user_id: { type: 'string', maxLength: 64 },
    account_id: { type: 'string', maxLength: 64 },
    store_version: { type: 'integer', minimum: 0 },
    last_seq: seqNumber,
    last_ts: { type: 'integer', minimum: 0 },
    bootstrap: { type: 'string', enum: [...BOOTSTRAP_STATES] },
    watermark_seq: seqNumber,
    watermark_ts: { type: 'integer', minimum: 0 },
    snapshot_cursor: { type: ['string', 'null'] },
  },
  required: [
    'id',
    'user_id',
    'account_id',
    'store_version',
    'last_seq',
    'last_ts',
    'bootstrap',
    'watermark_seq',
    'watermark_ts',
    'snapshot_cursor',
  ],
};

/** One collection's current schema and how older versions' documents become this one. */
export interface CollectionDefinition<T> {
  readonly schema: RxJsonSchema<T>;
  readonly migrationStrategies: MigrationStrategies;
}

/**
 * The store's collections. `openStore` takes another definition only in tests (to show a
 * migration); the app always opens this one.
 */
export interface StoreDefinition {
  readonly models: CollectionDefinition<ModelDoc>;
  readonly outbox: CollectionDefinition<OutboxDoc>;
  readonly meta: CollectionDefinition<MetaDoc>;
}

export const STORE_DEFINITION: StoreDefinition = {
  models: {
    schema: modelsSchemaV3,
    migrationStrategies: {
      1: (doc: ModelDoc) => doc,
      2: (doc: ModelDoc) => doc,
      3: (doc: ModelDoc) => doc,
    },
  },
  outbox: { schema: outboxSchemaV0, migrationStrategies: {} },
  meta: { schema: metaSchemaV0, migrationStrategies: {} },
};

export const COLLECTION_NAMES = ['models', 'outbox', 'meta'] as const;
