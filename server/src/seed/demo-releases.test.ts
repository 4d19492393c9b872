import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiPaths,
  type BoardAttributes,
  type DeploymentGatewayAttributes,
  type FirmwareAttributes,
  type GatewayAttributes,
  type ReleaseAttributes,
  type SyncedModel,
} from '@plant/shared-schema';
import { bundledEntry } from '../testing/bundled-entry';
import { dataOf, startTestServer, type TestServer } from '../testing/harness';
import { DEMO_USERS } from './demo';
import { DEMO_RELEASES } from './demo-releases';

/*
 * The demo's release management (issue 35 item 6), as `npm start` gives it: a firmware, its board
 * with pins, two released agent versions, and the demo gateways, whose agents (the real demo
 * agents' process, scripts/demo-agents.ts) run the older one, so that a rollout of the newer one
 * can be tried at once: it is installed and restarted into, and the gateway reports it.
 */
const DEMO_AGENTS = path.resolve(
  import.meta.dirname,
  '..',
  '..',
  '..',
  'scripts',
  'demo-agents.ts',
);

let s: TestServer;
let admin = '';
let agents: ChildProcess | undefined;
let agentsLog = '';

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.signIn(DEMO_USERS.admin);
  agents = spawn(process.execPath, [await bundledEntry(DEMO_AGENTS)], {
    env: {
      ...process.env,
      DATA_DIR: s.dataDir,
      HOST: '127.0.0.1',
      DEMO_AGENTS_PORT: new URL(s.url).port,
      ...(s.databaseUrl === undefined ? {} : { DATABASE_URL: s.databaseUrl }),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  agents.stdout?.on('data', (d: Buffer) => (agentsLog += d.toString()));
  agents.stderr?.on('data', (d: Buffer) => (agentsLog += d.toString()));
});
afterAll(async () => {
  if (agents !== undefined && agents.exitCode === null) {
    const gone = new Promise((resolve) => agents?.once('exit', resolve));
    agents.kill('SIGTERM');
    await gone;
  }
  await s.close();
});

const models = async <A>(type: string) =>
  (await s.snapshot(admin))
    .filter((m) => m.type === type)
    .map((m) => ({ id: m.id, attributes: m.attributes as A }));

describe('the demo’s release management', { timeout: 240_000 }, () => {
  it('has a board with pins, a firmware, two released agent versions and the gateways on the older one; a rollout of the newer one succeeds at once', async () => {
    const [firmware] = await models<FirmwareAttributes>('firmware');
    expect(firmware?.attributes).toMatchObject(DEMO_RELEASES.firmware);
    const [board] = await models<BoardAttributes>('board');
    expect(board?.attributes.name).toBe(DEMO_RELEASES.board);
    expect(board?.attributes.firmware_id).toBe(firmware?.id);
    expect(board?.attributes.pins.map((p) => p.kind)).toEqual(
      expect.arrayContaining(['gpio', 'i2c']),
    );
    const releases = await models<ReleaseAttributes>('release');
    const agentVersions = releases.filter((r) => r.attributes.target === 'agent');
    expect(agentVersions.map((r) => [r.attributes.version, r.attributes.state]).sort()).toEqual([
      [DEMO_RELEASES.older, 'released'],
      [DEMO_RELEASES.newer, 'released'],
    ]);
    for (const r of agentVersions) expect(r.attributes.signature).not.toBeNull();
    const newer = agentVersions.find((r) => r.attributes.version === DEMO_RELEASES.newer);

    // The demo agents come up reporting the older version, on the demo board.
    const gateways = async () => models<GatewayAttributes>('gateway');
    const onBoard = (await gateways()).filter((g) => g.attributes.board_id === board?.id);
    expect(onBoard.length).toBeGreaterThanOrEqual(2);
    const [first] = onBoard;
    const versionOf = async (id: string) =>
      (await gateways()).find((g) => g.id === id)?.attributes.agent?.version;
    await expect
      .poll(() => versionOf(first?.id ?? ''), { timeout: 120_000, interval: 500 })
      .toBe(DEMO_RELEASES.older);

    // A rollout of the newer one to the first gateway: downloaded, checked, restarted into.
    const made = await s.call('POST', apiPaths.collection('deployments'), {
      token: admin,
      json: {
        release_id: newer?.id,
        targets: { kind: 'list', gateway_ids: [first?.id] },
        batch_size: 1,
      },
    });
    expect(made.status, made.text).toBe(201);
    const deployment = dataOf<SyncedModel>(made).id;
    const partState = async () =>
      (await models<DeploymentGatewayAttributes>('deployment_gateway')).find(
        (p) => p.attributes.deployment_id === deployment,
      )?.attributes.state;
    await expect.poll(partState, { timeout: 120_000, interval: 500 }).toBe('succeeded');
    // The agent's status (its version) and its report (succeeded) are two messages, each in
    // a queue of its own on the server: the version may land just after the part's end.
    await expect
      .poll(() => versionOf(first?.id ?? ''), {
        timeout: 30_000,
        interval: 500,
        message: agentsLog,
      })
      .toBe(DEMO_RELEASES.newer);
  });
});
