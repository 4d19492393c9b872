import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { apiPaths, TIMINGS, uuidv7 } from '@plant/shared-schema';
import { apiClient, dataOf } from './harness';
import { createTestDatabase, freePort } from './local-postgres';
import type { Creds } from './mqtt-client';
import { startServerProcess, type ServerProcess } from './server-process';

/** One server process of a test cluster, with a client of its API. */
export interface ClusterProcess {
  readonly process: ServerProcess;
  readonly url: string;
  readonly api: Awaited<ReturnType<typeof apiClient>>;
}

/**
 * Server processes on one Postgres database and one Redis (issue 14), each the real entry point
 * in a child process on its own port, for the cluster tests (the `server-postgres` project's
 * globalSetup starts both services). `close()` stops the processes, ends the MQTT clients and
 * drops the database.
 */
export class TestCluster {
  readonly processes: ClusterProcess[] = [];
  private readonly clients: MqttClient[] = [];
  private readonly dirs: string[] = [];

  private constructor(
    readonly databaseUrl: string,
    private readonly dropDatabase: () => Promise<void>,
    private readonly env: Record<string, string>,
  ) {}

  /** `env`: added to every process's environment (CLUSTER_HEARTBEAT_MS, …). */
  static async create(env: Record<string, string> = {}): Promise<TestCluster> {
    const admin = process.env.PLANT_TEST_POSTGRES_URL;
    if (admin === undefined) throw new Error('PLANT_TEST_POSTGRES_URL is not set');
    const made = await createTestDatabase(admin);
    return new TestCluster(made.url, () => made.drop(), env);
  }

  /**
   * Starts one more process; `port` fixes its port (a load balancer's upstream), `env` adds to
   * its environment (SMTP_URL, …).
   */
  async start(port = 0, env: Record<string, string> = {}): Promise<ClusterProcess> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plant-cluster-'));
    this.dirs.push(dataDir);
    const redis = process.env.PLANT_TEST_REDIS_URL;
    if (redis === undefined) throw new Error('PLANT_TEST_REDIS_URL is not set');
    const p = await startServerProcess({
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: this.databaseUrl,
      REDIS_URL: redis,
      CLIENT_DIR: path.join(dataDir, 'no-client'),
      ...this.env,
      ...env,
    });
    const url = await p.listening();
    const started = { process: p, url, api: await apiClient(url) };
    this.processes.push(started);
    return started;
  }

  /** A MQTT client signed in like a browser, at `baseUrl`'s /mqtt (a process or a balancer). */
  async browser(baseUrl: string, token: string, reconnect = false): Promise<MqttClient> {
    const api = await apiClient(baseUrl);
    const creds = dataOf<Creds>(
      await api.call('GET', apiPaths.browserMqtt(`browser-${uuidv7()}`), { token }),
    );
    const client = await mqtt.connectAsync(`${baseUrl.replace('http', 'ws')}/mqtt`, {
      protocolVersion: 4,
      clientId: creds.clientid,
      username: creds.username,
      password: creds.password,
      keepalive: TIMINGS.brokerKeepaliveS,
      reconnectPeriod: reconnect ? 200 : 0,
      connectTimeout: 10_000,
    });
    this.clients.push(client);
    return client;
  }

  async close(): Promise<void> {
    await Promise.all(this.clients.splice(0).map((c) => c.endAsync(true)));
    for (const r of this.processes) {
      if (r.process.child.exitCode === null) r.process.child.kill('SIGTERM');
      await r.process.exited;
    }
    await this.dropDatabase();
    for (const dir of this.dirs) fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Signs in at a process (or a balancer) and answers the token and the user. */
export async function signedIn(api: ClusterProcess['api'], email: string) {
  const token = await api.signIn(email);
  const user = dataOf<{ id: string; account: string }>(
    await api.call('GET', apiPaths.user(), { token }),
  );
  return { token, user };
}

/** Resolves with the first message `accept` takes, or fails after `ms`. */
export function nextMessage<T>(
  client: MqttClient,
  accept: (topic: string, payload: Buffer) => T | undefined,
  ms: number,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      client.off('message', onMessage);
      reject(new Error(`no matching message within ${ms} ms`));
    }, ms);
    const onMessage = (topic: string, payload: Buffer) => {
      const value = accept(topic, payload);
      if (value === undefined) return;
      clearTimeout(timer);
      client.off('message', onMessage);
      resolve(value);
    };
    client.on('message', onMessage);
  });
}

/** Polls `check` until it answers something (or fails after `ms`). */
export async function until<T>(
  what: string,
  check: () => Promise<T | undefined>,
  ms = 30_000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The documented load-balancer configuration (README "Running at scale"). */
export const NGINX_CONF = path.resolve(import.meta.dirname, '../../../deploy/nginx-plant.conf');

/** Resolves once something accepts TCP connections on the port. */
function accepting(port: number): Promise<void> {
  return until(
    'a listener',
    () =>
      new Promise<true | undefined>((resolve) => {
        const socket = net.connect(port, '127.0.0.1');
        socket.once('connect', () => {
          socket.destroy();
          resolve(true);
        });
        socket.once('error', () => resolve(undefined));
      }),
  ).then(() => undefined);
}

/**
 * Debian's nginx in front of two processes, with deploy/nginx-plant.conf as documented (only its
 * ports changed) and the rest of a main configuration in a temp folder.
 */
export async function startNginx(
  upstreams: readonly [number, number],
): Promise<{ url: string; stop(): Promise<void> }> {
  const front = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plant-nginx-'));
  const documented = fs.readFileSync(NGINX_CONF, 'utf8');
  const site = documented
    .replace('127.0.0.1:3001', `127.0.0.1:${upstreams[0]}`)
    .replace('127.0.0.1:3002', `127.0.0.1:${upstreams[1]}`)
    .replace('listen 8080;', `listen 127.0.0.1:${front};`);
  if (site === documented) throw new Error('the documented configuration changed its ports');
  fs.writeFileSync(path.join(dir, 'plant.conf'), site);
  const temp = (name: string) => `${name}_temp_path ${path.join(dir, name)};`;
  fs.writeFileSync(
    path.join(dir, 'nginx.conf'),
    [
      ...(process.getuid?.() === 0 ? ['user root;'] : []),
      'worker_processes 1;',
      `pid ${path.join(dir, 'nginx.pid')};`,
      `error_log ${path.join(dir, 'error.log')};`,
      'events { worker_connections 512; }',
      'http {',
      '  access_log off;',
      `  ${temp('client_body')} ${temp('proxy')} ${temp('fastcgi')} ${temp('uwsgi')} ${temp('scgi')}`,
      `  include ${path.join(dir, 'plant.conf')};`,
      '}',
    ].join('\n'),
  );
  const nginx = spawn(
    '/usr/sbin/nginx',
    ['-c', path.join(dir, 'nginx.conf'), '-g', 'daemon off;'],
    {
      stdio: 'ignore',
    },
  );
  const exited = new Promise((resolve) => nginx.once('exit', resolve));
  await accepting(front);
  return {
    url: `http://127.0.0.1:${front}`,
    stop: async () => {
      if (nginx.exitCode === null) nginx.kill('SIGTERM');
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
