import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import type { QueryResult } from '../api';
import { MemoryLogger } from '../log';
import type { ModelDoc } from '../store/docs';
import { LocalStore, modelsDatabaseName } from '../store/store';
import { Replica } from '../sync/replica';
import { until } from '../testing/sync-fixture';
import { descending, FacetCounts, orderOf } from './list-options';
import { QueryHub, rxdbChanges } from './query-hub';

/*
 * Issue 16's list options: a tag filter, a column's order (both directions) and the tags to
 * choose from, on the live views of the query hub.
 */

const USER = 'user-1';
const ACCOUNT = 'acct-1';

const open: { close(): unknown }[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

function doc(key: string, attributes: Record<string, unknown>): ModelDoc {
  const name = typeof attributes.name === 'string' ? attributes.name : '';
  return { key, type: 'asset', attributes, sort_key: name.toLowerCase() } as unknown as ModelDoc;
}

describe('list orders', () => {
  it('descending texts come in exactly the reverse order, longer texts before their beginnings', () => {
    const texts = ['', 'a', 'ab', 'abc', 'b', 'ba', 'z', '\u00e4', 'a b', 'a\u0000'];
    const asc = [...texts].sort();
    const desc = [...texts].sort((x, y) => {
      const dx = descending(x);
      const dy = descending(y);
      return dx < dy ? -1 : dx > dy ? 1 : 0;
    });
    expect(desc).toEqual([...asc].reverse());
  });

  it('sorts by an attribute, equal values by name, either way', () => {
    const docs = [
      doc('asset:1', { name: 'Press', status: 'ok' }),
      doc('asset:2', { name: 'Drill', status: 'alarm' }),
      doc('asset:3', { name: 'Belt', status: 'ok' }),
      doc('asset:4', { name: 'Arm', status: 'warning' }),
    ];
    const sorted = (direction: 'asc' | 'desc') => {
      const order = orderOf({ field: 'status', direction });
      return [...docs]
        .sort((a, b) => (order(a) < order(b) ? -1 : 1))
        .map((d) => String(d.attributes?.name));
    };
    expect(sorted('asc')).toEqual(['Drill', 'Belt', 'Press', 'Arm']);
    expect(sorted('desc')).toEqual(['Arm', 'Belt', 'Press', 'Drill']);
  });

  it('counts the values of a list attribute and takes back exactly what a model gave', () => {
    const facet = new FacetCounts('tags');
    facet.set('asset:1', doc('asset:1', { tags: ['line-1', 'paint', 'line-1'] }));
    facet.set('asset:2', doc('asset:2', { tags: ['Line-2', 'paint'] }));
    expect(facet.values()).toEqual([
      { value: 'line-1', count: 1 },
      { value: 'Line-2', count: 1 },
      { value: 'paint', count: 2 },
    ]);
    const before = facet.version;
    facet.set('asset:1', doc('asset:1', { tags: ['paint', 'line-1'] }));
    expect(facet.version).toBe(before + 1);
    facet.set('asset:2', doc('asset:2', { tags: [] }));
    facet.delete('asset:3');
    expect(facet.values()).toEqual([
      { value: 'line-1', count: 1 },
      { value: 'paint', count: 1 },
    ]);
  });
});

describe('live queries with list options', () => {
  it('a tag filter in a column order with the tags to choose from, following every change', async () => {
    const env = { indexedDB: new IDBFactory(), IDBKeyRange };
    const hub = new QueryHub({
      env,
      databaseName: modelsDatabaseName(USER, ACCOUNT),
      log: new MemoryLogger(),
    });
    const store = await LocalStore.open({
      userId: USER,
      accountId: ACCOUNT,
      env,
      multiInstance: false,
      onCollections: (db) => void hub.attach(rxdbChanges(db.models)),
    });
    open.push(store, hub);
    hub.setLoading(false);
    const replica = new Replica(store);
    const asset = (id: string, name: string, status: string, tags: string[]) => ({
      type: 'asset',
      id,
      parent_type: 'account',
      parent_id: ACCOUNT,
      attributes: { name, status, tags },
      last_seq: 1,
    });
    await replica.putModels([
      asset('a1', 'Press', 'ok', ['hall-1']),
      asset('a2', 'Drill', 'alarm', ['hall-1', 'paint']),
      asset('a3', 'Belt', 'ok', ['hall-2']),
      asset('a4', 'Arm', 'warning', ['hall-1']),
    ]);

    let latest: QueryResult<'asset'> | undefined;
    hub.subscribe(
      {
        type: 'asset',
        contains: { field: 'tags', value: 'hall-1' },
        sort: { field: 'status', direction: 'desc' },
        facet: 'tags',
      },
      (r) => (latest = r),
    );
    const names = () => latest?.items.map((m) => m.attributes.name) ?? [];
    await until('the filtered list', () => latest?.total === 3);
    expect(names()).toEqual(['Arm', 'Press', 'Drill']);
    // The facet is over the models the query matches.
    expect(latest?.facet).toEqual([
      { value: 'hall-1', count: 3 },
      { value: 'paint', count: 1 },
    ]);

    // A local write that tags another asset: it joins in its place, the counts follow.
    await replica.mutate({
      kind: 'update',
      type: 'asset',
      collection: 'assets',
      id: 'a3',
      attributes: { tags: ['hall-2', 'hall-1'] },
    });
    await until('the tagged asset', () => latest?.total === 4);
    expect(names()).toEqual(['Arm', 'Belt', 'Press', 'Drill']);
    expect(latest?.facet).toContainEqual({ value: 'hall-2', count: 1 });

    // A status change moves a row; a tag taken away takes it out.
    await replica.mutate({
      kind: 'update',
      type: 'asset',
      collection: 'assets',
      id: 'a2',
      attributes: { status: 'warning', tags: ['paint'] },
    });
    await until('the untagged asset', () => latest?.total === 3);
    expect(names()).toEqual(['Arm', 'Belt', 'Press']);
    expect(latest?.facet?.map((f) => f.value)).toEqual(['hall-1', 'hall-2']);

    // The plain list is not narrowed by any of it.
    let all: QueryResult<'asset'> | undefined;
    hub.subscribe({ type: 'asset', sort: { field: 'name', direction: 'desc' } }, (r) => (all = r));
    await until('the whole list', () => all?.total === 4);
    expect(all?.items.map((m) => m.attributes.name)).toEqual(['Press', 'Drill', 'Belt', 'Arm']);
    expect(all?.facet).toBeUndefined();
  });
});
