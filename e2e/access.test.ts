import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiPaths, type SyncedModel } from '@plant/shared-schema';
import { AssetAccessRepository } from '../server/src/repositories/asset-access.repository';
import { DEMO_USERS, TECHNICIAN_MACHINES } from '../server/src/seed/demo';
import { roleId } from '../server/src/testing/access';
import { dataOf } from '../server/src/testing/harness';
import { encodeNamePart } from '../sync-worker/src/store/database-name';
import { E2e } from './support/fixture';

/*
 * Access per asset and field in the browser (DESIGN.md §10): the real worker in Chromium of the
 * demo technician, whose role sees four of the twelve machines and no description, holds in
 * IndexedDB exactly those machines with their groups and streams, and not one description.
 */
let e2e: E2e;

beforeAll(async () => {
  e2e = await E2e.start(inject('e2ePage'));
});
afterAll(() => e2e.close());

describe('access per asset in the browser', () => {
  it("the technician's store holds exactly the machines given to its role, and no hidden field", async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const everything = dataOf<{ models: SyncedModel[] }>(
      await e2e.server.call('GET', apiPaths.snapshot(undefined, 2000), { token: admin.token }),
    ).models;
    const technician = await roleId(e2e.server.db, admin.accountId, 'technician');
    const given = new Set(
      (
        await e2e.server.db
          .selectFrom('role_assets')
          .select('asset_id')
          .where('role_id', '=', technician)
          .execute()
      ).map((r) => r.asset_id),
    );
    expect(given.size).toBe(TECHNICIAN_MACHINES);

    const tech = await e2e.session(DEMO_USERS.tech);
    const browser = await e2e.browser();
    const tab = await e2e.open(browser);
    await tab.start(tech);
    await tab.waitUntilBootstrapped();
    const stored = await tab.storedModels(encodeNamePart(tech.userId));
    const storedAssets = stored.filter((d) => d.type === 'asset');
    expect(storedAssets.map((d) => d.id).sort()).toEqual([...given].sort());
    const expectedUnder = everything
      .filter(
        (m) =>
          (m.type === 'datastreamgroup' || m.type === 'datastream') &&
          given.has(String(m.attributes.asset_id)),
      )
      .map((m) => m.id)
      .sort();
    expect(
      stored
        .filter((d) => d.type === 'datastreamgroup' || d.type === 'datastream')
        .map((d) => d.id)
        .sort(),
    ).toEqual(expectedUnder);
    for (const doc of storedAssets) expect(doc.server).not.toHaveProperty('description');
    const hiddenNames = everything
      .filter((m) => m.type === 'asset' && !given.has(m.id))
      .map((m) => String(m.attributes.name));
    // The twelve machines and the demo smartphone, less those given.
    expect(hiddenNames).toHaveLength(13 - TECHNICIAN_MACHINES);
    const disk = JSON.stringify(stored);
    for (const name of hiddenNames) expect(disk).not.toContain(name);
    expect(disk).not.toContain('demo machine with live data streams');

    // A change of a machine it does not see reaches it as a stand-in: nothing of it is stored,
    // and the store stays in step (a later visible change still applies).
    const hidden = everything.find((m) => m.type === 'asset' && !given.has(m.id));
    const visible = everything.find((m) => m.type === 'asset' && given.has(m.id));
    if (hidden === undefined || visible === undefined) throw new Error('demo machines missing');
    await e2e.server.call('PUT', apiPaths.model('assets', hidden.id), {
      token: admin.token,
      json: { name: 'Renamed where the technician cannot see' },
    });
    await e2e.server.call('PUT', apiPaths.model('assets', visible.id), {
      token: admin.token,
      json: { name: 'Renamed for the technician', description: 'Not for the technician' },
    });
    await expect
      .poll(async () => (await tab.get('asset', visible.id))?.attributes.name)
      .toBe('Renamed for the technician');
    const after = JSON.stringify(await tab.storedModels(encodeNamePart(tech.userId)));
    expect(after).not.toContain('Renamed where the technician cannot see');
    expect(after).not.toContain('Not for the technician');
  });

  it('an asset given while the technician is online appears without a reload; taken away, it goes', async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const everything = dataOf<{ models: SyncedModel[] }>(
      await e2e.server.call('GET', apiPaths.snapshot(undefined, 2000), { token: admin.token }),
    ).models;
    const technician = await roleId(e2e.server.db, admin.accountId, 'technician');
    const givenNow = everything.find(
      (m) => m.type === 'asset' && m.attributes.name === 'Welding robot W7',
    );
    if (givenNow === undefined) throw new Error('no Welding robot W7');
    const streams = everything.filter(
      (m) => m.type === 'datastream' && m.attributes.asset_id === givenNow.id,
    );
    expect(streams.length).toBeGreaterThan(0);

    const tech = await e2e.session(DEMO_USERS.tech);
    const tab = await e2e.open(await e2e.browser());
    await tab.start(tech);
    await tab.waitUntilBootstrapped();
    await tab.waitUntilLive();
    expect(await tab.get('asset', givenNow.id)).toBeNull();

    const grants = new AssetAccessRepository(e2e.server.db);
    await grants.grant(admin.accountId, technician, givenNow.id, false);
    await e2e.server.broker.refreshAccess();
    await expect
      .poll(async () => (await tab.get('asset', givenNow.id))?.attributes.name)
      .toBe('Welding robot W7');
    await expect
      .poll(async () => (await tab.get('datastream', streams[0]?.id ?? ''))?.id)
      .toBe(streams[0]?.id);

    await grants.revoke(admin.accountId, technician, givenNow.id);
    await e2e.server.broker.refreshAccess();
    await expect.poll(async () => tab.get('asset', givenNow.id)).toBeNull();
    await expect.poll(async () => tab.get('datastream', streams[0]?.id ?? '')).toBeNull();
    const disk = JSON.stringify(await tab.storedModels(encodeNamePart(tech.userId)));
    expect(disk).not.toContain(givenNow.id);
  });
});
