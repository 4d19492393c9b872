import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { sortKeyOf } from '../apply/keys';
import { dexieDatabaseName } from './database-name';
import { META_ID, modelKey, type ModelDoc } from './docs';
import type { IndexedDbEnv } from './indexeddb';
import { INDEX_MAX, INDEX_MIN, type RxQueryPlan } from 'rxdb';
import {
  isLeanModelsDatabase,
  leanDocsSpec,
  shortPlan,
  withShortIndexes,
  withoutLwtIndexes,
} from './lean-models';
import {
  modelsSchemaV0,
  modelsSchemaV1,
  modelsSchemaV2,
  modelsSchemaV3,
  STORE_DEFINITION,
  STORE_VERSION,
  type StoreDefinition,
} from './schemas';
import { LocalStore } from './store';
import { syncedDoc } from '../testing/model-docs';

/*
 * The migration path, shown working on the real versions: a store written by a build with
 * version 0 of `models` (RxDB's full Dexie layout), version 1 (no `_meta.lwt` indexes) or
 * version 2 (no `[_deleted+key]` either) opened by the current build (version 3, its indexes
 * ending before the key: lean-models.ts), and a later version migrating from the current layout
 * with a strategy of the kind a real one would be (the sort-key rule changed, so every doc's
 * sort_key is computed again).
 */
const v0: StoreDefinition = {
  ...STORE_DEFINITION,
  models: { schema: modelsSchemaV0, migrationStrategies: {} },
};

const v1: StoreDefinition = {
  ...STORE_DEFINITION,
  models: { schema: modelsSchemaV1, migrationStrategies: { 1: (doc: ModelDoc) => doc } },
};

const v2: StoreDefinition = {
  ...STORE_DEFINITION,
  models: {
    schema: modelsSchemaV2,
    migrationStrategies: { 1: (doc: ModelDoc) => doc, 2: (doc: ModelDoc) => doc },
  },
};

/** The current version of `models`. */
const CURRENT = STORE_DEFINITION.models.schema.version;

/** A version after the current one. */
const NEXT = CURRENT + 1;

const next: StoreDefinition = {
  ...STORE_DEFINITION,
  models: {
    schema: { ...modelsSchemaV3, version: NEXT },
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
      full.indexes
        .filter((i) => i !== '_meta.lwt' && i !== '[_meta.lwt+key]' && i !== '[_deleted+key]')
        .map(withShortIndexes)
        .sort(),
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

  it('copies version 1 models (no lwt indexes) into the current database, without [_deleted+key] and with short indexes', async () => {
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
    expect(after.indexes).toEqual(
      before.indexes
        .filter((i) => i !== '[_deleted+key]')
        .map(withShortIndexes)
        .sort(),
    );
    expect((await names(env)).filter((n) => n.includes('--models'))).toEqual([
      `rxdb-dexie-${store.name}--${CURRENT}--models`,
    ]);
    await store.wipe();
  });

  it('copies version 2 models (indexes ending with the key) into short indexes; lists read the same', async () => {
    const env: IndexedDbEnv = { indexedDB: new IDBFactory(), IDBKeyRange };
    const old = await LocalStore.open({ ...options(env), definition: v2 });
    const ids = Array.from({ length: 250 }, (_, i) => `a${String(i).padStart(3, '0')}`);
    await old.commit(
      ids.map((id) => ({ kind: 'put-model', doc: doc(id, `Machine ${id}`) })),
      { last_seq: 9 },
    );
    await old.commit([{ kind: 'remove-model', key: modelKey('asset', 'a007') }]);
    await (await old.db.meta.findOne(META_ID).exec())?.incrementalPatch({ store_version: 2 });
    const before = await rawDocsTable(env, dexieDatabaseName(old.name, 2, 'models'));
    expect(before.indexes).toEqual([
      '[_deleted+last_seq+key]',
      '[_deleted+parent_key+sort_key+key]',
      '[_deleted+type+sort_key+key]',
    ]);
    await old.close();

    const store = await LocalStore.open(options(env));
    const after = await rawDocsTable(env, dexieDatabaseName(store.name, CURRENT, 'models'));
    expect(after.indexes).toEqual([
      '[_deleted+last_seq]',
      '[_deleted+parent_key+sort_key]',
      '[_deleted+type+sort_key]',
    ]);
    // The removed one as removed (cleanup purges it later).
    expect(after.docs.filter((d) => d._deleted === '0').length).toBe(249);
    expect(after.docs.filter((d) => d._deleted === '1').map((d) => d.key)).toEqual([
      modelKey('asset', 'a007'),
    ]);
    const docs = await store.write((tx) => tx.allModels());
    expect(docs.length).toBe(249);
    expect(docs.find((d) => d.id === 'a007')).toBeUndefined();
    expect((await store.meta()).last_seq).toBe(9);
    expect((await store.meta()).store_version).toBe(STORE_VERSION);
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

  it("drops [_deleted+key] from version 2 on, the key at the indexes' end from 3, nothing at 0", () => {
    const full =
      'key, [_deleted+key], [_deleted+type+sort_key+key], [_deleted+last_seq+key], [_meta.lwt+key], _meta.lwt';
    expect(leanDocsSpec(full, 0)).toBe(full);
    expect(leanDocsSpec(full, 1)).toBe(
      'key, [_deleted+key], [_deleted+type+sort_key+key], [_deleted+last_seq+key]',
    );
    expect(leanDocsSpec(full, 2)).toBe(
      'key, [_deleted+type+sort_key+key], [_deleted+last_seq+key]',
    );
    expect(leanDocsSpec(full, 3)).toBe('key, [_deleted+type+sort_key], [_deleted+last_seq]');
  });

  it("answers RxDB's queries and counts on the short indexes as on the full ones", async () => {
    const env: IndexedDbEnv = { indexedDB: new IDBFactory(), IDBKeyRange };
    const store = await LocalStore.open(options(env));
    const names = ['Pump', 'press', 'Press', 'Valve', 'Pump'];
    const assets = names.map((name, i) => syncedDoc('asset', `a${i}`, name, 1));
    const streams = names.map((name, i) => ({
      ...syncedDoc('datastream', `s${i}`, `${name} speed`, 1),
      parent_key: modelKey('asset', `a${i % 2}`),
    }));
    await store.commit([...assets, ...streams].map((d) => ({ kind: 'put-model', doc: d })));
    await store.commit([{ kind: 'remove-model', key: modelKey('asset', 'a3') }]);
    const all = await store.write((tx) => tx.allModels());
    const keys = (docs: readonly { key: string }[]) => docs.map((d) => d.key);
    const inOrder = (docs: readonly ModelDoc[]) =>
      keys(
        [...docs].sort((a, b) =>
          a.sort_key === b.sort_key ? (a.key < b.key ? -1 : 1) : a.sort_key < b.sort_key ? -1 : 1,
        ),
      );
    const models = store.db.models;
    const byType = await models
      .find({ selector: { type: 'asset' }, sort: [{ sort_key: 'asc' }] })
      .exec();
    expect(keys(byType)).toEqual(inOrder(all.filter((d) => d.type === 'asset')));
    expect(byType.length).toBe(4);
    expect(await models.count({ selector: { type: 'asset' } }).exec()).toBe(4);
    const children = await models
      .find({ selector: { parent_key: modelKey('asset', 'a1') } })
      .exec();
    expect(keys(children).sort()).toEqual(
      keys(all.filter((d) => d.parent_key === modelKey('asset', 'a1'))).sort(),
    );
    const either = await models
      .find({
        selector: { parent_key: { $in: [modelKey('asset', 'a0'), modelKey('asset', 'a1')] } },
      })
      .exec();
    expect(either.length).toBe(5);
    // A bound on the key itself (RxDB plans it on an index that ends with the key).
    const above = await models
      .find({
        selector: { type: 'asset', sort_key: 'pump', key: { $gt: modelKey('asset', 'a0') } },
      })
      .exec();
    expect(keys(above)).toEqual([modelKey('asset', 'a4')]);
    // Counted too (RxDB counts such a plan by the index; here by the query, as exactly).
    expect(
      await models
        .count({
          selector: { type: 'asset', sort_key: 'pump', key: { $gte: modelKey('asset', 'a0') } },
        })
        .exec(),
    ).toBe(2);
    await store.wipe();
  });

  it("puts RxDB's query plans on the short indexes: exact where the key was filler, else the matcher picks", () => {
    const plan = (over: Partial<RxQueryPlan>): RxQueryPlan => ({
      index: ['_deleted', 'type', 'sort_key', 'key'],
      startKeys: [INDEX_MIN, 'asset', INDEX_MIN, INDEX_MIN],
      endKeys: [INDEX_MIN, 'asset', INDEX_MAX, INDEX_MAX],
      inclusiveStart: true,
      inclusiveEnd: true,
      sortSatisfiedByIndex: true,
      selectorSatisfiedByIndex: true,
      ...over,
    });
    // `type` only: the same range without the key.
    expect(shortPlan(plan({}))).toEqual({
      ...plan({}),
      index: ['_deleted', 'type', 'sort_key'],
      startKeys: [INDEX_MIN, 'asset', INDEX_MIN],
      endKeys: [INDEX_MIN, 'asset', INDEX_MAX],
    });
    // sort_key > 'm': RxDB fills the key with the top after an open start; still exact.
    const above = plan({
      startKeys: [INDEX_MIN, 'asset', 'm', INDEX_MAX],
      inclusiveStart: false,
    });
    expect(shortPlan(above)).toMatchObject({
      startKeys: [INDEX_MIN, 'asset', 'm'],
      inclusiveStart: false,
      selectorSatisfiedByIndex: true,
    });
    // A bound on the key itself: the range widens to its sort key, and the matcher decides.
    const onKey = plan({
      startKeys: [INDEX_MIN, 'asset', 'm', 'asset:a5'],
      endKeys: [INDEX_MIN, 'asset', 'm', INDEX_MAX],
      inclusiveStart: false,
    });
    expect(shortPlan(onKey)).toMatchObject({
      index: ['_deleted', 'type', 'sort_key'],
      startKeys: [INDEX_MIN, 'asset', 'm'],
      endKeys: [INDEX_MIN, 'asset', 'm'],
      inclusiveStart: true,
      inclusiveEnd: true,
      selectorSatisfiedByIndex: false,
    });
    // An index without the key at its end stays as it is.
    const other = plan({
      index: ['_deleted', 'last_seq'],
      startKeys: [INDEX_MIN, 0],
      endKeys: [INDEX_MIN, 9],
    });
    expect(shortPlan(other)).toBe(other);
  });
});
