import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import {
  API_BASE,
  apiPaths,
  gatewayAckSchema,
  gatewayBrokerLogin,
  gatewayTopics,
  uuidv7,
  type GatewayAck,
  type GatewayCredentialsMade,
  type SyncedModel,
} from '@plant/shared-schema';
import { DEMO_USERS } from '../seed/demo';
import { apiClient, dataOf, type Answer } from '../testing/harness';
import { until } from '../testing/mqtt-client';
import { startServerProcess, type ServerProcess } from '../testing/server-process';
import { testDatabase, type TestDatabase } from '../testing/test-database';
import { runBackup, type BackupProgress } from './backup';
import { runRestore } from './restore';

/*
 * Issue 38 item 3: a backup taken while the server (a process of its own, as `npm start` runs it)
 * keeps writing models, files and values, restored into a fresh DATA_DIR (and, in the
 * server-postgres project, a fresh database): the restored server serves what the backup's moment
 * held, every write acknowledged before the backup began, nothing begun after its snapshot, and
 * nothing half-written; browsers that synced later are told to reload (mqttlogs `resync`).
 */

const databases: TestDatabase[] = [];
const processes: ServerProcess[] = [];
const folders: string[] = [];

afterEach(async () => {
  for (const p of processes.splice(0)) {
    if (p.child.exitCode === null) {
      p.child.kill('SIGKILL');
      await p.exited;
    }
  }
  for (const database of databases.splice(0)) await database.remove();
  for (const folder of folders.splice(0)) await fs.rm(folder, { recursive: true, force: true });
});

type Api = Awaited<ReturnType<typeof apiClient>>;

async function startOn(dataDir: string, databaseUrl: string | undefined) {
  const p = await startServerProcess({
    PORT: '0',
    DATA_DIR: dataDir,
    SEED: 'demo',
    ...(databaseUrl === undefined ? {} : { DATABASE_URL: databaseUrl }),
  });
  processes.push(p);
  const url = await p.listening();
  const api = await apiClient(url);
  const token = await api.signIn(DEMO_USERS.admin);
  return { p, url, api, token };
}

async function stop(p: ServerProcess): Promise<void> {
  p.child.kill('SIGTERM');
  expect(await p.exited).toBe(0);
}

function ok(answer: Answer, status = 200): Answer {
  if (answer.status !== status) throw new Error(`${answer.status}: ${answer.text}`);
  return answer;
}

/** Every model of the admin's account, by id, and the watermark the snapshot was taken at. */
async function snapshot(api: Api, token: string) {
  const models = new Map<string, SyncedModel>();
  let cursor: string | undefined;
  let watermark: { ts: number; seq: number } | undefined;
  for (;;) {
    const page = dataOf<{
      models: SyncedModel[];
      next_cursor: string | null;
      watermark: { ts: number; seq: number };
    }>(ok(await api.call('GET', apiPaths.snapshot(cursor, 2000), { token })));
    watermark ??= page.watermark;
    for (const m of page.models) models.set(`${m.type}:${m.id}`, m);
    if (page.next_cursor === null) return { models, watermark };
    cursor = page.next_cursor;
  }
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function content(url: string, token: string, fileId: string) {
  const res = await fetch(`${url}${API_BASE}/${apiPaths.fileContent(fileId)}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  return { status: res.status, bytes: new Uint8Array(await res.arrayBuffer()) };
}

/** Bytes of a file's upload from `offset` in one chunk (throws unless the server took them). */
async function upload(url: string, token: string, id: string, bytes: Uint8Array, offset: number) {
  const put = await fetch(`${url}${API_BASE}/${apiPaths.fileUpload(id, offset)}`, {
    method: 'PUT',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/octet-stream' },
    body: bytes,
  });
  if (put.status !== 200) throw new Error(`upload of ${id} at ${offset}: ${put.status}`);
}

/** A stream's raw points as `ts -> value text`, from its CSV download. */
async function points(api: Api, token: string, stream: string): Promise<Map<number, string>> {
  const csv = ok(
    await api.call('GET', apiPaths.streamValuesCsv(stream, 0, Date.now() + 86_400_000), { token }),
  );
  const out = new Map<number, string>();
  for (const line of csv.text.split('\n')) {
    const [ts, , value] = line.split(',');
    if (ts !== undefined && value !== undefined && /^\d+$/.test(ts)) out.set(Number(ts), value);
  }
  return out;
}

/** One write of a loop: when it began and when its answer came, on one counter. */
interface Op {
  readonly index: number;
  readonly began: number;
  acked?: number;
}

/** The demo gateway whose datapoints feed number streams, and two of those streams. */
function fedStreams(models: Map<string, SyncedModel>) {
  const all = [...models.values()];
  const attrs = (m: SyncedModel) => m.attributes;
  for (const connection of all.filter((m) => m.type === 'connection')) {
    const streams = all
      .filter((m) => m.type === 'datapoint' && attrs(m).connection_id === connection.id)
      .map((dp) => models.get(`datastream:${String(attrs(dp).datastream_id)}`))
      .filter((s): s is SyncedModel => s !== undefined && attrs(s).type === 'number')
      .map((s) => s.id);
    if (streams.length >= 2)
      return { gateway: String(attrs(connection).gateway_id), streams: streams.slice(0, 2) };
  }
  throw new Error('no demo gateway feeds two number streams');
}

/** A gateway's agent played by hand: batches published, each answered by its ack. */
async function agentFor(url: string, api: Api, token: string, gateway: string) {
  const made = dataOf<GatewayCredentialsMade>(
    ok(await api.call('POST', apiPaths.gatewayCredentials(gateway), { token }), 201),
  );
  const login = gatewayBrokerLogin(gateway);
  const client: MqttClient = await mqtt.connectAsync(`${url.replace('http', 'ws')}/mqtt`, {
    protocolVersion: 4,
    clientId: login.clientId,
    username: login.username,
    password: made.secret,
    reconnectPeriod: 0,
  });
  const acks = new Map<number, GatewayAck>();
  client.on('message', (topic, payload: Buffer) => {
    if (topic !== gatewayTopics.ack(gateway)) return;
    const ack = gatewayAckSchema.parse(JSON.parse(payload.toString()));
    acks.set(ack.seq, ack);
  });
  await client.subscribeAsync(gatewayTopics.ack(gateway), { qos: 1 });
  const buffer = `backup${randomBytes(4).toString('hex')}`;
  return {
    async send(seq: number, batch: readonly { stream: string; ts: number; value: number }[]) {
      const payload = JSON.stringify({ gateway, buffer, seq, points: batch });
      await client.publishAsync(gatewayTopics.data(gateway), payload, { qos: 1 });
      await until(() => acks.has(seq), 20_000);
      const ack = acks.get(seq);
      if (ack?.status !== 'stored' || ack.stored !== batch.length)
        throw new Error(`batch ${seq}: ${JSON.stringify(ack)}`);
    },
    close: () => client.endAsync(true),
  };
}

describe('a backup taken while the server writes', { timeout: 180_000 }, () => {
  it('restored into a fresh DATA_DIR, serves every model, value and file of its moment', async () => {
    const database = await testDatabase(undefined, { migrated: true });
    databases.push(database);
    const { dataDir, databaseUrl } = database;
    const original = await startOn(dataDir, databaseUrl);
    const { api, token, url } = original;

    const before = await snapshot(api, token);
    const { gateway, streams } = fedStreams(before.models);
    const asset = [...before.models.values()].find((m) => m.type === 'asset');
    if (asset === undefined) throw new Error('no demo asset');
    const agent = await agentFor(url, api, token, gateway);
    const base = Date.now() - 3_600_000;
    const batchOf = (i: number) =>
      streams.flatMap((stream, s) =>
        Array.from({ length: 5 }, (_, k) => ({
          stream,
          ts: base + i * 10 + s * 5 + k,
          value: i * 100 + s * 10 + k,
        })),
      );
    // The gateway goes online with its first batch (a background write of its model): before
    // the moment the test compares from.
    await agent.send(1, batchOf(0));
    // Two uploads under way when the backup begins: half of each stored; one gets its other
    // half while the backup runs, the other never does (its part is in the backup as it was).
    const halfway = await Promise.all(
      [0, 1].map(async (n) => {
        const bytes = randomBytes(300_000 + n);
        const id = uuidv7();
        ok(
          await api.call('POST', apiPaths.collection('files'), {
            token,
            json: {
              id,
              asset_id: asset.id,
              kind: 'document',
              name: `halfway-${n}.txt`,
              type: 'text/plain',
              size: bytes.length,
              sha256: sha256(bytes),
            },
          }),
          201,
        );
        await upload(url, token, id, bytes.subarray(0, 150_000), 0);
        return { id, bytes };
      }),
    );
    const start = await snapshot(api, token);
    const valuesAtStart = await Promise.all(streams.map((s) => points(api, token, s)));

    // Three writers, each one write at a time, each write's begin and answer on one counter.
    let counter = 0;
    const tick = () => ++counter;
    let writing = true;
    const assets: Op[] = [];
    const fileModels: Op[] = [];
    const fileBytes: Op[] = [];
    const batches: Op[] = [];
    const files: { id: string; bytes: Uint8Array }[] = [];
    const assetIds: string[] = [];
    // The quicker writers keep within a few writes of the files' (an upload is two requests):
    // a model writer running free made ten times the writes, the machine's time, for nothing.
    const loop = async (write: (i: number) => Promise<void>, paced = true) => {
      for (let i = 0; writing; i++) {
        if (paced) await until(() => !writing || i <= 2 * fileBytes.length + 2, 60_000);
        if (writing) await write(i);
      }
    };
    const writers = Promise.all([
      loop(async (i) => {
        const op: Op = { index: i, began: tick() };
        assets.push(op);
        const id = uuidv7();
        assetIds.push(id);
        ok(
          await api.call('POST', apiPaths.collection('assets'), {
            token,
            json: { id, name: `Backed up ${i}` },
          }),
          201,
        );
        op.acked = tick();
      }),
      loop(async (i) => {
        const bytes = randomBytes(20_000 + i * 997);
        const id = uuidv7();
        files.push({ id, bytes });
        const made: Op = { index: i, began: tick() };
        fileModels.push(made);
        ok(
          await api.call('POST', apiPaths.collection('files'), {
            token,
            json: {
              id,
              asset_id: asset.id,
              kind: 'document',
              name: `backed-up-${i}.txt`,
              type: 'text/plain',
              size: bytes.length,
              sha256: sha256(bytes),
            },
          }),
          201,
        );
        made.acked = tick();
        const stored: Op = { index: i, began: tick() };
        fileBytes.push(stored);
        await upload(url, token, id, bytes, 0);
        stored.acked = tick();
      }, false),
      loop(async (i) => {
        const op: Op = { index: i, began: tick() };
        batches.push(op);
        await agent.send(i + 2, batchOf(i + 1));
        op.acked = tick();
      }),
    ]).finally(() => {
      writing = false;
    });
    // Heard now (a writer that fails ends the others), thrown where it is awaited below.
    writers.catch(() => undefined);

    // Writes answered from now on, in each writer.
    const answeredAfter = (ops: readonly Op[], mark: number) =>
      ops.filter((op) => op.began > mark && op.acked !== undefined).length;
    const eachWroteAfter = (mark: number, n: number) =>
      until(
        () => [assets, fileBytes, batches].every((ops) => answeredAfter(ops, mark) >= n),
        60_000,
      );
    const out = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'plant-backup-')), 'backup');
    folders.push(path.dirname(out));
    let snapshotStart = 0;
    let snapshotTaken = 0;
    const stages: BackupProgress['stage'][] = [];
    const backupBegan = tick();
    const backingUp = runBackup({
      dataDir,
      databaseUrl,
      out,
      progress: async ({ stage }) => {
        if (!stages.includes(stage)) stages.push(stage);
        // Each step waits for more writes of every writer, so the server writes all through.
        if (stage === 'files' && stages.length === 1) await eachWroteAfter(backupBegan, 2);
        if (stage === 'snapshot-start') snapshotStart = tick();
        if (stage === 'snapshot') {
          snapshotTaken = tick();
          const [first] = halfway;
          if (first !== undefined)
            await upload(url, token, first.id, first.bytes.subarray(150_000), 150_000);
          await eachWroteAfter(snapshotTaken, 2);
        }
        if (stage === 'files-since') await eachWroteAfter(tick(), 1);
      },
    });
    const manifest = await backingUp.finally(() => {
      writing = false;
    });
    await writers;
    await agent.close();
    expect(stages).toEqual(
      expect.arrayContaining(['files', 'snapshot-start', 'snapshot', 'files-since', 'done']),
    );
    expect(manifest.database).toBe(databaseUrl === undefined ? 'sqlite' : 'postgres');

    // What a browser that synced after the backup has seen; and the server's secrets.
    const after = await snapshot(api, token);
    const valuesAfter = await Promise.all(streams.map((s) => points(api, token, s)));
    const vapid = ok(await api.call('GET', apiPaths.pushKey(), { token })).json;
    const secretFiles = ['vapid.json', 'demo-agents.json'];
    const secrets = await Promise.all(secretFiles.map((f) => fs.readFile(path.join(dataDir, f))));
    await stop(original.p);

    // Restored into a new DATA_DIR (and an empty database on Postgres), then served.
    const target = databaseUrl === undefined ? undefined : await testDatabase();
    if (target !== undefined) databases.push(target);
    const restoredDir = path.join(
      target?.dataDir ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'plant-restored-'))),
      'data',
    );
    folders.push(path.dirname(restoredDir));
    await runRestore({ dataDir: restoredDir, databaseUrl: target?.databaseUrl, from: out });
    const restored = await startOn(restoredDir, target?.databaseUrl);
    const now = await snapshot(restored.api, restored.token);

    // Point in time: each writer's writes in the restored server are a prefix of its writes,
    // holding every write answered before the snapshot began and none begun after it was taken.
    const prefix = (ops: readonly Op[], present: (i: number) => boolean) => {
      const held = ops.filter((op) => present(op.index)).map((op) => op.index);
      expect(held).toEqual(held.map((_, i) => i));
      for (const op of ops) {
        if (op.acked !== undefined && op.acked < snapshotStart)
          expect(present(op.index)).toBe(true);
        if (op.began > snapshotTaken) expect(present(op.index)).toBe(false);
      }
      // The backup ran while every writer wrote: some writes fell after its moment.
      expect(ops.some((op) => op.began > snapshotTaken && op.acked !== undefined)).toBe(true);
      return held.length;
    };
    const heldAssets = prefix(assets, (i) => now.models.has(`asset:${assetIds[i] ?? ''}`));
    expect(heldAssets).toBeGreaterThan(0);
    for (let i = 0; i < heldAssets; i++) {
      expect(now.models.get(`asset:${assetIds[i] ?? ''}`)?.attributes).toMatchObject({
        name: `Backed up ${i}`,
      });
    }

    // Files: the models a prefix; a file whose bytes were acknowledged before the moment is
    // ready; every ready file (the demo's too) serves its whole bytes; one caught mid-upload
    // resumes where the restored server stands and ends whole.
    const fileModel = (i: number) => now.models.get(`file:${files[i]?.id ?? ''}`);
    prefix(fileModels, (i) => fileModel(i) !== undefined);
    for (const op of fileBytes) {
      if (op.acked !== undefined && op.acked < snapshotStart)
        expect(fileModel(op.index)?.attributes).toMatchObject({ state: 'ready' });
      if (op.began > snapshotTaken)
        expect((fileModel(op.index)?.attributes as { state?: string } | undefined)?.state).not.toBe(
          'ready',
        );
    }
    for (const m of now.models.values()) {
      if (m.type !== 'file') continue;
      const attributes = m.attributes as { state: string; sha256: string };
      if (attributes.state !== 'ready') continue;
      const served = await content(restored.url, restored.token, m.id);
      expect(served.status, `file ${m.id}`).toBe(200);
      expect(sha256(served.bytes), `file ${m.id}`).toBe(attributes.sha256);
    }
    const underway = [...halfway, ...files].filter((f) => {
      const state = (now.models.get(`file:${f.id}`)?.attributes as { state?: string } | undefined)
        ?.state;
      return state !== undefined && state !== 'ready';
    });
    // Both halfway files are among them (the backup's moment had half of each).
    expect(underway.map((f) => f.id)).toEqual(expect.arrayContaining(halfway.map((f) => f.id)));
    const received: number[] = [];
    for (const file of underway) {
      const state = dataOf<{ received: number; state: string }>(
        ok(await restored.api.call('GET', apiPaths.fileUpload(file.id), { token: restored.token })),
      );
      if (state.state !== 'ready') {
        received.push(state.received);
        await upload(
          restored.url,
          restored.token,
          file.id,
          file.bytes.subarray(state.received),
          state.received,
        );
      }
      expect(sha256((await content(restored.url, restored.token, file.id)).bytes)).toBe(
        sha256(file.bytes),
      );
    }
    // The one that never got its second half resumed from the half the backup held.
    expect(received).toContain(150_000);

    // Values: batches whole or not at all, a prefix, as the original stored them; the values
    // from before the test all there.
    const valuesNow = await Promise.all(
      streams.map((s) => points(restored.api, restored.token, s)),
    );
    prefix(batches, (i) => {
      const batch = batchOf(i + 1);
      const found = batch.filter((p) => valuesNow[streams.indexOf(p.stream)]?.has(p.ts)).length;
      expect([0, batch.length]).toContain(found);
      return found === batch.length;
    });
    for (const [s, at] of valuesNow.entries()) {
      for (const [ts, value] of at) expect(valuesAfter[s]?.get(ts), `${ts}`).toBe(value);
    }
    for (const [s, at] of valuesAtStart.entries()) {
      for (const [ts, value] of at) expect(valuesNow[s]?.get(ts)).toBe(value);
    }

    // Every other model: as it was, if nothing changed it during the test (nor the restored
    // server since its start: a gateway marked offline; the restore emptied the log, so it
    // holds only the restored server's own writes); present in any case.
    const logs = async (from: number) =>
      ok(await restored.api.call('GET', apiPaths.mqttlogs(from), { token: restored.token }))
        .json as {
        resync: boolean;
        data: { msg: { seq: number; type?: string; id?: string } }[];
      };
    const sinceStart = new Set((await logs(0)).data.map((e) => `${e.msg.type}:${e.msg.id}`));
    const ours = new Set([
      ...assetIds.map((id) => `asset:${id}`),
      ...[...halfway, ...files].map((f) => `file:${f.id}`),
    ]);
    for (const [key, model] of start.models) {
      if (ours.has(key)) continue;
      const restoredModel = now.models.get(key);
      expect(restoredModel, key).toBeDefined();
      if (!sinceStart.has(key) && JSON.stringify(after.models.get(key)) === JSON.stringify(model))
        expect(restoredModel, key).toEqual(model);
    }
    for (const key of now.models.keys()) {
      if (!ours.has(key)) expect(after.models.has(key) || start.models.has(key), key).toBe(true);
    }

    // The secrets: the same web-push identity, the same files.
    expect(
      ok(await restored.api.call('GET', apiPaths.pushKey(), { token: restored.token })).json,
    ).toEqual(vapid);
    for (const [i, f] of secretFiles.entries())
      expect(await fs.readFile(path.join(restoredDir, f))).toEqual(secrets[i]);

    // Browsers: one that synced after the backup (or before it) is told to reload; one that
    // bootstraps from the restored server is not, and gets the next update in sequence.
    expect((await logs(after.watermark?.ts ?? 0)).resync).toBe(true);
    expect((await logs(start.watermark?.ts ?? 0)).resync).toBe(true);
    const fresh = now.watermark ?? { ts: 0, seq: 0 };
    ok(
      await restored.api.call('POST', apiPaths.collection('assets'), {
        token: restored.token,
        json: { id: uuidv7(), name: 'After the restore' },
      }),
      201,
    );
    // Its own update and any the restored server wrote in the background since (a gateway
    // marked offline at start), numbered on from the watermark.
    const next = await logs(fresh.ts);
    expect(next.resync).toBe(false);
    expect(next.data.map((e) => e.msg.seq)).toEqual(next.data.map((_, i) => fresh.seq + 1 + i));
    expect(JSON.stringify(next.data)).toContain('After the restore');
    await stop(restored.p);
  });
});
