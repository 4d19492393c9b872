import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, topics, type ModelUpdate, type SyncedModel } from '@plant/shared-schema';
import { DEMO_USERS } from '../seed/demo';
import { apiClient, dataOf } from '../testing/harness';
import { freePort } from '../testing/local-postgres';
import { nextMessage, signedIn, TestCluster, until } from '../testing/cluster';

/**
 * README "Running at scale": two processes behind Debian's nginx with the documented
 * configuration (deploy/nginx-plant.conf, only its ports changed). Requests and MQTT over
 * WebSocket go through nginx; a process stopped with SIGTERM leaves its clients to the other.
 */
const CONF = path.resolve(import.meta.dirname, '../../../deploy/nginx-plant.conf');

let cluster: TestCluster;
let nginx: ChildProcess;
let nginxExited: Promise<unknown>;
let dir = '';
let front = '';

function listening(port: number): Promise<void> {
  return until(
    'nginx to listen',
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

beforeAll(async () => {
  cluster = await TestCluster.create();
  const [portA, portB, portFront] = [await freePort(), await freePort(), await freePort()];
  await Promise.all([cluster.start(portA), cluster.start(portB)]);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plant-nginx-'));
  const documented = fs.readFileSync(CONF, 'utf8');
  const site = documented
    .replace('127.0.0.1:3001', `127.0.0.1:${portA}`)
    .replace('127.0.0.1:3002', `127.0.0.1:${portB}`)
    .replace('listen 8080;', `listen 127.0.0.1:${portFront};`);
  expect(site).not.toBe(documented);
  fs.writeFileSync(path.join(dir, 'plant.conf'), site);
  // The rest of a main configuration, as Debian's /etc/nginx/nginx.conf gives it, in the folder.
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
  nginx = spawn('/usr/sbin/nginx', ['-c', path.join(dir, 'nginx.conf'), '-g', 'daemon off;'], {
    stdio: 'ignore',
  });
  nginxExited = new Promise((resolve) => nginx.once('exit', resolve));
  await listening(portFront);
  front = `http://127.0.0.1:${portFront}`;
}, 120_000);

afterAll(async () => {
  if (nginx.exitCode === null) nginx.kill('SIGTERM');
  await nginxExited;
  await cluster.close();
  fs.rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe('two processes behind nginx (deploy/nginx-plant.conf)', () => {
  it('serve the API and MQTT over WebSocket through it, and keep serving when one stops', async () => {
    const api = await apiClient(front);
    const { token, user } = await signedIn(api, DEMO_USERS.admin);
    const browser = await cluster.browser(front, token, true);
    await browser.subscribeAsync(topics.modelUpdates(user.account));
    const renamedTo = (name: string) => (_topic: string, payload: Buffer) => {
      const update = JSON.parse(payload.toString()) as ModelUpdate;
      return update.attributes?.name === name ? update : undefined;
    };
    const first = nextMessage(browser, renamedTo('Through nginx'), 5_000);
    const created = await api.call('POST', apiPaths.collection('assets'), {
      token,
      json: { name: 'Through nginx' },
    });
    expect(created.status).toBe(201);
    await first;

    // One process stops as an operator stops it; its MQTT clients reconnect through nginx.
    const [stopping, staying] = cluster.processes;
    if (stopping === undefined || staying === undefined) throw new Error('two processes');
    stopping.process.child.kill('SIGTERM');
    expect(await stopping.process.exited).toBe(0);
    for (let i = 0; i < 10; i++) {
      expect((await api.call('GET', apiPaths.user(), { token })).status).toBe(200);
    }
    await until('the browser to reconnect', () =>
      Promise.resolve(browser.connected ? true : undefined),
    );
    await browser.subscribeAsync(topics.modelUpdates(user.account));
    const second = nextMessage(browser, renamedTo('After the stop'), 5_000);
    const id = dataOf<SyncedModel>(created).id;
    const renamed = await api.call('PUT', apiPaths.model('assets', id), {
      token,
      json: { name: 'After the stop' },
    });
    expect(renamed.status).toBe(200);
    await second;
    expect(staying.process.child.exitCode).toBeNull();
  }, 90_000);
});
