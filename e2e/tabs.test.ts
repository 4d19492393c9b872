import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiPaths } from '@plant/shared-schema';
import { dataOf } from '../server/src/testing/harness';
import { DEMO_USERS } from '../server/src/seed/demo';
import { storeName } from '../sync-worker/src/store/database-name';
import { storeWriteLockName } from '../sync-worker/src/store/write-queue';
import { E2e } from './support/fixture';
import type { SyncPage } from './support/sync-page';

let e2e: E2e;

beforeAll(async () => {
  e2e = await E2e.start(inject('e2ePage'));
});
afterAll(() => e2e.close());

describe('several tabs of one user and account', () => {
  it('one leader; followers write through it; leadership moves and no write is lost', async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const browser = await e2e.browser();
    const serverName = async (id: string) =>
      (await e2e.serverModels(admin.accountId, 'asset')).find((a) => a.id === id)?.attributes.name;
    const createElsewhere = async (name: string) =>
      dataOf<{ id: string }>(
        await e2e.server.call('POST', apiPaths.collection('assets'), {
          token: admin.token,
          json: { name },
        }),
      ).id;
    const openTab = async () => {
      const tab = await e2e.open(browser);
      await tab.start(admin);
      await tab.watch('assets', { type: 'asset', limit: 1000 });
      return tab;
    };
    const leaders = async (tabs: readonly SyncPage[]) =>
      (await Promise.all(tabs.map((t) => t.status()))).map((s) => s?.leader === true);

    const first = await openTab();
    await first.waitUntilLeader();
    await first.waitUntilBootstrapped();
    await first.waitUntilLive();
    const second = await openTab();
    expect(await second.status()).toMatchObject({ started: true, leader: false });
    expect(await leaders([first, second])).toEqual([true, false]);

    // The follower reads the store the leader keeps up to date.
    const elsewhere = await createElsewhere('Made elsewhere, seen by both');
    await first.waitUntilSeen('assets', elsewhere, 'Made elsewhere, seen by both');
    await second.waitUntilSeen('assets', elsewhere, 'Made elsewhere, seen by both');
    // What the follower's sync indicator shows: synced through the leading tab.
    await expect
      .poll(async () => {
        const s = await second.status();
        return [s?.connection.name, s?.bootstrap.name, typeof s?.lastSyncedAt];
      })
      .toEqual(['follower', 'done', 'number']);

    // A write in the follower goes into the shared outbox; the leader sends it.
    const fromFollower = await second.create('asset', { name: 'From the follower' });
    await expect.poll(() => serverName(fromFollower.id)).toBe('From the follower');
    await expect
      .poll(async () => (await second.get('asset', fromFollower.id))?.pending)
      .toBe(false);
    await second.waitForPendingWrites(0);
    expect(await leaders([first, second])).toEqual([true, false]);

    // The leader closes: the follower takes over and keeps syncing both ways.
    await first.close();
    await second.waitUntilLeader();
    await second.waitUntilLive();
    const later = await createElsewhere('Made after the leader closed');
    await second.waitUntilSeen('assets', later, 'Made after the leader closed');
    const fromNewLeader = await second.create('asset', { name: 'From the new leader' });
    await expect.poll(() => serverName(fromNewLeader.id)).toBe('From the new leader');

    // Tabs that write and close while the server is unreachable, so that nothing can have been
    // sent before they closed. A follower's write: the leader sends it.
    const third = await openTab();
    expect(await leaders([second, third])).toEqual([true, false]);
    e2e.offline();
    const orphan = await third.create('asset', { name: 'Written in a tab that closed' });
    await third.close();
    e2e.online();
    await expect.poll(() => serverName(orphan.id)).toBe('Written in a tab that closed');

    // The leader's own write: the next leader sends it.
    const fourth = await openTab();
    expect(await leaders([second, fourth])).toEqual([true, false]);
    e2e.offline();
    const unsent = await second.create('asset', { name: 'Written by a leader that closed' });
    await second.close();
    await fourth.waitUntilLeader();
    expect(await serverName(unsent.id)).toBeUndefined();
    e2e.online();
    await expect.poll(() => serverName(unsent.id)).toBe('Written by a leader that closed');
    await fourth.waitForPendingWrites(0);

    const log = await e2e.serverLog(admin.accountId);
    for (const { id } of [fromFollower, fromNewLeader, orphan, unsent]) {
      expect(log.filter((m) => m.action === 'updated' && m.id === id)).toHaveLength(1);
    }
  });

  it("tabs' store writes take turns: a write waits while another tab holds the store", async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const browser = await e2e.browser();
    const writer = await e2e.open(browser);
    await writer.start(admin);
    await writer.waitUntilBootstrapped();
    await writer.waitForPendingWrites(0);
    // Another tab of the origin takes the store's write lock, as its worker does for each write.
    const holder = await e2e.open(browser);
    const lock = storeWriteLockName(storeName(admin.userId, admin.accountId));
    // Page code as a string: the test's transform would add helpers the page does not have.
    await holder.page.evaluate(`new Promise((held) => {
      navigator.locks.request(${JSON.stringify(lock)}, () => {
        held();
        return new Promise((release) => { window.releaseStore = release; });
      });
    })`);

    let created = false;
    const creating = writer.create('asset', { name: 'Written after the other tab' }).then((r) => {
      created = true;
      return r;
    });
    // The write is queued behind the other tab: nothing is in the outbox yet (the status counts
    // it from a live query, which does not queue).
    await expect
      .poll(async () =>
        (await writer.page.evaluate(() => navigator.locks.query())).pending?.map((l) => l.name),
      )
      .toContain(lock);
    expect(created).toBe(false);
    expect((await writer.status())?.pendingWrites).toBe(0);

    await holder.page.evaluate('window.releaseStore()');
    const { id } = await creating;
    expect((await writer.get('asset', id))?.attributes).toMatchObject({
      name: 'Written after the other tab',
    });
    await writer.waitForPendingWrites(0);
  });
});
