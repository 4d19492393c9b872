import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { sortKeyOf } from '../apply/keys';
import { modelKey, type ModelDoc } from './docs';
import type { IndexedDbEnv } from './indexeddb';
import { modelsSchemaV0, STORE_DEFINITION, type StoreDefinition } from './schemas';
import { LocalStore } from './store';

/*
 * The migration path, shown working: a store written with version 0 of `models`, opened by a
 * build whose `models` schema is version 1 with a strategy. The strategy here is the kind a real
 * one would be: the sort-key rule changed, so every doc's sort_key is computed again.
 */
const v1: StoreDefinition = {
  ...STORE_DEFINITION,
  models: {
    schema: { ...modelsSchemaV0, version: 1 },
    migrationStrategies: {
      1: (doc: ModelDoc): ModelDoc => ({
        ...doc,
        sort_key: `v1 ${sortKeyOf(doc.type, doc.attributes ?? doc.server ?? {})}`,
      }),
    },
  },
};

function doc(id: string, name: string): ModelDoc {
  return {
    key: modelKey('asset', id),
    type: 'asset',
    id,
    parent_key: 'account:acct-1',
    sort_key: 'old',
    last_seq: 1,
    server: { name },
    attributes: { name },
  };
}

async function names(env: IndexedDbEnv) {
  return (await env.indexedDB.databases()).map((d) => d.name ?? '').sort();
}

describe('store schema migration', () => {
  it('migrates version 0 documents to version 1 and deletes the old databases', async () => {
    const env: IndexedDbEnv = { indexedDB: new IDBFactory(), IDBKeyRange };
    const options = { userId: 'u1', accountId: 'acct-1', env, multiInstance: false };
    const old = await LocalStore.open(options);
    await old.commit([{ kind: 'put-model', doc: doc('a1', 'Press') }], { last_seq: 1 });
    await old.commit([{ kind: 'put-model', doc: doc('a2', 'Lathe') }]);
    await old.close();

    const store = await LocalStore.open({ ...options, definition: v1 });
    const docs = await store.write((tx) => tx.allModels());
    expect(docs.map((d) => [d.id, d.sort_key]).sort()).toEqual([
      ['a1', 'v1 press'],
      ['a2', 'v1 lathe'],
    ]);
    // Other collections (still version 0) kept their data.
    expect((await store.meta()).last_seq).toBe(1);
    // RxDB leaves the cleared version-0 database and its migration-state database behind.
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
    const again = await LocalStore.open({ ...options, definition: v1 });
    expect((await again.write((tx) => tx.allModels())).length).toBe(2);
    expect((await again.wipe()).length).toBe(4);
  });
});
