import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { modelKey } from '../store/docs';
import type { IndexedDbEnv } from '../store/indexeddb';
import { LocalStore, modelsDatabaseName } from '../store/store';
import { syncedDoc } from '../testing/model-docs';
import { ModelReader, type StoredDoc } from './model-reader';

/*
 * The list reads straight from IndexedDB: windows of a list in order, page after page from a
 * position, over indexes that end before the key (store/lean-models.ts). Many models share a
 * sort key here, so a position often falls inside a run of equal sort keys.
 */
const USER = 'user-1';
const ACCOUNT = 'acct-1';

const open: { close(): unknown }[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

async function storeWith(names: readonly string[], removed: readonly number[]) {
  const env: IndexedDbEnv = { indexedDB: new IDBFactory(), IDBKeyRange };
  const store = await LocalStore.open({
    userId: USER,
    accountId: ACCOUNT,
    env,
    multiInstance: false,
  });
  open.push(store);
  const ids = names.map((_, i) => `m${String(i).padStart(3, '0')}`);
  await store.commit(
    names.map((name, i) => ({ kind: 'put-model', doc: syncedDoc('asset', ids[i] ?? '', name, 1) })),
  );
  await store.commit(
    removed.map((i) => ({ kind: 'remove-model', key: modelKey('asset', ids[i] ?? '') })),
  );
  const reader = await ModelReader.open(env, modelsDatabaseName(USER, ACCOUNT));
  if (reader === null) throw new Error('no models database');
  open.push(reader);
  return reader;
}

const position = (d: StoredDoc): [string, string] => [d.sort_key, d.key];

describe('the model reader', () => {
  it('pages through a list from each position, across runs of equal sort keys, without removed models', async () => {
    // 60 models on 4 names (15 each: long runs of one sort key), 6 of them removed.
    const names = Array.from(
      { length: 60 },
      (_, i) => ['Pump', 'press', 'Press', 'Valve'][i % 4] ?? '',
    );
    const removed = [0, 5, 17, 18, 33, 59];
    const reader = await storeWith(names, removed);
    const range = { index: 'type', prefix: 'asset' } as const;

    const all = await reader.range(range, 1_000);
    expect(all.length).toBe(54);
    expect(await reader.count(range)).toBe(54);
    // List order: sort key, then key.
    const expected = [...all].sort((a, b) =>
      a.sort_key === b.sort_key ? (a.key < b.key ? -1 : 1) : a.sort_key < b.sort_key ? -1 : 1,
    );
    expect(all.map((d) => d.key)).toEqual(expected.map((d) => d.key));
    expect(all.some((d) => removed.includes(Number(d.id.slice(1))))).toBe(false);

    // Pages of every size from every position give the rest of the list in order.
    for (const size of [1, 4, 7, 20]) {
      for (let at = 0; at < all.length; at++) {
        const from = all[at] as StoredDoc;
        const page = await reader.range(range, size, position(from));
        expect(page.map((d) => d.key)).toEqual(all.slice(at + 1, at + 1 + size).map((d) => d.key));
      }
    }
    // A position that is no model's (a removed one): the list after where it would be.
    const gone = `asset:m017`;
    const page = await reader.range(range, 3, ['press', gone]);
    const after = all.filter(
      (d) => d.sort_key > 'press' || (d.sort_key === 'press' && d.key > gone),
    );
    expect(page.map((d) => d.key)).toEqual(after.slice(0, 3).map((d) => d.key));
  });
});
