import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { sortKeyOf } from '../apply/keys';
import { dexieDatabaseName } from './database-name';
import { META_ID, modelKey, type ModelDoc } from './docs';
import type { IndexedDbEnv } from './indexeddb';
import { isLeanModelsDatabase, withoutLwtIndexes } from './lean-models';
import {
  modelsSchemaV0,
  modelsSchemaV1,
  STORE_DEFINITION,
  STORE_VERSION,
  type StoreDefinition,
} from './schemas';
import { LocalStore } from './store';
import { syncedDoc } from '../testing/model-docs';

/*
 * The migration path, shown working on the real versions: a store written by a build with
 * version 0 of `models` (RxDB's full Dexie layout) opened by the current build (version 1, the
 * lean layout of lean-models.ts), and a later version migrating from the lean layout with a
 * strategy of the kind a real one would be (the sort-key rule changed, so every doc's sort_key is
 * computed again).
 */
const v0: StoreDefinition = {
  ...STORE_DEFINITION,
  models: { schema: modelsSchemaV0, migrationStrategies: {} },
};

const v2: StoreDefinition = {
  ...STORE_DEFINITION,
  models: {
    schema: { ...modelsSchemaV1, version: 2 },
    migrationStrategies: {
      ...STORE_DEFINITION.models.migrationStrategies,
      2: (doc: ModelDoc): ModelDoc => ({
        ...doc,
        sort_key: `v2 ${sortKeyOf(doc.type, doc.attributes ?? doc.server ?? {})}`,
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
  it('copies version 0 models into the lean version 1 database and deletes the old one', async () => {
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
    const lean = await rawDocsTable(env, dexieDatabaseName(store.name, 1, 'models'));
    expect(lean.indexes).toEqual(
      full.indexes.filter((i) => i !== '_meta.lwt' && i !== '[_meta.lwt+key]'),
    );
    expect(lean.docs.map((d) => d.key).sort()).toEqual(['asset:a1', 'asset:a2']);
    // The version-0 database and RxDB's migration-state database are gone.
    expect((await names(env)).filter((n) => n.includes(store.name))).toEqual(
      [
        `rxdb-dexie-${store.name}--0--_rxdb_internal`,
        `rxdb-dexie-${store.name}--0--meta`,
        `rxdb-dexie-${store.name}--0--outbox`,
        `rxdb-dexie-${store.name}--1--models`,
      ].sort(),
    );
    await store.close();

    // Opening version 1 again finds nothing to migrate and keeps the data.
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

    const next = await LocalStore.open({ ...options(env), definition: v2 });
    const docs = await next.write((tx) => tx.allModels());
    expect(docs.length).toBe(249);
    expect(docs.find((d) => d.id === 'a007')).toBeUndefined();
    expect(docs.find((d) => d.id === 'a123')?.sort_key).toBe('v2 machine a123');
    expect(docs.every((d) => d.sort_key.startsWith('v2 '))).toBe(true);
    await next.wipe();
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
    const table = () => rawDocsTable(env, dexieDatabaseName(store.name, 1, 'models'));
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
});
