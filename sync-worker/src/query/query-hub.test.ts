import fc from 'fast-check';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import type { SyncedModel } from '@plant/shared-schema';
import type { ModelQuery, QueryResult } from '../api';
import { MemoryLogger } from '../log';
import { toLocalModel } from '../queries';
import type { ModelDoc } from '../store/docs';
import type { IndexedDbEnv } from '../store/indexeddb';
import { LocalStore, modelsDatabaseName } from '../store/store';
import { Replica } from '../sync/replica';
import { until } from '../testing/sync-fixture';
import { ModelReader } from './model-reader';
import { QueryHub, rxdbChanges } from './query-hub';

/*
 * Live queries against a real store (RxDB on fake-indexeddb): after any sequence of snapshot
 * pages, server updates, local writes, rejections and deletes, every live window equals what a
 * fresh query over the whole store answers. The seed is printed on failure; replay with
 * FC_SEED=<seed>.
 */

const USER = 'user-1';
const ACCOUNT = 'acct-1';
const NAMES = ['alpha', 'Alpha', 'beta', 'b', 'Beta', 'gamma', 'delta', 'omega', 'zeta', ''];
const IDS = Array.from({ length: 14 }, (_, i) => `a${String(i).padStart(2, '0')}`);

const QUERIES: readonly ModelQuery[] = [
  { type: 'asset', limit: 5 },
  { type: 'asset', offset: 3, limit: 4 },
  { type: 'asset', search: { text: 'B', fields: ['name'] }, limit: 10 },
  { type: 'asset', parent: { type: 'account', id: ACCOUNT }, limit: 1000 },
  { type: 'gateway', limit: 10 },
];

type Op =
  | { readonly op: 'page'; readonly models: readonly (readonly [number, number])[] }
  | { readonly op: 'update'; readonly id: number; readonly name: number; readonly whole: boolean }
  | { readonly op: 'serverDelete'; readonly id: number }
  | { readonly op: 'write'; readonly id: number; readonly name: number }
  | { readonly op: 'create'; readonly id: number; readonly name: number }
  | { readonly op: 'localDelete'; readonly id: number }
  | { readonly op: 'reject' };

const id = fc.nat(IDS.length - 1);
const name = fc.nat(NAMES.length - 1);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    op: fc.constant('page' as const),
    models: fc.array(fc.tuple(id, name), { minLength: 1, maxLength: 8 }),
  }),
  fc.record({ op: fc.constant('update' as const), id, name, whole: fc.boolean() }),
  fc.record({ op: fc.constant('serverDelete' as const), id }),
  fc.record({ op: fc.constant('write' as const), id, name }),
  fc.record({ op: fc.constant('create' as const), id, name }),
  fc.record({ op: fc.constant('localDelete' as const), id }),
  fc.record({ op: fc.constant('reject' as const) }),
);

const open: { close(): unknown }[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

function freshEnv(): IndexedDbEnv {
  return { indexedDB: new IDBFactory(), IDBKeyRange };
}

async function openWithHub(env: IndexedDbEnv): Promise<{ store: LocalStore; hub: QueryHub }> {
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
  return { store, hub };
}

/** What a query answers when computed over every doc of the store, from scratch. */
async function fresh(store: LocalStore, query: ModelQuery): Promise<QueryResult> {
  const docs = (await store.db.models.find().exec()).map((d) => d.toJSON() as ModelDoc);
  const parentKey =
    query.parent === undefined ? undefined : `${query.parent.type}:${query.parent.id}`;
  const text = query.search?.text.toLowerCase() ?? '';
  const matching = docs
    .filter(
      (d) =>
        d.type === query.type &&
        d.attributes !== null &&
        (parentKey === undefined || d.parent_key === parentKey) &&
        (text === '' ||
          (query.search?.fields ?? []).some((f) => {
            const value = d.attributes?.[f];
            return typeof value === 'string' && value.toLowerCase().includes(text);
          })),
    )
    .sort((a, b) =>
      a.sort_key < b.sort_key ? -1 : a.sort_key > b.sort_key ? 1 : a.key < b.key ? -1 : 1,
    );
  const offset = query.offset ?? 0;
  const items = matching
    .slice(offset, offset + (query.limit ?? 100))
    .flatMap((d) => toLocalModel(d) ?? []);
  return { total: matching.length, offset, items, complete: true };
}

function watch(hub: QueryHub, query: ModelQuery): { latest: () => QueryResult | undefined } {
  let latest: QueryResult | undefined;
  hub.subscribe(query, (r) => (latest = r));
  return { latest: () => latest };
}

async function settled(
  store: LocalStore,
  watches: readonly { query: ModelQuery; latest: () => QueryResult | undefined }[],
): Promise<void> {
  for (const w of watches) {
    const expected = await fresh(store, w.query);
    const same = () => JSON.stringify(w.latest()) === JSON.stringify(expected);
    await until(`the live query ${JSON.stringify(w.query)}`, same, 3000).catch(() => undefined);
    expect(w.latest(), JSON.stringify(w.query)).toEqual(expected);
  }
}

async function run(store: LocalStore, ops: readonly Op[], seq: { n: number }): Promise<void> {
  const replica = new Replica(store);
  for (const op of ops) {
    switch (op.op) {
      case 'page': {
        const models: SyncedModel[] = op.models.map(([i, n]) => ({
          type: 'asset',
          id: IDS[i] as string,
          parent_type: 'account',
          parent_id: ACCOUNT,
          attributes: { name: NAMES[n] },
          last_seq: seq.n,
        }));
        await replica.putModels(models);
        break;
      }
      case 'update': {
        seq.n += 1;
        await replica.receive([
          {
            action: op.whole ? 'updated' : 'attributes_updated',
            type: 'asset',
            id: IDS[op.id] as string,
            muid: `m${seq.n}`,
            ts: seq.n * 10,
            seq: seq.n,
            attributes: { name: NAMES[op.name] },
          },
        ]);
        break;
      }
      case 'serverDelete': {
        seq.n += 1;
        const target = IDS[op.id] as string;
        await replica.receive([
          {
            action: 'item_deleted',
            type: 'asset',
            id: target,
            muid: `m${seq.n}`,
            ts: seq.n * 10,
            seq: seq.n,
          },
        ]);
        break;
      }
      case 'write':
      case 'create':
      case 'localDelete': {
        const kind = op.op === 'write' ? 'update' : op.op === 'create' ? 'create' : 'delete';
        const attributes = op.op === 'localDelete' ? {} : { name: NAMES[op.name] };
        const target = op.op === 'create' ? `n${seq.n}-${op.id}` : (IDS[op.id] as string);
        await replica.mutate({ kind, type: 'asset', collection: 'assets', id: target, attributes });
        break;
      }
      case 'reject': {
        const oldest = (await replica.outbox())[0];
        if (oldest !== undefined) await replica.reject(oldest, 'Refused.', false);
        break;
      }
    }
  }
}

describe('live queries (QueryHub)', () => {
  it('equal a fresh query after any sequence of pages, updates, writes and deletes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(opArb, { minLength: 1, maxLength: 25 }),
        fc.array(opArb, { minLength: 0, maxLength: 15 }),
        async (before, after) => {
          const env = freshEnv();
          const { store, hub } = await openWithHub(env);
          // Watched from the start (a bootstrap into an empty store) …
          const early = QUERIES.map((query) => ({ query, ...watch(hub, query) }));
          const seq = { n: 0 };
          await run(store, before, seq);
          await settled(store, early);
          // … and from the middle (a view read from a store that has docs).
          const late = QUERIES.map((query) => ({ query, ...watch(hub, { ...query }) }));
          await run(store, after, seq);
          await settled(store, [...early, ...late]);
          // A hub that reads the same store from scratch answers the same.
          const again = new QueryHub({
            env,
            databaseName: modelsDatabaseName(USER, ACCOUNT),
            log: new MemoryLogger(),
          });
          open.push(again);
          await again.attach(rxdbChanges(store.db.models));
          again.setLoading(false);
          await settled(
            store,
            QUERIES.map((query) => ({ query, ...watch(again, query) })),
          );
          for (const o of open.splice(0).reverse()) await o.close();
        },
      ),
      {
        numRuns: 25,
        ...(process.env.FC_SEED === undefined ? {} : { seed: Number(process.env.FC_SEED) }),
      },
    );
  }, 120_000);

  it('answers the first window from disk before the store is open, then the exact total', async () => {
    const env = freshEnv();
    const first = await openWithHub(env);
    const replica = new Replica(first.store);
    await replica.putModels(
      Array.from({ length: 300 }, (_, i) => ({
        type: 'asset',
        id: `x${String(i).padStart(4, '0')}`,
        parent_type: 'account',
        parent_id: ACCOUNT,
        attributes: { name: `Asset ${String(299 - i).padStart(4, '0')}` },
        last_seq: 1,
      })),
    );
    // Ten pending deletes at the top of the list: more than a read ahead asks for beyond its rows.
    for (let n = 290; n < 300; n++) {
      await replica.mutate({
        kind: 'delete',
        type: 'asset',
        collection: 'assets',
        id: `x${String(n).padStart(4, '0')}`,
        attributes: {},
      });
    }
    for (const o of open.splice(0).reverse()) await o.close();

    // A new session: the hub reads before any store is opened.
    const hub = new QueryHub({
      env,
      databaseName: modelsDatabaseName(USER, ACCOUNT),
      log: new MemoryLogger(),
    });
    open.push(hub);
    const results: QueryResult<'asset'>[] = [];
    hub.subscribe({ type: 'asset', limit: 3 }, (r) => results.push(r));
    await until('the first window', () => results.length > 0);
    const ahead = results[0];
    expect(ahead?.complete).toBe(false);
    // Assets 0000 to 0009 are x0299 to x0290, deleted here: the window skips them.
    expect(ahead?.items.map((m) => m.attributes.name)).toEqual([
      'Asset 0010',
      'Asset 0011',
      'Asset 0012',
    ]);
    const store = await LocalStore.open({
      userId: USER,
      accountId: ACCOUNT,
      env,
      multiInstance: false,
      onCollections: (db) => void hub.attach(rxdbChanges(db.models)),
    });
    open.push(store);
    hub.setLoading(false);
    await until('the exact answer', () => results[results.length - 1]?.complete === true);
    expect(results[results.length - 1]?.total).toBe(290);
    expect(results[results.length - 1]?.items).toEqual(ahead?.items);
  });

  it('never makes the models database: a reader of a missing one is null and leaves nothing', async () => {
    const env = freshEnv();
    const name = modelsDatabaseName(USER, ACCOUNT);
    expect(await ModelReader.open(env, name)).toBeNull();
    expect((await env.indexedDB.databases()).map((d) => d.name)).not.toContain(name);
    // RxDB then makes it whole, and the hub made before reads it.
    const { store, hub } = await openWithHub(env);
    await new Replica(store).putModels([
      {
        type: 'asset',
        id: 'z1',
        parent_type: 'account',
        parent_id: ACCOUNT,
        attributes: { name: 'Z' },
        last_seq: 1,
      },
    ]);
    const results: QueryResult<'asset'>[] = [];
    hub.subscribe({ type: 'asset' }, (r) => results.push(r));
    await until('the asset', () => results.at(-1)?.items.length === 1);
  });
});
