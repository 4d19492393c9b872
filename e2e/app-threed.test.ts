import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiPaths, SCENE_TEXTS, THREED_TEXTS } from '@plant/shared-schema';
import { DEMO_USERS } from '../server/src/seed/demo';
import { sphereGlb, sphereGltfFolder } from '../server/src/testing/model-files';
import { cylinderStep } from '../server/src/testing/step-part';
import { demoGateway, linkedAgent } from '../server/src/testing/gateway-client';
import { dataOf } from '../server/src/testing/harness';
import { uploadModel } from '../server/src/testing/model-upload';
import { E2e } from './support/fixture';
import { imageLoaded, syncIndicator } from './support/pages/devices';

/*
 * 3D models on an asset's page (issue 32 items 1 and 2): a GLB uploaded as one file and a glTF
 * with its bin as a folder reach their tiles' "Ready" with a thumbnail and three levels, the
 * processing's progress on the way; a STEP part added offline waits, says it has no preview,
 * and lands once when the network is back. A model's page draws it. A scene (items 3 to 7) draws
 * its model, takes a hotspot where a click hits the model and refuses one beside it, shows the
 * hotspot's live value coloured by its alarm, has the server render a view that becomes the
 * asset's picture, lowers its quality when the WebGL context is lost, and opens offline.
 */
let e2e: E2e;
let dir = '';

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'));
  dir = await mkdtemp(path.join(tmpdir(), 'plant-models-'));
});
afterAll(async () => {
  await e2e.close();
  await rm(dir, { recursive: true, force: true });
});

/** A model's tile by its name (its label isolates the name: matched by the text shown). */
const tileOf = (section: Locator, name: string) =>
  section.getByTestId('model-tile').filter({ hasText: name });

/** How many of the viewer's pixels are not its background (#eef1f5): the model drawn. */
async function drawnPixels(viewer: Locator): Promise<number> {
  const { data, info } = await sharp(await viewer.screenshot())
    .raw()
    .toBuffer({ resolveWithObject: true });
  let drawn = 0;
  for (let i = 0; i < data.length; i += info.channels) {
    const off =
      Math.abs((data[i] ?? 0) - 0xee) +
      Math.abs((data[i + 1] ?? 0) - 0xf1) +
      Math.abs((data[i + 2] ?? 0) - 0xf5);
    if (off > 40) drawn += 1;
  }
  return drawn;
}

/** Takes the viewer's WebGL context away, as a GPU out of memory does. */
async function loseContext(page: Page): Promise<void> {
  await page.evaluate(() => {
    const canvas = document.querySelector('[data-testid="model-viewer"] canvas');
    if (!(canvas instanceof HTMLCanvasElement)) throw new Error('no canvas');
    const gl = canvas.getContext('webgl2');
    gl?.getExtension('WEBGL_lose_context')?.loseContext();
  });
}

/** Waits until the server has processed the 3D model. */
async function processed(accountId: string, modelId: string): Promise<void> {
  await expect
    .poll(
      async () =>
        (await e2e.serverModels(accountId, 'threedmodel')).find((m) => m.id === modelId)?.attributes
          .state,
      { timeout: 60_000 },
    )
    .toBe('ready');
}

async function pressId(accountId: string): Promise<string> {
  const press = (await e2e.serverModels(accountId, 'asset')).find(
    (a) => a.attributes.name === 'Press line 1',
  );
  if (press === undefined) throw new Error('no Press line 1');
  return press.id;
}

describe('3D models of an asset', () => {
  it('a GLB and a glTF folder uploaded from the asset’s page reach ready with a thumbnail and three levels', async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const press = await pressId(admin.accountId);
    await writeFile(path.join(dir, 'Pump housing.glb'), await sphereGlb(100));
    const folder = path.join(dir, 'Gearbox');
    await mkdir(folder, { recursive: true });
    for (const [name, bytes] of Object.entries(await sphereGltfFolder(60, 'gearbox')))
      await writeFile(path.join(folder, name), bytes);

    const tab = await e2e.signedInApp(DEMO_USERS.admin, `/app/devices/${press}/details`);
    const section = tab.page.getByTestId('asset-models');
    await expect.poll(() => section.getByTestId('no-models').count()).toBe(1);
    const chooser = tab.page.waitForEvent('filechooser');
    await section.getByTestId('upload-model-file').click();
    await (await chooser).setFiles(path.join(dir, 'Pump housing.glb'));
    await section.getByTestId('upload-model-folder-input').setInputFiles(folder);

    const pump = tileOf(section, 'Pump housing');
    const gearbox = tileOf(section, 'Gearbox');
    for (const tile of [pump, gearbox]) {
      await expect.poll(() => tile.getAttribute('data-state'), { timeout: 60_000 }).toBe('ready');
      await expect.poll(() => tile.getByTestId('model-status').textContent()).toBe('Ready');
      const picture = tile.getByRole('img');
      await expect.poll(() => picture.count()).toBe(1);
      await expect.poll(() => imageLoaded(picture)).toBe(true);
    }
    expect(await pump.getByTestId('model-levels').textContent()).toMatch(
      /^High: 20,000 triangles · Medium: [\d,]+ triangles · Low: [\d,]+ triangles$/,
    );
    const models = await e2e.serverModels(admin.accountId, 'threedmodel');
    expect(models.map((m) => m.attributes.name).sort()).toEqual(['Gearbox', 'Pump housing']);
    const gear = models.find((m) => m.attributes.name === 'Gearbox');
    expect((gear?.attributes.sources as { path: string }[]).map((s) => s.path).sort()).toEqual([
      'gearbox.bin',
      'gearbox.gltf',
    ]);
  });

  it('a STEP part added offline waits, says it has no preview, and lands once', async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const press = await pressId(admin.accountId);
    await writeFile(path.join(dir, 'flange.step'), cylinderStep(40, 100));
    const tab = await e2e.signedInApp(DEMO_USERS.admin, `/app/devices/${press}/details`);
    await expect.poll(() => syncIndicator(tab.page).getAttribute('data-state')).toBe('online');
    e2e.offline();
    await expect.poll(() => syncIndicator(tab.page).getAttribute('data-state')).toBe('offline');
    const section = tab.page.getByTestId('asset-models');
    const chooser = tab.page.waitForEvent('filechooser');
    await section.getByTestId('upload-model-file').click();
    await (await chooser).setFiles(path.join(dir, 'flange.step'));
    const tile = tileOf(section, 'flange');
    await expect
      .poll(() => tile.getByTestId('model-status').textContent())
      .toMatch(/^Waiting to upload/);
    expect(await tile.getByTestId('model-step-note').textContent()).toBe(THREED_TEXTS.stepPreview);
    expect(
      (await e2e.serverModels(admin.accountId, 'threedmodel')).filter(
        (m) => m.attributes.name === 'flange',
      ),
    ).toHaveLength(0);

    e2e.online();
    await expect.poll(() => tile.getAttribute('data-state'), { timeout: 60_000 }).toBe('ready');
    expect(await tile.getByTestId('model-step-note').count()).toBe(0);
    const landed = (await e2e.serverModels(admin.accountId, 'threedmodel')).filter(
      (m) => m.attributes.name === 'flange',
    );
    expect(landed).toHaveLength(1);
    expect(landed[0]?.attributes.format).toBe('step');
  });

  it('a model’s page draws it at the device’s quality and says AR is not here (memory trouble and offline: the scene test, same viewer)', async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const press = await pressId(admin.accountId);
    // Uploaded as the page does (the first test drives the page's upload).
    await uploadModel(e2e.server, admin.token, press, 'Valve', {
      'Valve.glb': await sphereGlb(90),
    });
    const tab = await e2e.signedInApp(DEMO_USERS.admin, `/app/devices/${press}/details`);
    const section = tab.page.getByTestId('asset-models');
    const tile = tileOf(section, 'Valve');
    await expect.poll(() => tile.getAttribute('data-state'), { timeout: 60_000 }).toBe('ready');
    await tile.getByTestId('model-open').click();
    await tab.waitForPath(/\/3d\/[^/]+$/);

    const viewer = tab.page.getByTestId('model-viewer');
    await expect.poll(() => viewer.getAttribute('data-drawn'), { timeout: 30_000 }).toBe('true');
    expect(await viewer.getAttribute('data-quality')).toBe('high');
    await expect.poll(() => drawnPixels(viewer)).toBeGreaterThan(2_000);

    await tab.page.getByTestId('viewer-ar').click();
    await expect
      .poll(() => tab.page.getByTestId('viewer-ar-missing').textContent())
      .toBe('Augmented Reality not available on the device');
  });
});

describe('a scene with hotspots', () => {
  it('draws its model, places a hotspot by a click on it (beside it refused), shows its live value coloured by alarm, makes a rendering the asset’s picture, lowers quality when memory runs out, and draws again offline', async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const gw = await demoGateway(e2e.server, admin.accountId, 0);
    const stream = gw.streams['Motor temperature'] ?? '';
    const modelId = await uploadModel(e2e.server, admin.token, gw.assetId, 'Tank', {
      'tank.glb': await sphereGlb(60),
    });
    await processed(admin.accountId, modelId);
    const made = await e2e.server.call('POST', apiPaths.collection('scenes'), {
      token: admin.token,
      json: { asset_id: gw.assetId, name: 'Tank hall', models: [{ threedmodel_id: modelId }] },
    });
    expect(made.status, made.text).toBe(201);
    const sceneId = dataOf<{ id: string }>(made).id;
    const alarm = await e2e.server.call('POST', apiPaths.collection('alarms'), {
      token: admin.token,
      json: {
        asset_id: gw.assetId,
        datastream_id: stream,
        name: 'Tank too hot',
        condition: 'greater',
        upper_limit: 60,
        unit: '°C',
        severity: 'critical',
      },
    });
    expect(alarm.status, alarm.text).toBe(201);
    const agent = await linkedAgent(e2e.server, admin.token, gw.gatewayId, 'scene-test');
    await agent.send([{ stream, ts: Date.now(), value: 21.5 }]);

    const tab = await e2e.signedInApp(
      DEMO_USERS.admin,
      `/app/devices/${gw.assetId}/scene/${sceneId}`,
    );
    const page = tab.page;
    const viewer = page.getByTestId('model-viewer');
    await expect.poll(() => viewer.getAttribute('data-drawn'), { timeout: 30_000 }).toBe('true');
    expect(await viewer.getAttribute('data-nav')).toBe('orbit');
    await expect.poll(() => drawnPixels(viewer)).toBeGreaterThan(2_000);

    // Edit mode: a click beside the model is refused, a click on it asks for a name.
    await page.getByTestId('scene-mode').getByText('Edit').click();
    await expect.poll(() => viewer.getAttribute('data-picking')).toBe('true');
    const canvas = viewer.locator('canvas');
    const box = await canvas.boundingBox();
    if (box === null) throw new Error('no canvas');
    await canvas.click({ position: { x: 8, y: 8 } });
    await expect
      .poll(() => page.getByTestId('hotspot-refused').textContent())
      .toBe(SCENE_TEXTS.offModel);
    await canvas.click({ position: { x: box.width / 2, y: box.height / 2 } });
    await expect.poll(() => page.getByText(SCENE_TEXTS.placed).count()).toBe(1);
    await page.getByRole('dialog').getByRole('textbox', { name: 'Name' }).fill('Pump P1');
    await page.getByTestId('hotspot-save').click();
    const marker = page.getByTestId('hotspot-marker');
    await expect.poll(() => marker.count()).toBe(1);
    await expect
      .poll(async () => (await e2e.serverModels(admin.accountId, 'hotspot')).length)
      .toBe(1);
    const point = (await e2e.serverModels(admin.accountId, 'hotspot'))[0]?.attributes
      .point as number[];
    // On the sphere's surface (radius 0.5 m), in the model's own metres.
    expect(Math.hypot(...point)).toBeCloseTo(0.5, 1);

    // Its data: the motor's temperature, live in the scene.
    const details = page.getByTestId('hotspot-details');
    await details.getByTestId('hotspot-entry-choice').click();
    await page.getByRole('option', { name: 'Motor temperature' }).click();
    await details.getByTestId('hotspot-entry-add').click();
    await details.getByTestId('hotspot-form-save').click();
    const value = marker.getByTestId('hotspot-value');
    // The value with its unit, isolated (bidi marks) as every value is shown.
    const shown = async () => (await value.textContent())?.replace(/[\u2066-\u2069]/g, '');
    await expect.poll(shown, { timeout: 20_000 }).toBe('21.5 °C');
    expect(await value.getAttribute('data-alarm')).toBe('none');
    await agent.send([{ stream, ts: Date.now(), value: 68.25 }]);
    await expect.poll(shown, { timeout: 20_000 }).toBe('68.25 °C');
    await expect.poll(() => value.getAttribute('data-alarm'), { timeout: 20_000 }).toBe('critical');

    // A rendering of this view, made by the server, becomes the asset's picture.
    await page.getByTestId('rendering-make').click();
    const tile = page.getByTestId('rendering-tile');
    await expect.poll(() => tile.getAttribute('data-state'), { timeout: 60_000 }).toBe('ready');
    await expect.poll(() => imageLoaded(tile.getByRole('img'))).toBe(true);
    await tile.getByTestId('rendering-set-picture').click();
    await expect.poll(() => tile.getByTestId('rendering-is-picture').count()).toBe(1);
    const rendering = (await e2e.serverModels(admin.accountId, 'rendering'))[0];
    await expect
      .poll(
        async () =>
          (await e2e.serverModels(admin.accountId, 'asset')).find((a) => a.id === gw.assetId)
            ?.attributes.photo,
      )
      .toBe(rendering?.attributes.file_id);

    // The GPU runs out of memory: a lower level, said, drawn.
    await loseContext(page);
    await expect
      .poll(() => page.getByTestId('viewer-memory').textContent())
      .toBe('Too little available memory, quality reduced and model reloaded');
    await expect.poll(() => viewer.getAttribute('data-quality')).toBe('medium');
    await expect.poll(() => viewer.getAttribute('data-drawn'), { timeout: 30_000 }).toBe('true');
    await expect.poll(() => drawnPixels(viewer)).toBeGreaterThan(2_000);

    // Offline: the scene, its model and its hotspot from the device.
    e2e.offline();
    await tab.reload();
    await expect.poll(() => viewer.getAttribute('data-drawn'), { timeout: 30_000 }).toBe('true');
    await expect.poll(() => drawnPixels(viewer)).toBeGreaterThan(2_000);
    await expect.poll(() => marker.count()).toBe(1);
    // Back online: the live value moves again.
    e2e.online();
    await agent.send([{ stream, ts: Date.now(), value: 30.75 }]);
    await expect.poll(shown, { timeout: 30_000 }).toBe('30.75 °C');
    // The scene's third-viewer address (spec 000 §2) shows the same scene.
    await tab.navigateInApp(`/app/devices/${gw.assetId}/scene/v3/${sceneId}`);
    await expect.poll(() => viewer.getAttribute('data-drawn'), { timeout: 30_000 }).toBe('true');
    await agent.close();
  });
});

describe('a template’s scene', () => {
  it('draws on the template’s page, and comes with its model and hotspot into an asset made from the template', async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const call = (collection: string, json: Record<string, unknown>) =>
      e2e.server.call('POST', apiPaths.collection(collection), { token: admin.token, json });
    const template = await call('templates', {
      name: 'Tank skid',
      groups: [{ name: 'Tank', streams: [{ name: 'Fill level', unit: '%', type: 'number' }] }],
    });
    expect(template.status, template.text).toBe(201);
    const templateId = dataOf<{ id: string }>(template).id;
    const modelId = await uploadModel(e2e.server, admin.token, { template: templateId }, 'Tank', {
      'tank.glb': await sphereGlb(50),
    });
    await processed(admin.accountId, modelId);
    const scene = await call('scenes', {
      template_id: templateId,
      name: 'Skid hall',
      models: [{ threedmodel_id: modelId }],
    });
    expect(scene.status, scene.text).toBe(201);
    const hotspot = await call('hotspots', {
      scene_id: dataOf<{ id: string }>(scene).id,
      name: 'Level probe',
      threedmodel_id: modelId,
      point: [0.5, 0, 0],
      normal: [1, 0, 0],
      metadata: [{ kind: 'stream', datastream_id: 'tpl-0-0' }],
    });
    expect(hotspot.status, hotspot.text).toBe(201);

    // The template's page lists the model and the scene; the scene draws with its hotspot.
    const tab = await e2e.signedInApp(DEMO_USERS.admin, `/app/templates/${templateId}/details`);
    const page = tab.page;
    const tile = tileOf(page.getByTestId('asset-models'), 'Tank');
    await expect.poll(() => tile.getAttribute('data-state'), { timeout: 30_000 }).toBe('ready');
    await page.getByTestId('asset-scenes').getByTestId('scene-open').click();
    await tab.waitForPath(new RegExp(`/app/templates/${templateId}/scene/[^/]+$`));
    const viewer = page.getByTestId('model-viewer');
    await expect.poll(() => viewer.getAttribute('data-drawn'), { timeout: 30_000 }).toBe('true');
    await expect.poll(() => drawnPixels(viewer)).toBeGreaterThan(2_000);
    const marker = page.getByTestId('hotspot-marker');
    await expect.poll(() => marker.count()).toBe(1);
    expect(await marker.getByTestId('hotspot-value').textContent()).toBe(
      'Live in each asset made from the template',
    );
    // No renderings of a template's scene.
    expect(await page.getByTestId('rendering-make').count()).toBe(0);

    // A new asset from the template: its own copy of the model, the scene and the hotspot.
    await tab.navigateInApp(`/app/templates/${templateId}/details`);
    await page.getByTestId('create-from-template').click();
    const form = page.getByTestId('create-from-template-form');
    await expect
      .poll(() => form.getByTestId('template-threed-count').textContent())
      .toBe("And the template's 1 3D model and 1 scene with their hotspots.");
    await form.getByRole('textbox', { name: 'Name of the new asset' }).fill('Tank skid 4');
    await form.getByRole('button', { name: 'Create asset' }).click();
    await tab.waitForPath(/\/app\/devices\/[^/]+\/details$/);
    const assetId = new URL(page.url()).pathname.split('/')[3] ?? '';
    const copyTile = tileOf(page.getByTestId('asset-models'), 'Tank');
    await expect.poll(() => copyTile.getAttribute('data-state'), { timeout: 30_000 }).toBe('ready');
    await page.getByTestId('asset-scenes').getByTestId('scene-open').click();
    await tab.waitForPath(new RegExp(`/app/devices/${assetId}/scene/[^/]+$`));
    await expect.poll(() => viewer.getAttribute('data-drawn'), { timeout: 30_000 }).toBe('true');
    await expect.poll(() => drawnPixels(viewer)).toBeGreaterThan(2_000);
    await expect.poll(() => marker.count()).toBe(1);
    // The asset's stream, not the template's key: it has no value yet.
    await expect.poll(() => marker.getByTestId('hotspot-value').textContent()).toBe('No value yet');

    // On the server: a copy (no second processing) and a hotspot on the asset's own stream.
    const copy = (await e2e.serverModels(admin.accountId, 'threedmodel')).find(
      (m) => m.attributes.asset_id === assetId,
    );
    expect(copy?.attributes).toMatchObject({ copy_of: modelId, state: 'ready' });
    const level = (await e2e.serverModels(admin.accountId, 'datastream')).find(
      (m) => m.attributes.asset_id === assetId,
    );
    const spots = (await e2e.serverModels(admin.accountId, 'hotspot')).filter(
      (m) => m.attributes.asset_id === assetId,
    );
    expect(spots.map((h) => h.attributes.metadata)).toEqual([
      [{ kind: 'stream', datastream_id: level?.id }],
    ]);
  });
});
