import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { signInDemoAdmin, startChild } from './lib';

const ROOT = path.resolve(import.meta.dirname, '..');
const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 200);
const MESSAGES = 300;
const EVERY_MS = Number(process.env.BENCH_EVERY_MS ?? 10);

export interface Result {
  readonly perSecond: number;
  readonly p50: number;
  readonly p95: number;
  readonly delivered: number;
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

async function waitForPort(port: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => {
        s.end();
        resolve(true);
      });
      s.on('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nothing listens on ${port}`);
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/**
 * Subscribers listen; `send(n)` makes message n happen (with its send time in `ts`). Delivered
 * per second counts every copy from the first send to the last arrival; latency is arrival minus
 * the message's ts, on this machine's one clock.
 */
export async function measure(
  subscribers: readonly MqttClient[],
  send: (n: number) => Promise<void>,
): Promise<Result> {
  const latencies: number[] = [];
  let last = 0;
  for (const c of subscribers) {
    c.on('message', (_t, payload) => {
      const now = Date.now();
      const msg = JSON.parse(payload.toString()) as { ts: number };
      latencies.push(now - msg.ts);
      last = now;
    });
  }
  const first = Date.now();
  for (let n = 0; n < MESSAGES; n++) {
    const due = first + n * EVERY_MS;
    const wait = due - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    await send(n);
  }
  const expected = MESSAGES * subscribers.length;
  const deadline = Date.now() + 15_000;
  while (latencies.length < expected && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 50));
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    perSecond: latencies.length / ((last - first) / 1000),
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    delivered: latencies.length / expected,
  };
}

export async function connectAll(
  url: string,
  options: (i: number) => mqtt.IClientOptions,
  topic: string,
  count = SUBSCRIBERS,
) {
  const clients: MqttClient[] = [];
  for (let i = 0; i < count; i++) {
    const c = await mqtt.connectAsync(url, {
      protocolVersion: 4,
      reconnectPeriod: 0,
      keepalive: 55,
      ...options(i),
    });
    await c.subscribeAsync(topic);
    clients.push(c);
  }
  return clients;
}

/**
 * One account's model updates to 200 WebSocket subscribers: ours (an API write per message,
 * published by the embedded broker after commit) against Debian's mosquitto with a websockets
 * listener on loopback, fed the same paced messages by an mqtt.js publisher.
 */
export async function benchFanout(): Promise<string[]> {
  try {
    execFileSync('which', ['mosquitto']);
  } catch {
    return ['fan-out: skipped, mosquitto is not installed (apt-get install -y mosquitto)'];
  }
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'plant-bench-fanout-'));
  const ours = await startChild(
    path.join(ROOT, 'server/src/main.ts'),
    { PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'info', SEED: 'demo' },
    /"msg":"server listening","url":"([^"]+)"/,
  );
  const mosquittoPort = await freePort();
  const conf = path.join(dataDir, 'mosquitto.conf');
  // mosquitto 2.0.11 exits when its only listener is a websockets one: a plain one goes first.
  // The websockets listener binds every address (libwebsockets ignores a host here).
  const plainPort = await freePort();
  await fs.writeFile(
    conf,
    `listener ${plainPort} 127.0.0.1\nlistener ${mosquittoPort}\nprotocol websockets\nallow_anonymous true\n`,
  );
  const mosquitto = spawn('mosquitto', ['-c', conf], { stdio: 'ignore' });
  const clients: MqttClient[] = [];
  try {
    await waitForPort(mosquittoPort);
    const api = `${ours.url}/api/v1`;
    const { headers, account } = await signInDemoAdmin(ours.url);
    const topic = `account/${account}/_modelupdates`;
    const created = (await (
      await fetch(`${api}/assets`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name: 'Fan-out' }),
      })
    ).json()) as { data: { id: string } };

    const creds: { username: string; clientid: string; password: string }[] = [];
    for (let i = 0; i < SUBSCRIBERS; i++) {
      const res = (await (
        await fetch(`${api}/user/browser/mqtt?browser_id=bench-${i}`, { headers })
      ).json()) as { data: (typeof creds)[number] };
      creds.push(res.data);
    }
    const oursClients = await connectAll(
      `${ours.url.replace('http', 'ws')}/mqtt`,
      (i) => ({
        clientId: creds[i]?.clientid ?? '',
        username: creds[i]?.username ?? '',
        password: creds[i]?.password ?? '',
      }),
      topic,
    );
    clients.push(...oursClients);
    const oursResult = await measure(oursClients, async (n) => {
      await fetch(`${api}/assets/${created.data.id}`, {
        method: 'PUT',
        headers,
        body: JSON.stringify({ name: `Fan-out ${n}` }),
      });
    });
    await Promise.all(oursClients.map((c) => c.endAsync(true)));

    const mosqUrl = `ws://127.0.0.1:${mosquittoPort}`;
    const mosqClients = await connectAll(mosqUrl, (i) => ({ clientId: `bench-${i}` }), topic);
    clients.push(...mosqClients);
    const publisher = await mqtt.connectAsync(mosqUrl, { protocolVersion: 4, reconnectPeriod: 0 });
    clients.push(publisher);
    const mosqResult = await measure(mosqClients, async (n) => {
      await publisher.publishAsync(
        topic,
        JSON.stringify({
          action: 'attributes_updated',
          type: 'asset',
          id: created.data.id,
          ts: Date.now(),
          seq: n,
          attributes: { name: `Fan-out ${n}` },
        }),
        { qos: 0 },
      );
    });

    const fmt = (r: Result) =>
      `${r.perSecond.toFixed(0)} msg/s delivered (${(r.delivered * 100).toFixed(1)}%), p50 ${r.p50} ms, p95 ${r.p95} ms`;
    return [
      `fan-out throughput: ${(oursResult.perSecond / mosqResult.perSecond).toFixed(2)} (ours/mosquitto) ` +
        `${SUBSCRIBERS} WebSocket subscribers, ${MESSAGES} messages at ${1000 / EVERY_MS}/s`,
      `fan-out p95 latency: ${(mosqResult.p95 / Math.max(1, oursResult.p95)).toFixed(2)} (mosquitto/ours, higher is better for us)`,
      `  ours (API write -> commit -> aedes): ${fmt(oursResult)}`,
      `  mosquitto (mqtt.js publisher):      ${fmt(mosqResult)}`,
    ];
  } finally {
    await Promise.all(clients.map((c) => c.endAsync(true).catch(() => undefined)));
    mosquitto.kill('SIGTERM');
    await ours.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}
