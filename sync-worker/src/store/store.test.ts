import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { addRxPlugin } from 'rxdb';
import { disableWarnings, RxDBDevModePlugin } from 'rxdb/plugins/dev-mode';
import { wrappedValidateAjvStorage } from 'rxdb/plugins/validate-ajv';
import { afterEach, describe, expect, it } from 'vitest';
import { applyUpdates, docKeyOf } from '../apply/apply-update';
import type { LocalWrite } from '../apply/writes';
import type { ModelUpdate } from '@plant/shared-schema';
import { META_ID, type ModelDoc, type OutboxDoc } from './docs';
import type { IndexedDbEnv } from './indexeddb';
import { LocalStore, wipeStore } from './store';
import { syncedDoc } from '../testing/model-docs';

// Dev-mode checks schemas and names; the validator checks every document written.
disableWarnings();
addRxPlugin(RxDBDevModePlugin);

const open: LocalStore[] = [];

function freshEnv(): IndexedDbEnv {
  return { indexedDB: new IDBFactory(), IDBKeyRange };
}

async function openStore(env: IndexedDbEnv, userId = 'user-1', accountId = 'acct-1') {
  const store = await LocalStore.open({
    userId,
    accountId,
    env,
    multiInstance: false,
    wrapStorage: (storage) => wrappedValidateAjvStorage({ storage }),
  });
  open.push(store);
  return store;
}

async function databaseNames(env: IndexedDbEnv): Promise<string[]> {
  return (await env.indexedDB.databases()).map((d) => d.name ?? '').sort();
}

const asset = (id: string, name: string, seq: number): ModelDoc =>
  syncedDoc('asset', id, name, seq);

function mutation(id: string, key: string, at: number): OutboxDoc {
  const [type = '', modelId = ''] = key.split(':');
  return {
    mutation_id: id,
    created_at: at,
    account_id: 'acct-1',
    collection_name: 'assets',
    kind: 'update',
    type,
    id: modelId,
    key,
    attributes: { name: `local ${id}` },
    state: 'pending',
    attempts: 0,
    last_error: null,
    through_seq: 0,
  };
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

describe('LocalStore', () => {
  it('starts with a meta document at seq 0 and persists writes across a reopen', async () => {
    const env = freshEnv();
    const store = await openStore(env);
    expect(await store.meta()).toMatchObject({ id: META_ID, last_seq: 0, bootstrap: 'none' });
    await store.commit([{ kind: 'put-model', doc: asset('a1', 'Press', 7) }], {
      last_seq: 7,
      last_ts: 1007,
    });
    await store.close();

    const again = await openStore(env);
    const docs = await again.write((tx) => tx.models(['asset:a1', 'asset:nope']));
    expect(docs.get('asset:a1')).toEqual(asset('a1', 'Press', 7));
    expect(docs.has('asset:nope')).toBe(false);
    expect(await again.meta()).toMatchObject({ last_seq: 7, last_ts: 1007 });
  });

  it('runs queued writes one at a time, in order, even when a task fails', async () => {
    const store = await openStore(freshEnv());
    const events: string[] = [];
    const task = (name: string, fail = false) =>
      store.write(async (tx) => {
        events.push(`start ${name}`);
        const meta = await tx.meta();
        await new Promise((r) => setTimeout(r, 5));
        if (fail) throw new Error(name);
        await tx.commit([], { last_seq: meta.last_seq + 1 });
        events.push(`end ${name}`);
      });
    const results = await Promise.allSettled([task('a'), task('b', true), task('c')]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(events).toEqual(['start a', 'end a', 'start b', 'start c', 'end c']);
    // Each task read the seq the previous one wrote: no lost update.
    expect((await store.meta()).last_seq).toBe(2);
  });

  it('commits outbox entries and removes, and reads a key’s entries oldest first', async () => {
    const store = await openStore(freshEnv());
    const writes: LocalWrite[] = [
      { kind: 'put-model', doc: asset('a1', 'Press', 3) },
      { kind: 'put-mutation', mutation: mutation('m2', 'asset:a1', 20) },
      { kind: 'put-mutation', mutation: mutation('m1', 'asset:a1', 10) },
      { kind: 'put-mutation', mutation: mutation('m3', 'asset:a2', 30) },
    ];
    await store.commit(writes);
    const byKey = await store.write((tx) => tx.mutationsFor(['asset:a1', 'asset:a9']));
    expect(byKey.get('asset:a1')?.map((m) => m.mutation_id)).toEqual(['m1', 'm2']);
    expect(byKey.get('asset:a9')).toEqual([]);

    await store.commit([
      { kind: 'remove-mutation', mutationId: 'm1' },
      { kind: 'remove-model', key: 'asset:a1' },
      { kind: 'remove-model', key: 'asset:never-there' },
    ]);
    const outbox = await store.write((tx) => tx.outbox());
    expect(outbox.map((m) => m.mutation_id)).toEqual(['m2', 'm3']);
    expect((await store.write((tx) => tx.models(['asset:a1']))).size).toBe(0);
  });

  it('applies a run of updates and stores the cursor with it, in one queued write', async () => {
    const store = await openStore(freshEnv());
    const msg = (seq: number, fields: Omit<ModelUpdate, 'seq' | 'ts' | 'muid'>): ModelUpdate => ({
      ...fields,
      seq,
      ts: 2000 + seq,
      muid: `mu-${seq}`,
    });
    const run = [
      msg(1, { action: 'updated', type: 'asset', id: 'a1', attributes: { name: 'Press' } }),
      msg(2, {
        action: 'child_created',
        type: 'account',
        id: 'acct-1',
        child_type: 'asset',
        child_id: 'a1',
      }),
      msg(3, {
        action: 'attributes_updated',
        type: 'asset',
        id: 'a1',
        attributes: { name: 'Big press' },
      }),
    ];
    await store.write(async (tx) => {
      const meta = await tx.meta();
      const keys = run.flatMap((m) => docKeyOf(m) ?? []);
      const result = applyUpdates(
        { accountId: 'acct-1' },
        { lastSeq: meta.last_seq, lastTs: meta.last_ts },
        run,
        await tx.models(keys),
        await tx.mutationsFor(keys),
      );
      await tx.commit(result.writes, {
        last_seq: result.cursor.lastSeq,
        last_ts: result.cursor.lastTs,
      });
    });
    const doc = (await store.write((tx) => tx.models(['asset:a1']))).get('asset:a1');
    expect(doc).toMatchObject({
      last_seq: 3,
      sort_key: 'big press',
      attributes: { name: 'Big press' },
    });
    expect(await store.meta()).toMatchObject({ last_seq: 3, last_ts: 2003 });
  });

  it('keeps users and accounts apart: one database per user and account', async () => {
    const env = freshEnv();
    const a = await openStore(env, 'user-1', 'acct-1');
    const b = await openStore(env, 'user-1', 'acct-2');
    const c = await openStore(env, 'user-2', 'acct-1');
    await a.commit([{ kind: 'put-model', doc: asset('a1', 'Only in A', 1) }]);
    for (const other of [b, c]) {
      expect((await other.write((tx) => tx.allModels())).length).toBe(0);
    }
    expect(new Set([a.name, b.name, c.name]).size).toBe(3);
  });

  it('shows an outbox entry on its doc after a crash between the outbox and models writes', async () => {
    const env = freshEnv();
    const store = await openStore(env);
    await store.commit([{ kind: 'put-model', doc: asset('a1', 'Press', 3) }]);
    // The crash: the mutation reached the outbox, the doc was never recomputed.
    await store.commit([{ kind: 'put-mutation', mutation: mutation('m1', 'asset:a1', 10) }]);
    await store.close();
    const again = await openStore(env);
    const doc = (await again.write((tx) => tx.models(['asset:a1']))).get('asset:a1');
    expect(doc?.attributes).toEqual({ name: 'local m1' });
    expect(doc?.server).toEqual({ name: 'Press' });
  });

  it('wipe deletes every IndexedDB database of the store and no other', async () => {
    const env = freshEnv();
    const keep = await openStore(env, 'user-1', 'acct-2');
    const store = await openStore(env);
    await store.commit([{ kind: 'put-model', doc: asset('a1', 'Press', 3) }]);
    const before = await databaseNames(env);
    const mine = before.filter((n) => n.startsWith(`rxdb-dexie-${store.name}--`));
    expect(mine.length).toBe(4); // models, outbox, meta, RxDB's internal store

    const deleted = await store.wipe();
    expect(deleted.sort()).toEqual(mine);
    const after = await databaseNames(env);
    expect(after.filter((n) => n.startsWith(`rxdb-dexie-${store.name}--`))).toEqual([]);
    expect(after.some((n) => n.startsWith(`rxdb-dexie-${keep.name}--`))).toBe(true);
    await expect(store.commit([])).rejects.toThrow('closed');

    // A new store of the same name starts empty.
    const fresh = await openStore(env);
    expect((await fresh.write((tx) => tx.allModels())).length).toBe(0);
    expect((await fresh.meta()).last_seq).toBe(0);
  });

  it('wipeStore deletes a closed store without opening it', async () => {
    const env = freshEnv();
    const store = await openStore(env);
    await store.close();
    expect((await wipeStore('user-1', 'acct-1', env)).length).toBe(4);
    expect(await databaseNames(env)).toEqual([]);
  });
});
