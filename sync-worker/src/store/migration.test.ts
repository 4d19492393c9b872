import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { sortKeyOf } from '../apply/keys';
import { dexieDatabaseName } from './database-name';
import { META_ID, modelKey, type ModelDoc } from './docs';
import type { IndexedDbEnv } from './indexeddb';
import { isLeanModelsDatabase, leanDocsSpec, withoutLwtIndexes } from './lean-models';
import {
  modelsSchemaV0,
  modelsSchemaV1,
  modelsSchemaV2,
  STORE_DEFINITION,
  STORE_VERSION,
  type StoreDefinition,
} from './schemas';
import { LocalStore } from './store';
import { syncedDoc } from '../testing/model-docs';

/*
 * The migration path, shown working on the real versions: a store written by a build with
 * version 0 of `models` (RxDB's full Dexie layout) or version 1 (no `_meta.lwt` indexes) opened
 * by the current build (version 2, without `[_deleted+key]` too: lean-models.ts), and a later
 * version migrating from the lean layout with a strategy of the kind a real one would be (the
 * sort-key rule changed, so every doc's sort_key is computed again).
 */
const v0: StoreDefinition = {
  ...STORE_DEFINITION,
  models: { schema: modelsSchemaV0, migrationStrategies: {} },
};

const v1: StoreDefinition = {
  ...STORE_DEFINITION,
  models: { schema: modelsSchemaV1, migrationStrategies: { 1: (doc: ModelDoc) => doc } },
};

/** The current version of `models`. */
const CURRENT = STORE_DEFINITION.models.schema.version;

/** A version after the current one. */
const NEXT = CURRENT + 1;

const next: StoreDefinition = {
  ...STORE_DEFINITION,
  models: {
    schema: { ...modelsSchemaV2, version: NEXT },
    migrationStrategies: {
      ...STORE_DEFINITION.models.migrationStrategies,
      [NEXT]: (doc: ModelDoc): ModelDoc => ({
        ...doc,
        sort_key: `next ${sortKeyOf(doc.type, doc.attributes ?? doc.server ?? {})}`,
      }),
    },
  },
};

/** A doc as an older build stored it: its sort key from an older rule. */
const doc = (id: string, name: string): ModelDoc => ({
  ...syncedDoc('asset', id, name, 1),
  sort_key: 'old',
});

async function names(env: IndexedDbEnv) {
  return (await env.indexedDB.databases()).map((d) => d.name ?? '').sort();
}

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });
}

/** The index names and raw documents of a Dexie database's `docs` table, read without RxDB. */
async function rawDocsTable(env: IndexedDbEnv, name: string) {
  const db = await request(env.indexedDB.open(name));
  try {
    const store = db.transaction('docs', 'readonly').objectStore('docs');
    const docs = (await request(store.getAll())) as { key: string; _deleted: string }[];
    return {
      indexes: Array.from(
        { length: store.indexNames.length },
        (_, i) => store.indexNames.item(i) ?? '',
      ).sort(),
      docs,
    };
  } finally {
    db.close();
  }
}

const options = (env: IndexedDbEnv) => ({
  userId: 'u1',
  accountId: 'acct-1',
  env,
  multiInstance: false,
});

describe('store schema migration', () => {
  it('copies version 0 models into the lean current database and deletes the old one', async () => {
    const env: IndexedDbEnv = { indexedDB: new IDBFactory(), IDBKeyRange };
    const old = await LocalStore.open({ ...options(env), definition: v0 });
    await old.commit([{ kind: 'put-model', doc: doc('a1', 'Press') }], { last_seq: 1 });
    await old.commit([{ kind: 'put-model', doc: doc('a2', 'Lathe') }]);
    // As the version-0 build left it.
    await (await old.db.meta.findOne(META_ID).exec())?.incrementalPatch({ store_version: 0 });
    expect((await old.meta()).store_version).toBe(0);
    const full = await rawDocsTable(env, dexieDatabaseName(old.name, 0, 'models'));
    expect(full.indexes).toContain('_meta.lwt');
    expect(full.indexes).toContain('[_meta.lwt+key]');
    await old.close();

    const store = await LocalStore.open(options(env));
    const docs = await store.write((tx) => tx.allModels());
    expect(docs.map((d) => [d.id, d.attributes]).sort()).toEqual([
      ['a1', { name: 'Press' }],
      ['a2', { name: 'Lathe' }],
    ]);
    // Other collections (still version 0) kept their data.
    expect((await store.meta()).last_seq).toBe(1);
    expect((await store.meta()).store_version).toBe(STORE_VERSION);
    const lean = await rawDocsTable(env, dexieDatabaseName(store.name, CURRENT, 'models'));
    expect(lean.indexes).toEqual(
      full.indexes.filter(
        (i) => i !== '_meta.lwt' && i !== '[_meta.lwt+key]' && i !== '[_deleted+key]',
      ),
    );
    expect(lean.docs.map((d) => d.key).sort()).toEqual(['asset:a1', 'asset:a2']);
    // The version-0 database and RxDB's migration-state database are gone.
    expect((await names(env)).filter((n) => n.includes(store.name))).toEqual(
      [
        `rxdb-dexie-${store.name}--0--_rxdb_internal`,
        `rxdb-dexie-${store.name}--0--meta`,
        `rxdb-dexie-${store.name}--0--outbox`,
        `rxdb-dexie-${store.name}--${CURRENT}--models`,
      ].sort(),
    );
    await store.close();

    // Opening the current version again finds nothing to migrate and keeps the data.
    const again = await LocalStore.open(options(env));
    expect((await again.write((tx) => tx.allModels())).length).toBe(2);
    expect((await again.wipe()).length).toBe(4);
  });

  it('migrates from the lean layout: every document reaches the next version, strategy run', async () => {
    const env: IndexedDbEnv = { indexedDB: new IDBFactory(), IDBKeyRange };
    const store = await LocalStore.open(options(env));
    // More than one of the migration's batches, and a removed doc that must stay removed.
    const ids = Array.from({ length: 250 }, (_, i) => `a${String(i).padStart(3, '0')}`);
    await store.commit(ids.map((id) => ({ kind: 'put-model', doc: doc(id, `Machine ${id}`) })));
    await store.commit([{ kind: 'remove-model', key: modelKey('asset', 'a007') }]);
    await store.close();

    const later = await LocalStore.open({ ...options(env), definition: next });
    const docs = await later.write((tx) => tx.allModels());
    expect(docs.length).toBe(249);
    expect(docs.find((d) => d.id === 'a007')).toBeUndefined();
    expect(docs.find((d) => d.id === 'a123')?.sort_key).toBe('next machine a123');
    expect(docs.every((d) => d.sort_key.startsWith('next '))).toBe(true);
    await later.wipe();
  });

  it('copies version 1 models (no lwt indexes) into the current database, without [_deleted+key]', async () => {
    const env: IndexedDbEnv = { indexedDB: new IDBFactory(), IDBKeyRange };
    const old = await LocalStore.open({ ...options(env), definition: v1 });
    const ids = Array.from({ length: 250 }, (_, i) => `a${String(i).padStart(3, '0')}`);
    await old.commit(
      ids.map((id) => ({ kind: 'put-model', doc: doc(id, `Machine ${id}`) })),
      { last_seq: 7 },
    );
    await old.commit([{ kind: 'remove-model', key: modelKey('asset', 'a007') }]);
    await (await old.db.meta.findOne(META_ID).exec())?.incrementalPatch({ store_version: 1 });
    const before = await rawDocsTable(env, dexieDatabaseName(old.name, 1, 'models'));
    expect(before.indexes).toContain('[_deleted+key]');
    await old.close();

    const store = await LocalStore.open(options(env));
    const docs = await store.write((tx) => tx.allModels());
    expect(docs.length).toBe(249);
    expect(docs.find((d) => d.id === 'a007')).toBeUndefined();
    expect(docs.find((d) => d.id === 'a123')?.attributes).toEqual({ name: 'Machine a123' });
    expect((await store.meta()).last_seq).toBe(7);
    expect((await store.meta()).store_version).toBe(STORE_VERSION);
    const after = await rawDocsTable(env, dexieDatabaseName(store.name, CURRENT, 'models'));
    expect(after.indexes).toEqual(before.indexes.filter((i) => i !== '[_deleted+key]'));
    expect((await names(env)).filter((n) => n.includes('--models'))).toEqual([
      `rxdb-dexie-${store.name}--${CURRENT}--models`,
    ]);
    await store.wipe();
  });

  it('cleanup purges removed models only, without the lwt index', async () => {
    const env: IndexedDbEnv = { indexedDB: new IDBFactory(), IDBKeyRange };
    const store = await LocalStore.open(options(env));
    await store.commit([
      { kind: 'put-model', doc: doc('a1', 'Press') },
      { kind: 'put-model', doc: doc('a2', 'Lathe') },
      { kind: 'put-model', doc: doc('a3', 'Mill') },
    ]);
    await store.commit([{ kind: 'remove-model', key: modelKey('asset', 'a2') }]);
    const table = () => rawDocsTable(env, dexieDatabaseName(store.name, CURRENT, 'models'));
    const before = await table();
    expect(before.docs.map((d) => [d.key, d._deleted])).toEqual([
      ['asset:a1', '0'],
      ['asset:a2', '1'],
      ['asset:a3', '0'],
    ]);
    // Younger than the minimum age: kept.
    await store.db.models.cleanup(60_000);
    expect((await table()).docs.length).toBe(3);
    await store.db.models.cleanup(0);
    expect((await table()).docs.map((d) => d.key)).toEqual(['asset:a1', 'asset:a3']);
    expect((await store.write((tx) => tx.allModels())).map((d) => d.id)).toEqual(['a1', 'a3']);
    await store.wipe();
  });
});

describe('the lean models layout', () => {
  it('names the lean databases and strips only the lwt indexes', () => {
    expect(isLeanModelsDatabase('rxdb-dexie-plant-u-a--1--models')).toBe(true);
    expect(isLeanModelsDatabase('rxdb-dexie-plant-u-a--12--models')).toBe(true);
    expect(isLeanModelsDatabase('rxdb-dexie-plant-u-a--0--models')).toBe(false);
    expect(isLeanModelsDatabase('rxdb-dexie-plant-u-a--1--outbox')).toBe(false);
    expect(isLeanModelsDatabase('rxdb-dexie-plant-u-a--1--rx-migration-state-meta-models-0')).toBe(
      false,
    );
    expect(
      withoutLwtIndexes(
        'key, [_deleted+key], [_deleted+type+sort_key+key], [_meta.lwt+key], _meta.lwt',
      ),
    ).toBe('key, [_deleted+key], [_deleted+type+sort_key+key]');
  });

  it('drops [_deleted+key] from version 2 on, and nothing at version 0', () => {
    const full =
      'key, [_deleted+key], [_deleted+type+sort_key+key], [_deleted+last_seq+key], [_meta.lwt+key], _meta.lwt';
    expect(leanDocsSpec(full, 0)).toBe(full);
    expect(leanDocsSpec(full, 1)).toBe(
      'key, [_deleted+key], [_deleted+type+sort_key+key], [_deleted+last_seq+key]',
    );
    expect(leanDocsSpec(full, 2)).toBe(
      'key, [_deleted+type+sort_key+key], [_deleted+last_seq+key]',
    );
  });
});
