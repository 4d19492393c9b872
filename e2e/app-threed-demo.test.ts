import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { AssetAttributes, HotspotAttributes } from '@plant/shared-schema';
import { DEMO_USERS } from '../server/src/seed/demo';
import { DEMO_SCENE } from '../server/src/seed/demo-scene';
import { linkedAgent } from '../server/src/testing/gateway-client';
import { E2e } from './support/fixture';
import { drawnPixels } from './support/pages/threed';

/*
 * Issue 32 item 8, as a new user meets it: on a fresh demo start the first machine's scene draws
 * the model the seed built, with its two hotspots, and the motor's shows the machine's motor
 * temperature live (a value sent by the machine's gateway appears on it).
 */
let e2e: E2e;

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'), { demoScene: true });
});
afterAll(async () => {
  await e2e.close();
});

describe('the demo scene', () => {
  it('draws the seeded model with its two hotspots, the motor’s value live', async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    // Processed in the background after the seed: ready before the scene draws it.
    await expect
      .poll(
        async () =>
          (await e2e.serverModels(admin.accountId, 'threedmodel')).find(
            (m) => m.attributes.name === DEMO_SCENE.model,
          )?.attributes.state,
        { timeout: 120_000, interval: 250 },
      )
      .toBe('ready');
    const scene = (await e2e.serverModels(admin.accountId, 'scene')).find(
      (m) => m.attributes.name === DEMO_SCENE.name,
    );
    const assetId = scene?.attributes.asset_id as string;
    const motor = (await e2e.serverModels(admin.accountId, 'hotspot')).find(
      (m) => m.attributes.name === DEMO_SCENE.motor,
    )?.attributes as HotspotAttributes | undefined;
    const stream = (motor?.metadata[0] as { datastream_id?: string } | undefined)?.datastream_id;
    const asset = (await e2e.serverModels(admin.accountId, 'asset')).find((m) => m.id === assetId)
      ?.attributes as AssetAttributes | undefined;

    const tab = await e2e.signedInApp(
      DEMO_USERS.admin,
      `/app/devices/${assetId}/scene/${scene?.id ?? ''}`,
    );
    const viewer = tab.page.getByTestId('model-viewer');
    await expect.poll(() => viewer.getAttribute('data-drawn'), { timeout: 60_000 }).toBe('true');
    await expect.poll(() => drawnPixels(viewer)).toBeGreaterThan(2_000);
    const markers = tab.page.getByTestId('hotspot-marker');
    await expect.poll(() => markers.count()).toBe(2);

    // The machine's gateway sends the motor's temperature: the motor's hotspot shows it.
    const agent = await linkedAgent(
      e2e.server,
      admin.token,
      asset?.gateway_id as string,
      'demo-scene-test',
    );
    await agent.send([{ stream: stream ?? '', ts: Date.now(), value: 47.5 }]);
    const value = markers.filter({ hasText: DEMO_SCENE.motor }).getByTestId('hotspot-value');
    await expect
      .poll(async () => (await value.textContent())?.replace(/[\u2066-\u2069]/g, ''), {
        timeout: 30_000,
      })
      .toBe('47.5 °C');
    await agent.close();
  });
});
