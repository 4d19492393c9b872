import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiPaths,
  type DeploymentAttributes,
  type DeploymentGatewayAttributes,
  type GatewayAttributes,
  type StreamValues,
  type SyncedModel,
  uuidv7,
} from '@plant/shared-schema';
import { DEMO_USERS } from '../../server/src/seed/demo';
import { demoGateway, makeGatewayCredentials } from '../../server/src/testing/gateway-client';
import { bundledEntry, singleFileBuild } from '../../server/src/testing/bundled-entry';
import { dataOf, startTestServer, type TestServer } from '../../server/src/testing/harness';
import { uploadArtifact } from '../../server/src/testing/release-upload';

/*
 * Over-the-air updates with real agent processes (issue 35 item 4): the launcher runs agent 1.0.0;
 * a rollout updates it to 2.0.0 (a build that reports another version); a file changed in the
 * server's storage after it was signed is refused and reported; a 3.0.0 that never gets healthy is
 * rolled back to 2.0.0 by the launcher, and its rollout halts; a gateway offline during a rollout
 * updates when it comes back; no point is lost or doubled across the updates.
 */
const MAIN = path.resolve(import.meta.dirname, 'main.ts');
const LAUNCHER = path.resolve(import.meta.dirname, 'launcher.ts');
const VERSION_TS = path.resolve(import.meta.dirname, 'version.ts');
const CONNECTORS_TS = path.resolve(import.meta.dirname, 'connectors/index.ts');
const REPO_MODULES = path.resolve(import.meta.dirname, '../../node_modules');
const WAIT = { timeout: 120_000, interval: 200 };
/**
 * How long a new version has to get healthy (starting counts: an agent took 12 s to start on a
 * busy machine, so 8 s rolled back a good version).
 */
const HEALTH_MS = 45_000;

let server: TestServer;
let admin = '';
let rootId = '';
let launcher = '';
const dirs: string[] = [];
const children: ChildProcess[] = [];

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.signIn(DEMO_USERS.admin);
  rootId = (await server.demoAccountIds()).root;
  launcher = await bundledEntry(LAUNCHER);
});
afterAll(async () => {
  for (const child of children) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const closed = new Promise((resolve) => child.once('close', resolve));
    child.kill('SIGKILL');
    await closed;
  }
  await server.close();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
}, 120_000);

/** An agent build reporting `version`; `reads: false`: its connections never read (unhealthy). */
function agentBuild(version: string, reads = true): Promise<Uint8Array> {
  return singleFileBuild(MAIN, {
    [VERSION_TS]: `export const AGENT_VERSION = ${JSON.stringify(version)};`,
    ...(reads
      ? {}
      : {
          [CONNECTORS_TS]: `
            export function makeConnector(ctx) {
              const status = { id: ctx.connection.id, state: 'connecting', error: null, last_read: null };
              return { start() { ctx.events.status(status); }, stop: async () => {}, status: () => status };
            }`,
        }),
  });
}

const post = (collection: string, json: unknown) =>
  server.call('POST', apiPaths.collection(collection), { token: admin, json });
const put = (collection: string, id: string, json: unknown) =>
  server.call('PUT', apiPaths.model(collection, id), { token: admin, json });

/** A released agent version with this build as its artifact; answers its id and the file's hash. */
async function released(version: string, bytes: Uint8Array) {
  const id = uuidv7();
  expect(
    (await post('releases', { id, target: 'agent', name: 'Gateway agent', version })).status,
  ).toBe(201);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const fileId = await uploadArtifact(server, admin, id, bytes, {
    name: `agent-${version}.mjs`,
    type: 'application/javascript',
  });
  const answer = await put('releases', id, { artifact_file_id: fileId, state: 'released' });
  expect(answer.status, answer.text).toBe(200);
  return { id, sha256 };
}

async function rollout(releaseId: string, gatewayId: string): Promise<string> {
  const made = await post('deployments', {
    release_id: releaseId,
    targets: { kind: 'list', gateway_ids: [gatewayId] },
    batch_size: 1,
    max_failure_rate: 0,
  });
  expect(made.status, made.text).toBe(201);
  return dataOf<SyncedModel>(made).id;
}

async function model<T>(id: string): Promise<T> {
  const row = await server.db
    .selectFrom('models')
    .select('attributes')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return JSON.parse(row.attributes) as T;
}

async function partOf(deploymentId: string): Promise<DeploymentGatewayAttributes | undefined> {
  const rows = await server.db
    .selectFrom('models')
    .select('attributes')
    .where('type', '=', 'deployment_gateway')
    .where('parent_id', '=', deploymentId)
    .execute();
  return rows.map((r) => JSON.parse(r.attributes) as DeploymentGatewayAttributes)[0];
}

describe('an agent updated over the air', () => {
  it('updates to a new version, refuses a tampered file, rolls back an unhealthy one, and updates when back online, losing and doubling no point', async () => {
    const gw = await demoGateway(server, rootId, 0);
    const { secret } = await makeGatewayCredentials(server, admin, gw.gatewayId);
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'plant-agent-update-'));
    dirs.push(home);
    // The installation: its agent and the packages it imports.
    fs.symlinkSync(REPO_MODULES, path.join(home, 'node_modules'), 'dir');
    const builtIn = path.join(home, 'agent-1.0.0.mjs');
    fs.writeFileSync(builtIn, await agentBuild('1.0.0'));
    const data = path.join(home, 'data');
    let output = '';
    const start = () => {
      const child = spawn(
        process.execPath,
        [
          launcher,
          '--agent',
          builtIn,
          '--health-ms',
          String(HEALTH_MS),
          '--server',
          server.url,
          '--gateway',
          gw.gatewayId,
          '--key',
          secret,
          '--data',
          data,
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
      child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
      children.push(child);
      return child;
    };
    const runs = async () => (await model<GatewayAttributes>(gw.gatewayId)).agent?.version;
    /** Polls until `read` gives `value`; when it does not, says what the processes wrote. */
    const until = async (read: () => Promise<unknown>, value: unknown) => {
      try {
        await expect.poll(read, WAIT).toBe(value);
      } catch (err) {
        throw new Error(`waited for ${String(value)}; they wrote:\n${output.slice(-8000)}`, {
          cause: err,
        });
      }
    };

    let box = start();
    await until(runs, '1.0.0');

    // 2.0.0, rolled out: downloaded, checked, installed beside, restarted into, healthy.
    const two = await released('2.0.0', await agentBuild('2.0.0'));
    const first = await rollout(two.id, gw.gatewayId);
    await until(runs, '2.0.0');
    await until(async () => (await partOf(first))?.state, 'succeeded');
    await expect.poll(async () => (await model<DeploymentAttributes>(first)).state).toBe('done');
    expect(fs.existsSync(path.join(data, 'versions', '2.0.0', 'agent.mjs'))).toBe(true);

    // A file changed in the server's storage after it was signed: refused, never installed.
    const bad = await released('2.1.0', await agentBuild('2.1.0'));
    const blob = path.join(
      server.dataDir,
      'files',
      'blobs',
      rootId,
      bad.sha256.slice(0, 2),
      bad.sha256,
    );
    const stored = fs.readFileSync(blob);
    stored[stored.length - 2] = stored[stored.length - 2] === 0x20 ? 0x21 : 0x20;
    fs.writeFileSync(blob, stored);
    const tampered = await rollout(bad.id, gw.gatewayId);
    await until(async () => (await partOf(tampered))?.state, 'failed');
    expect((await partOf(tampered))?.message).toBe(
      'The file’s SHA-256 does not match the release.',
    );
    expect(fs.existsSync(path.join(data, 'versions', '2.1.0', 'agent.mjs'))).toBe(false);
    expect(await runs()).toBe('2.0.0');
    await expect
      .poll(async () => (await model<DeploymentAttributes>(tampered)).state)
      .toBe('halted');

    // 3.0.0 never gets healthy (its connections never read): rolled back to 2.0.0, halted.
    const three = await released('3.0.0', await agentBuild('3.0.0', false));
    const unhealthy = await rollout(three.id, gw.gatewayId);
    await until(async () => (await partOf(unhealthy))?.state, 'rolled_back');
    expect((await partOf(unhealthy))?.message).toBe(
      `Version 3.0.0 was not healthy within ${HEALTH_MS / 1000} s.`,
    );
    await until(runs, '2.0.0');
    await expect
      .poll(async () => (await model<DeploymentAttributes>(unhealthy)).state)
      .toBe('halted');

    // Offline during a rollout: it gets the version when it comes back.
    box.kill('SIGTERM');
    await new Promise((resolve) => box.once('close', resolve));
    await expect
      .poll(async () => (await model<GatewayAttributes>(gw.gatewayId)).connection, WAIT)
      .toBe('offline');
    const four = await released('4.0.0', await agentBuild('4.0.0'));
    const later = await rollout(four.id, gw.gatewayId);
    expect((await partOf(later))?.state).toBe('pending');
    box = start();
    await until(runs, '4.0.0');
    await expect.poll(async () => (await partOf(later))?.state, WAIT).toBe('succeeded');

    // No point lost or doubled: the buffer every version shared empties (a point leaves it only
    // when the server acknowledged it stored), and the server holds each point once.
    const buffer = new Database(path.join(data, `buffer-${gw.gatewayId}.sqlite`), {
      readonly: true,
    });
    try {
      await expect
        .poll(
          () => (buffer.prepare('select count(*) as n from points').get() as { n: number }).n,
          WAIT,
        )
        .toBe(0);
    } finally {
      buffer.close();
    }
    const stream = Object.values(gw.streams)[0] ?? '';
    const values = dataOf<StreamValues>(
      await server.call('GET', apiPaths.streamValues(stream, 0, Date.now() + 60_000, 10_000), {
        token: admin,
      }),
    ).points;
    expect(values.length).toBeGreaterThan(3);
    const times = values.map((p) => p[0]);
    expect(new Set(times).size).toBe(times.length);
    box.kill('SIGTERM');
    await new Promise((resolve) => box.once('close', resolve));
  }, 600_000);
});
