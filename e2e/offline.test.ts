import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_USERS } from '../server/src/seed/demo';
import { E2e } from './support/fixture';

let e2e: E2e;

beforeAll(async () => {
  e2e = await E2e.start(inject('e2ePage'));
});
afterAll(() => e2e.close());

const CREATES = 40;
const RENAMES = 10;

describe('offline writes in the browser', () => {
  it('50 writes made offline survive a reload while offline and reach the server once each', async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const browser = await e2e.browser();
    const tab = await e2e.open(browser);
    await tab.start(admin);
    await tab.waitUntilBootstrapped();
    await tab.waitUntilLive();
    const seeded = await e2e.serverModels(admin.accountId, 'asset');
    const renamed = Array.from({ length: RENAMES }, (_, i) => {
      const asset = seeded[i % seeded.length];
      if (asset === undefined) throw new Error('the demo account has no assets');
      return asset.id;
    });

    e2e.offline();
    await tab.page.waitForFunction(() => window.plant.status?.connection.name !== 'connected');
    const created: string[] = [];
    for (let i = 0; i < CREATES; i++) {
      created.push((await tab.create('asset', { name: `Offline ${i}` })).id);
    }
    // A renamed asset may come more than once: each rename is its own write.
    for (const [i, id] of renamed.entries())
      await tab.update('asset', id, { name: `Renamed ${i}` });
    // The worker tries to send and finds no server: the writes stay pending, not failed.
    await expect
      .poll(async () => (await tab.writes()).filter((w) => w.attempts > 0).length)
      .toBeGreaterThan(0);
    const made = await tab.writes();
    expect(made).toHaveLength(CREATES + RENAMES);
    expect(made.every((w) => w.state === 'pending' || w.state === 'sending')).toBe(true);
    expect(made.find((w) => w.attempts > 0)?.error).toBe('Failed to fetch');

    // Reload while still offline: a new page and a new worker find everything in IndexedDB.
    await tab.reload();
    await tab.start(admin);
    const kept = await tab.writes();
    expect(kept.map((w) => w.mutationId)).toEqual(made.map((w) => w.mutationId));
    for (const [i, id] of created.entries()) {
      expect(await tab.get('asset', id)).toMatchObject({
        attributes: { name: `Offline ${i}` },
        pending: true,
      });
    }
    const lastName = new Map(renamed.map((id, i) => [id, `Renamed ${i}`]));
    for (const [id, name] of lastName) {
      expect(await tab.get('asset', id)).toMatchObject({ attributes: { name }, pending: true });
    }
    expect(await e2e.serverModels(admin.accountId, 'asset')).toHaveLength(seeded.length);

    e2e.online();
    await tab.waitForPendingWrites(0);
    expect(await tab.writes()).toEqual([]);

    // On the server exactly once: one row per created asset, one log entry per write.
    const server = new Map(
      (await e2e.serverModels(admin.accountId, 'asset')).map((a) => [a.id, a.attributes]),
    );
    expect(server.size).toBe(seeded.length + CREATES);
    for (const [i, id] of created.entries()) expect(server.get(id)?.name).toBe(`Offline ${i}`);
    for (const [id, name] of lastName) expect(server.get(id)?.name).toBe(name);
    const log = await e2e.serverLog(admin.accountId);
    for (const id of created) {
      expect(log.filter((m) => m.action === 'updated' && m.id === id)).toHaveLength(1);
    }
    for (const [i, id] of renamed.entries()) {
      const renames = log.filter(
        (m) =>
          m.action === 'attributes_updated' && m.id === id && m.attributes?.name === `Renamed ${i}`,
      );
      expect(renames).toHaveLength(1);
    }
    const applied = await e2e.server.db
      .selectFrom('applied_mutations')
      .select('mutation_id')
      .where(
        'mutation_id',
        'in',
        made.map((w) => w.mutationId),
      )
      .execute();
    expect(applied).toHaveLength(CREATES + RENAMES);
    for (const id of created) {
      expect(await tab.get('asset', id)).toMatchObject({ pending: false });
    }
  });
});
