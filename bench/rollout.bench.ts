import { createHash, createPublicKey, randomBytes, verify } from 'node:crypto';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import type { MqttClient } from 'mqtt';
import {
  API_BASE,
  apiPaths,
  gatewayBrokerLogin,
  gatewayConfigSchema,
  gatewayTopics,
  releaseSigningText,
  type DeploymentGatewayAttributes,
  type GatewayConfig,
  type SyncedModel,
  uuidv7,
} from '@plant/shared-schema';
import { DEMO_USERS } from '../server/src/seed/demo';
import { connectGateway, makeGatewayCredentials } from '../server/src/testing/gateway-client';
import { dataOf, startTestServer, type TestServer } from '../server/src/testing/harness';
import { uploadArtifact } from '../server/src/testing/release-upload';
import { median } from './lib';

const GATEWAYS = Number(process.env.BENCH_ROLLOUT_GATEWAYS ?? 50);
const BATCH = Number(process.env.BENCH_ROLLOUT_BATCH ?? 10);
const SIZE = Number(process.env.BENCH_ROLLOUT_KB ?? 2048) * 1024;
/** Each simulated gateway's link to the server (a plant's uplink), bytes per second. */
const LINK = Number(process.env.BENCH_ROLLOUT_LINK_KBPS ?? 8192) * 1024;
const ROUNDS = Number(process.env.BENCH_ROLLOUT_ROUNDS ?? 2);

/**
 * Reads a download as a gateway behind a link of LINK bytes per second would: each chunk when the
 * link would have delivered it. Answers the bytes' SHA-256.
 */
async function throughLink(answer: Response): Promise<{ sha256: string; size: number }> {
  if (!answer.ok || answer.body === null) throw new Error(`download: ${answer.status}`);
  const hash = createHash('sha256');
  const started = performance.now();
  let size = 0;
  for await (const chunk of answer.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    hash.update(chunk);
    const due = started + (size / LINK) * 1000;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
  return { sha256: hash.digest('hex'), size };
}

/**
 * A gateway as the bench plays it: its own broker login and configuration; offered a version, it
 * does what the agent does (updater.ts): reports downloading, downloads with its own login through
 * its link, checks the SHA-256 and the Ed25519 signature with the release key it was given,
 * reports installing, and (the restart into it taken as instant) succeeded.
 */
async function simulatedGateway(s: TestServer, admin: string, id: string) {
  const { secret } = await makeGatewayCredentials(s, admin, id);
  const client: MqttClient = await connectGateway(s, id, secret);
  const done = new Set<string>();
  const report = (deployment: string, state: string, version: string, message: string | null) =>
    client.publishAsync(
      gatewayTopics.update(id),
      JSON.stringify({ deployment_id: deployment, state, version, message }),
    );
  const update = async (config: GatewayConfig) => {
    const wanted = config.update;
    if (wanted === null || done.has(wanted.deployment_id)) return;
    done.add(wanted.deployment_id);
    await report(wanted.deployment_id, 'downloading', '1.0.0', null);
    const login = Buffer.from(`${gatewayBrokerLogin(id).username}:${secret}`).toString('base64');
    const got = await throughLink(
      await fetch(`${s.url}${API_BASE}/${wanted.artifact_path}`, {
        headers: { Authorization: `Basic ${login}` },
      }),
    );
    const key = config.release_key;
    const signed =
      key !== null &&
      verify(
        null,
        Buffer.from(
          releaseSigningText({
            accountId: wanted.account_id,
            id: wanted.release_id,
            target: wanted.target,
            name: wanted.name,
            version: wanted.version,
            sha256: wanted.sha256,
          }),
        ),
        createPublicKey({
          key: Buffer.from(key.public_key, 'base64'),
          format: 'der',
          type: 'spki',
        }),
        Buffer.from(wanted.signature, 'base64'),
      );
    if (got.sha256 !== wanted.sha256 || got.size !== wanted.size || !signed) {
      await report(wanted.deployment_id, 'failed', '1.0.0', 'checks failed');
      return;
    }
    await report(wanted.deployment_id, 'installing', '1.0.0', null);
    await report(wanted.deployment_id, 'succeeded', wanted.version, null);
  };
  client.on('message', (topic, payload) => {
    if (topic !== gatewayTopics.config(id) || payload.length === 0) return;
    void update(gatewayConfigSchema.parse(JSON.parse(payload.toString())));
  });
  await client.subscribeAsync(gatewayTopics.config(id));
  return client;
}

/**
 * Issue 35: one released agent version rolled out to 50 simulated gateways (batches of 10, each
 * gateway behind its own link, the real server's configuration, artifact route, reports and
 * rollout), from the rollout made to all succeeded, vs the same 50 downloads through the same
 * links one after another from a bare file route, without any check. Batches running in parallel
 * make it the smaller: goal at most 0.5.
 */
export async function benchRollout(): Promise<string[]> {
  const bytes = randomBytes(SIZE);
  const bare = new Hono();
  bare.get('/artifact', () => new Response(bytes));
  const plain = await new Promise<{ url: string; close: () => void }>((resolve) => {
    const server = serve({ fetch: bare.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
      resolve({ url: `http://127.0.0.1:${info.port}`, close: () => server.close() }),
    );
  });
  const s = await startTestServer();
  const clients: MqttClient[] = [];
  try {
    const admin = await s.signIn(DEMO_USERS.admin);
    const ids: string[] = [];
    for (let i = 0; i < GATEWAYS; i++) {
      const made = await s.call('POST', apiPaths.collection('gateways'), {
        token: admin,
        json: { name: `Bench gateway ${String(i + 1).padStart(2, '0')}` },
      });
      const id = dataOf<SyncedModel>(made).id;
      ids.push(id);
      clients.push(await simulatedGateway(s, admin, id));
    }

    const rollout = async (round: number): Promise<number> => {
      const releaseId = uuidv7();
      const version = `2.0.${round}`;
      await s.call('POST', apiPaths.collection('releases'), {
        token: admin,
        json: { id: releaseId, target: 'agent', name: 'Gateway agent', version },
      });
      // Each round's file differs (a stored file's bytes would be shared).
      const file = Buffer.concat([bytes.subarray(0, SIZE - 8), randomBytes(8)]);
      const fileId = await uploadArtifact(s, admin, releaseId, file);
      await s.call('PUT', apiPaths.model('releases', releaseId), {
        token: admin,
        json: { artifact_file_id: fileId, state: 'released' },
      });
      const started = performance.now();
      const made = await s.call('POST', apiPaths.collection('deployments'), {
        token: admin,
        json: {
          release_id: releaseId,
          targets: { kind: 'list', gateway_ids: ids },
          batch_size: BATCH,
          max_failure_rate: 0.2,
        },
      });
      if (made.status !== 201) throw new Error(`rollout: ${made.text}`);
      const deployment = dataOf<SyncedModel>(made).id;
      for (;;) {
        const rows = await s.db
          .selectFrom('models')
          .select('attributes')
          .where('type', '=', 'deployment_gateway')
          .where('parent_id', '=', deployment)
          .execute();
        const states = rows.map(
          (r) => (JSON.parse(r.attributes) as DeploymentGatewayAttributes).state,
        );
        if (states.some((st) => st === 'failed' || st === 'rolled_back'))
          throw new Error('a simulated gateway failed its checks');
        if (states.length === GATEWAYS && states.every((st) => st === 'succeeded')) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return performance.now() - started;
    };
    const sequential = async (): Promise<number> => {
      const started = performance.now();
      for (let i = 0; i < GATEWAYS; i++) await throughLink(await fetch(`${plain.url}/artifact`));
      return performance.now() - started;
    };

    const ours: number[] = [];
    const baseline: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      ours.push(await rollout(round));
      baseline.push(await sequential());
    }
    const o = median(ours);
    const b = median(baseline);
    const mb = (SIZE / 1024 / 1024).toFixed(1);
    const link = ((LINK * 8) / 1e6).toFixed(0);
    return [
      `rollout: ${(o / b).toFixed(2)} (rollout to ${GATEWAYS} gateways in batches of ${BATCH}, ${mb} MB each over ${link} Mbit/s links, to all succeeded ${o.toFixed(0)} ms / the same downloads one after another without checks ${b.toFixed(0)} ms; goal at most 0.5)`,
    ];
  } finally {
    for (const client of clients) await client.endAsync();
    await s.close();
    plain.close();
  }
}
