/**
 * The benchmarks' own worker: the store and replica of sync-worker/ imported directly (this
 * code never enters the product's worker bundle), and raw Dexie, side by side in one worker.
 */
import * as Comlink from 'comlink';
import { Dexie, type Table } from 'dexie';
import {
  API_BASE,
  apiPaths,
  envelopeSchema,
  snapshotPageSchema,
  type ModelUpdate,
  type SyncedModel,
} from '@plant/shared-schema';
import type { ModelDoc } from '../../sync-worker/src/store/docs';
import { LocalStore } from '../../sync-worker/src/store/store';
import { Replica } from '../../sync-worker/src/sync/replica';
import { globalIndexedDb } from '../../sync-worker/src/store/indexeddb';
import { ValuesCache } from '../../sync-worker/src/values/cache';

export interface ApplyRun {
  /** Milliseconds to apply `count` updates that create models, in runs of `batch`. */
  readonly createMs: number;
  /** Milliseconds to apply `count` attributes_updated to those models. */
  readonly changeMs: number;
}

export interface BenchWorker {
  /** Replica.receive (apply layer + RxDB on Dexie, with the cursor in the same write). */
  applyOurs(count: number, batch: number): Promise<ApplyRun>;
  /** The same documents the store ended with, bulkPut into a plain Dexie table. */
  applyRaw(count: number, batch: number): Promise<ApplyRun>;
  /** Fetches every snapshot page and bulkPuts its models into a plain Dexie table. */
  bootstrapRaw(
    origin: string,
    token: string,
    pageSize: number,
  ): Promise<{ ms: number; models: number }>;
  /**
   * The worker bootstrap's steps timed apart, on the same pages: fetch and JSON.parse, the zod
   * parse of the envelope, and Replica.putModels (apply layer + RxDB) into an empty store.
   * The store is opened without multi-instance, so putMs leaves out RxDB's broadcast of every
   * event bulk to other tabs, which the worker pays (a quarter to a third more: sync-worker
   * CONTEXT, "Where the bootstrap's ratio … goes").
   */
  bootstrapParts(origin: string, token: string, pageSize: number): Promise<BootstrapParts>;
  /**
   * Writes `count` points per stream, one every `stepMs` from `from`, into the values cache
   * `dbName` (the real worker's, by name) as read from the server: its reads need no network.
   */
  fillValuesCache(
    dbName: string,
    streams: readonly string[],
    from: number,
    count: number,
    stepMs: number,
  ): Promise<number>;
  /**
   * Writes nothing to those streams of the values cache `dbName`, as another tab's worker's
   * write: the real worker's cache forgets them from its memory (sync-worker CONTEXT, "The
   * cache's memory"), so its next read of them is from IndexedDB.
   */
  touchValues(dbName: string, streams: readonly string[]): Promise<void>;
  /** The same points as one IndexedDB record each, in a plain Dexie table keyed [stream+ts]. */
  fillRawPoints(
    streams: readonly string[],
    from: number,
    count: number,
    stepMs: number,
  ): Promise<number>;
  /** Reads [from, to] of every stream back from that table: ms and points. */
  readRawPoints(
    streams: readonly string[],
    from: number,
    to: number,
  ): Promise<{ ms: number; points: number }>;
  /** Deletes that table's database. */
  dropRawPoints(): Promise<void>;
}

export interface BootstrapParts {
  readonly fetchMs: number;
  readonly zodMs: number;
  readonly putMs: number;
}

interface RawDb {
  readonly db: Dexie;
  readonly models: Table<ModelDoc, string>;
}

let databases = 0;

/** A plain Dexie database with the indexes the store's `models` collection has. */
function rawDatabase(): RawDb {
  databases += 1;
  const db = new Dexie(`bench-raw-${Date.now()}-${databases}`);
  db.version(1).stores({ models: 'key, [type+sort_key], [parent_key+sort_key], last_seq' });
  return { db, models: db.table<ModelDoc, string>('models') };
}

const ACCOUNT = 'bench-account';

function attributesOf(i: number, round: string): Record<string, unknown> {
  return {
    name: `Asset ${round} ${String(i).padStart(6, '0')}`,
    mac: null,
    description: `A machine made for the benchmark, number ${i}.`,
    gateway_id: null,
    photo: null,
    tags: ['bench'],
    contacts: [],
    documents: [],
    status: 'unknown',
  };
}

/** `count` created models (as `updated` with whole attributes), then a change to each. */
function updates(count: number): { creates: ModelUpdate[]; changes: ModelUpdate[] } {
  const ids = Array.from({ length: count }, (_, i) => `asset-${String(i).padStart(6, '0')}`);
  const creates = ids.map((id, i) => ({
    action: 'updated' as const,
    type: 'asset',
    id,
    muid: `c-${i}`,
    ts: 1_000 + i,
    seq: 1 + i,
    attributes: attributesOf(i, 'created'),
  }));
  const changes = ids.map((id, i) => ({
    action: 'attributes_updated' as const,
    type: 'asset',
    id,
    muid: `u-${i}`,
    ts: 1_000 + count + i,
    seq: 1 + count + i,
    attributes: { name: `Asset changed ${String(i).padStart(6, '0')}`, status: 'ok' },
  }));
  return { creates, changes };
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** What the store holds after each phase of `applyOurs`: the raw baseline writes the same. */
let lastDocs: { created: ModelDoc[]; changed: ModelDoc[] } | undefined;

async function allDocs(store: LocalStore): Promise<ModelDoc[]> {
  return (await store.db.models.find().exec()).map((d) => d.toMutableJSON());
}

const snapshotAnswer = envelopeSchema(snapshotPageSchema);

async function fetchPage(origin: string, token: string, pageSize: number, cursor?: string) {
  const res = await fetch(`${origin}${API_BASE}/${apiPaths.snapshot(cursor, pageSize)}`, {
    headers: { Authorization: `Bearer ${token}`, 'X-Requested-With': 'XMLHttpRequest' },
  });
  return (await res.json()) as { data: { models: SyncedModel[]; next_cursor: string | null } };
}

function valueOf(stream: number, i: number): number {
  return 50 + 20 * Math.sin(i / (300 + stream)) + ((i * 7919) % 97) / 10;
}

interface RawPoint {
  readonly stream: string;
  readonly ts: number;
  readonly value: number;
}
let rawPoints: { db: Dexie; table: Table<RawPoint, [string, number]> } | undefined;

const api: BenchWorker = {
  async fillValuesCache(dbName, streams, from, count, stepMs) {
    const cache = await ValuesCache.open(dbName, globalIndexedDb(), 512 * 1024 * 1024);
    let written = 0;
    for (const [k, stream] of streams.entries()) {
      // A day at a time, as the worker's reads would bring them.
      const perPut = 8_640;
      for (let start = 0; start < count; start += perPut) {
        const n = Math.min(perPut, count - start);
        const points: [number, number][] = [];
        for (let i = start; i < start + n; i++) points.push([from + i * stepMs, valueOf(k, i)]);
        await cache.put(stream, points, {
          from: from + start * stepMs,
          to: from + (start + n) * stepMs,
          step: 0,
        });
        written += n;
      }
    }
    cache.close();
    return written;
  },

  async touchValues(dbName, streams) {
    const cache = await ValuesCache.open(dbName, globalIndexedDb(), 512 * 1024 * 1024);
    for (const stream of streams) await cache.put(stream, []);
    cache.close();
  },

  async fillRawPoints(streams, from, count, stepMs) {
    databases += 1;
    const db = new Dexie(`bench-raw-points-${Date.now()}-${databases}`);
    db.version(1).stores({ points: '[stream+ts]' });
    await db.open();
    const table = db.table<RawPoint, [string, number]>('points');
    rawPoints = { db, table };
    for (const [k, stream] of streams.entries()) {
      const rows: RawPoint[] = [];
      for (let i = 0; i < count; i++)
        rows.push({ stream, ts: from + i * stepMs, value: valueOf(k, i) });
      for (const run of chunks(rows, 10_000)) await table.bulkPut(run);
    }
    return streams.length * count;
  },

  async readRawPoints(streams, from, to) {
    if (rawPoints === undefined) throw new Error('fillRawPoints first');
    const { table } = rawPoints;
    const t = performance.now();
    let points = 0;
    for (const stream of streams) {
      const rows = await table
        .where('[stream+ts]')
        .between([stream, from], [stream, to], true, true)
        .toArray();
      points += rows.length;
    }
    return { ms: performance.now() - t, points };
  },

  async dropRawPoints() {
    if (rawPoints === undefined) return;
    rawPoints.db.close();
    await Dexie.delete(rawPoints.db.name);
    rawPoints = undefined;
  },

  async applyOurs(count, batch) {
    databases += 1;
    const store = await LocalStore.open({
      userId: 'bench',
      accountId: `${ACCOUNT}-${Date.now()}-${databases}`,
      multiInstance: false,
    });
    const replica = new Replica(store);
    const { creates, changes } = updates(count);
    let t = performance.now();
    for (const run of chunks(creates, batch)) await replica.receive(run);
    const createMs = performance.now() - t;
    const created = await allDocs(store);
    t = performance.now();
    for (const run of chunks(changes, batch)) await replica.receive(run);
    const changeMs = performance.now() - t;
    const changed = await allDocs(store);
    if (created.length !== count || (await replica.meta()).last_seq !== 2 * count) {
      throw new Error(`the store has ${created.length} of ${count} models`);
    }
    lastDocs = { created, changed };
    await store.wipe();
    return { createMs, changeMs };
  },

  async applyRaw(count, batch) {
    if (lastDocs === undefined || lastDocs.created.length !== count) {
      throw new Error('applyOurs(count) first: the raw run writes the documents it made');
    }
    const { created, changed } = lastDocs;
    const { db, models } = rawDatabase();
    await db.open();
    let t = performance.now();
    for (const run of chunks(created, batch)) await models.bulkPut(run);
    const createMs = performance.now() - t;
    t = performance.now();
    for (const run of chunks(changed, batch)) await models.bulkPut(run);
    const changeMs = performance.now() - t;
    if ((await models.count()) !== count) throw new Error('raw Dexie lost documents');
    db.close();
    await Dexie.delete(db.name);
    return { createMs, changeMs };
  },

  async bootstrapRaw(origin, token, pageSize) {
    const t = performance.now();
    const { db, models } = rawDatabase();
    await db.open();
    let cursor: string | undefined;
    let loaded = 0;
    for (;;) {
      const page = (await fetchPage(origin, token, pageSize, cursor)).data;
      await models.bulkPut(
        page.models.map((m) => ({
          key: `${m.type}:${m.id}`,
          type: m.type,
          id: m.id,
          parent_key: `${m.parent_type}:${m.parent_id}`,
          sort_key: typeof m.attributes.name === 'string' ? m.attributes.name.toLowerCase() : '',
          last_seq: m.last_seq,
          server: m.attributes,
          attributes: { ...m.attributes },
        })),
      );
      loaded += page.models.length;
      if (page.next_cursor === null) break;
      cursor = page.next_cursor;
    }
    const ms = performance.now() - t;
    db.close();
    await Dexie.delete(db.name);
    return { ms, models: loaded };
  },

  async bootstrapParts(origin, token, pageSize) {
    databases += 1;
    const store = await LocalStore.open({
      userId: 'bench',
      accountId: `${ACCOUNT}-${Date.now()}-${databases}`,
      multiInstance: false,
    });
    const replica = new Replica(store);
    let fetchMs = 0;
    let zodMs = 0;
    let putMs = 0;
    let cursor: string | undefined;
    for (;;) {
      let t = performance.now();
      const json = await fetchPage(origin, token, pageSize, cursor);
      fetchMs += performance.now() - t;
      t = performance.now();
      const page = snapshotAnswer.parse(json).data;
      zodMs += performance.now() - t;
      t = performance.now();
      await replica.putModels(page.models, {
        bootstrap: 'snapshot',
        snapshot_cursor: page.next_cursor,
        watermark_seq: page.watermark.seq,
        watermark_ts: page.watermark.ts,
      });
      putMs += performance.now() - t;
      if (page.next_cursor === null) break;
      cursor = page.next_cursor;
    }
    await store.wipe();
    return { fetchMs, zodMs, putMs };
  },
};

Comlink.expose(api);
