import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, topics, type ModelUpdate, type SyncedModel } from '@plant/shared-schema';
import { DEMO_USERS } from '../seed/demo';
import { apiClient, dataOf } from '../testing/harness';
import { freePort } from '../testing/local-postgres';
import { nextMessage, signedIn, startNginx, TestCluster, until } from '../testing/cluster';

/**
 * README "Running at scale": two processes behind Debian's nginx with the documented
 * configuration (deploy/nginx-plant.conf, only its ports changed). Requests and MQTT over
 * WebSocket go through nginx; a process stopped with SIGTERM leaves its clients to the other.
 */
let cluster: TestCluster;
let nginx: { url: string; stop(): Promise<void> };
let front = '';

beforeAll(async () => {
  cluster = await TestCluster.create();
  const [portA, portB] = [await freePort(), await freePort()];
  await Promise.all([cluster.start(portA), cluster.start(portB)]);
  nginx = await startNginx([portA, portB]);
  front = nginx.url;
}, 120_000);

afterAll(async () => {
  await nginx.stop();
  await cluster.close();
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
