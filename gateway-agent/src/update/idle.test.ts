import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiPaths,
  gatewayConfigSchema,
  gatewayTopics,
  type DeploymentGatewayAttributes,
  type GatewayConfig,
  type GatewayUpdateReport,
  type SyncedModel,
  uuidv7,
} from '@plant/shared-schema';
import { DEMO_USERS } from '../../../server/src/seed/demo';
import {
  connectGateway,
  demoGateway,
  makeGatewayCredentials,
} from '../../../server/src/testing/gateway-client';
import { dataOf, startTestServer, type TestServer } from '../../../server/src/testing/harness';
import { uploadArtifact } from '../../../server/src/testing/release-upload';
import { createLogger } from '../logger';
import { Updater } from './updater';

/*
 * A rollout that waits for the machine (issue 35 item 3): the rollout names a stream of the
 * machine and the value that means idle; the server offers the version with that stream's id on
 * the gateway, and the agent downloads and checks it at once but installs (and restarts) only
 * once the machine's stream says idle: a machine mid-cycle is never interrupted. The agent's
 * updater runs here against the real server, its machine's last value set by the test.
 */
let server: TestServer;
let admin = '';
let client: MqttClient | undefined;
const dirs: string[] = [];

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.signIn(DEMO_USERS.admin);
});
afterAll(async () => {
  await client?.endAsync();
  await server.close();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

const post = (collection: string, json: unknown) =>
  server.call('POST', apiPaths.collection(collection), { token: admin, json });

describe('an update that waits for the machine to be idle', () => {
  it('is downloaded at once and installed only when the named stream says idle', async () => {
    const rootId = (await server.demoAccountIds()).root;
    const gw = await demoGateway(server, rootId, 1);
    const modeStream = gw.streams['Operating mode'] ?? '';
    expect(modeStream).not.toBe('');
    const { secret } = await makeGatewayCredentials(server, admin, gw.gatewayId);
    // The gateway's configuration as its agent receives it over the broker.
    client = await connectGateway(server, gw.gatewayId, secret);
    const configs: GatewayConfig[] = [];
    client.on('message', (topic, payload) => {
      if (topic === gatewayTopics.config(gw.gatewayId) && payload.length > 0)
        configs.push(gatewayConfigSchema.parse(JSON.parse(payload.toString())));
    });
    await client.subscribeAsync(gatewayTopics.config(gw.gatewayId));

    const releaseId = uuidv7();
    expect(
      (
        await post('releases', {
          id: releaseId,
          target: 'agent',
          name: 'Gateway agent',
          version: '5.0.0',
        })
      ).status,
    ).toBe(201);
    const fileId = await uploadArtifact(
      server,
      admin,
      releaseId,
      new TextEncoder().encode('agent 5.0.0'),
    );
    const released = await server.call('PUT', apiPaths.model('releases', releaseId), {
      token: admin,
      json: { artifact_file_id: fileId, state: 'released' },
    });
    expect(released.status, released.text).toBe(200);
    // Installed only while "Operating mode" says 0 (Off).
    const made = await post('deployments', {
      release_id: releaseId,
      targets: { kind: 'list', gateway_ids: [gw.gatewayId] },
      idle_stream: 'Operating mode',
      idle_value: 0,
    });
    expect(made.status, made.text).toBe(201);
    const deployment = dataOf<SyncedModel>(made).id;
    await expect
      .poll(() => configs.at(-1)?.update?.deployment_id, { timeout: 15_000 })
      .toBe(deployment);
    const config = configs.at(-1) as GatewayConfig;
    expect(config.update?.idle).toEqual({ datastream_id: modeStream, value: 0 });

    // The agent's updater, its machine running (mode 1, Automatic).
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plant-idle-'));
    dirs.push(dataDir);
    let mode: unknown = 1;
    let checks = 0;
    let restarted = false;
    const reports: GatewayUpdateReport[] = [];
    const updater = new Updater({
      dataDir,
      gatewayId: gw.gatewayId,
      key: secret,
      serverUrl: server.url,
      version: '4.0.0',
      log: createLogger('warn'),
      report: (report) => {
        reports.push(report);
        void client?.publishAsync(gatewayTopics.update(gw.gatewayId), JSON.stringify(report));
        return true;
      },
      healthy: () => true,
      lastValue: (datastreamId) => {
        checks += 1;
        return datastreamId === modeStream ? mode : undefined;
      },
      restart: () => {
        restarted = true;
      },
    });
    try {
      updater.configured(config);
      // Downloaded and checked at once: the file lies beside the running version.
      const file = path.join(dataDir, 'versions', '5.0.0', 'agent.mjs');
      await expect.poll(() => fs.existsSync(file), { timeout: 30_000 }).toBe(true);
      const partState = async () => {
        const row = await server.db
          .selectFrom('models')
          .select('attributes')
          .where('type', '=', 'deployment_gateway')
          .where('parent_id', '=', deployment)
          .executeTakeFirstOrThrow();
        return (JSON.parse(row.attributes) as DeploymentGatewayAttributes).state;
      };
      await expect.poll(partState, { timeout: 15_000 }).toBe('downloading');
      // While the machine runs, nothing is installed: three idle checks pass by.
      await expect.poll(() => checks, { timeout: 30_000 }).toBeGreaterThanOrEqual(3);
      expect(restarted).toBe(false);
      expect(reports.map((r) => r.state)).toEqual(['downloading']);
      expect(await partState()).toBe('downloading');
      // Manual (2) is no idle either; Off (0) is.
      mode = 2;
      const before = checks;
      await expect.poll(() => checks, { timeout: 30_000 }).toBeGreaterThanOrEqual(before + 2);
      expect(restarted).toBe(false);
      mode = 0;
      await expect.poll(() => restarted, { timeout: 15_000 }).toBe(true);
      expect(reports.map((r) => r.state)).toEqual(['downloading', 'installing']);
      await expect.poll(partState, { timeout: 15_000 }).toBe('installing');
    } finally {
      updater.stop();
    }
  });
});
