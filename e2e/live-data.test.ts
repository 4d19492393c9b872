import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiPaths } from '@plant/shared-schema';
import { dataOf } from '../server/src/testing/harness';
import { DEMO_USERS } from '../server/src/seed/demo';
import { E2e } from './support/fixture';

let e2e: E2e;

beforeAll(async () => {
  e2e = await E2e.start(inject('e2ePage'));
});
afterAll(() => e2e.close());

describe('the real worker on real IndexedDB', () => {
  it("bootstraps the admin's account and shows another client's new asset without a reload", async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const browser = await e2e.browser();
    const tab = await e2e.open(browser);
    await tab.start(admin);
    await tab.waitUntilBootstrapped();
    await tab.watch('assets', { type: 'asset', limit: 1000 });

    const server = await e2e.serverModels(admin.accountId, 'asset');
    expect(server.length).toBeGreaterThan(0);
    const names = (items: readonly { id: string; attributes: Record<string, unknown> }[]) =>
      items.map((a) => `${a.id}=${String(a.attributes.name)}`).sort();
    await expect
      .poll(async () => names((await tab.watched('assets')).latest?.items ?? []))
      .toEqual(names(server));
    expect((await tab.watched('assets')).latest?.total).toBe(server.length);

    await tab.waitUntilLive();
    const created = dataOf<{ id: string }>(
      await e2e.server.call('POST', apiPaths.collection('assets'), {
        token: (await e2e.session(DEMO_USERS.admin)).token,
        json: { name: 'Made by another client' },
      }),
    );
    await tab.waitUntilSeen('assets', created.id, 'Made by another client');
    expect((await tab.watched('assets')).latest?.total).toBe(server.length + 1);
    expect(await tab.get('asset', created.id)).toMatchObject({
      attributes: { name: 'Made by another client' },
      pending: false,
    });
  });
});
