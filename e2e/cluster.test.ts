import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiPaths } from '@plant/shared-schema';
import { DEMO_USERS } from '../server/src/seed/demo';
import { dataOf } from '../server/src/testing/harness';
import { signedIn, TestCluster, type ClusterProcess } from '../server/src/testing/cluster';
import { launchProfile, type BrowserProfile } from './support/browser';
import { SyncPage } from './support/sync-page';
import { serveWithApi, type WebServer } from './support/web';

/**
 * Issue 14: the real worker in Chromium, served by one server process of two (Postgres and
 * Redis, globalSetup), sees a rename made through the other process within 2 s: through the
 * shared broker, not the missed-update poll (every 60 s).
 */
let cluster: TestCluster;
let a: ClusterProcess;
let b: ClusterProcess;
let web: WebServer;
let profile: BrowserProfile | undefined;

beforeAll(async () => {
  cluster = await TestCluster.create();
  [a, b] = await Promise.all([cluster.start(), cluster.start()]);
  web = await serveWithApi(inject('e2ePage'), a.url);
}, 120_000);

afterAll(async () => {
  await profile?.close().catch(() => undefined);
  await web.close();
  await cluster.close();
}, 60_000);

describe('a browser on one of two server processes', () => {
  it('sees a rename made through the other process within 2 s', async () => {
    const onA = await signedIn(a.api, DEMO_USERS.admin);
    const onB = await signedIn(b.api, DEMO_USERS.admin);
    const created = await b.api.call('POST', apiPaths.collection('assets'), {
      token: onB.token,
      json: { name: 'Made on B' },
    });
    expect(created.status).toBe(201);
    const id = dataOf<{ id: string }>(created).id;

    profile = await launchProfile();
    const tab = await SyncPage.open(profile.context, web.url);
    await tab.start({ token: onA.token, userId: onA.user.id, accountId: onA.user.account });
    await tab.waitUntilBootstrapped();
    await tab.watch('assets', { type: 'asset', limit: 1000 });
    await tab.waitUntilSeen('assets', id, 'Made on B');
    await tab.waitUntilLive();

    const sentAt = Date.now();
    const renamed = await b.api.call('PUT', apiPaths.model('assets', id), {
      token: onB.token,
      json: { name: 'Renamed on B' },
    });
    expect(renamed.status).toBe(200);
    const seenAt = await tab.waitUntilSeen('assets', id, 'Renamed on B');
    expect(seenAt - sentAt).toBeLessThan(2_000);
  });
});
