import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { API_BASE, apiPaths, SCENE_TEXTS, THREED_TEXTS, uuidv7 } from '@plant/shared-schema';
import { DEMO_USERS } from '../server/src/seed/demo';
import { sphereGlb, sphereGltfFolder, zipOf } from '../server/src/testing/model-files';
import { cylinderStep } from '../server/src/testing/step-part';
import { demoGateway, linkedAgent } from '../server/src/testing/gateway-client';
import { dataOf } from '../server/src/testing/harness';
import { uploadModel } from '../server/src/testing/model-upload';
import { E2e } from './support/fixture';
import { DeviceDetailsPage, imageLoaded, syncIndicator } from './support/pages/devices';
import { drawnPixels } from './support/pages/threed';

/*
 * 3D models on an asset's page (issue 32 items 1 and 2): a GLB uploaded as one file, a glTF
 * with its bin as a folder and a ZIP reach their tiles' "Ready" with a thumbnail and three levels,
 * the processing's progress on the way, and a file that is no model says so; the page fetches
 * nothing of three. A STEP part added offline waits, says it has no preview, and lands once when
 * the network is back. A model's page draws it at the device's quality, one level lower when the
 * GPU or the memory cannot hold a level. A scene (items 3 to 7) draws its model, takes a hotspot
 * where a click hits the model and refuses one beside it, gives it an icon, a file, a position
 * and a live value coloured by its alarm, has the server render a view that becomes the asset's
 * picture, lowers its quality when the WebGL context is lost, opens offline, jumps to the
 * hotspot's view, prints its QR label, and places its models turned, mirrored and at a quality,
 * in orbit mode with one model and free mode with two.
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

/** Where the viewer's drawn pixels lie on average (px from its top left): the models' place. */
async function drawnCentre(viewer: Locator): Promise<{ x: number; y: number }> {
  const { data, info } = await sharp(await viewer.screenshot())
    .raw()
    .toBuffer({ resolveWithObject: true });
  let n = 0;
  let x = 0;
  let y = 0;
  for (let i = 0; i < data.length; i += info.channels) {
    const off =
      Math.abs((data[i] ?? 0) - 0xee) +
      Math.abs((data[i + 1] ?? 0) - 0xf1) +
      Math.abs((data[i + 2] ?? 0) - 0xf5);
    if (off <= 40) continue;
    const pixel = i / info.channels;
    n += 1;
    x += pixel % info.width;
    y += Math.floor(pixel / info.width);
  }
  return { x: x / Math.max(n, 1), y: y / Math.max(n, 1) };
}

/** The centre of an element on the page (a hotspot's marker: where the user sees it). */
async function centreOf(element: Locator): Promise<{ x: number; y: number }> {
  const box = await element.boundingBox();
  if (box === null) throw new Error('not shown');
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

const distance = (a: { x: number; y: number }, b: { x: number; y: number }) =>
  Math.hypot(a.x - b.x, a.y - b.y);

/**
 * Drags across the viewer's canvas, `dx` px to the right, as a hand does: from near its top left
 * corner (the middle may hold a hotspot's marker, a button of its own).
 */
async function dragView(page: Page, viewer: Locator, dx: number): Promise<void> {
  const box = await viewer.locator('canvas').boundingBox();
  if (box === null) throw new Error('no canvas');
  const x = box.x + 40;
  const y = box.y + 40;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx, y, { steps: 8 });
  await page.mouse.up();
}

/**
 * A browser whose tabs answer what a test asks through their session storage, read as each page
 * starts: `e2e-device-memory` (GB) is what `navigator.deviceMemory` says (a small device), and
 * `e2e-allocation-limit` (bytes) fails reading a file at least that large into memory with V8's
 * RangeError, and `e2e-gpu-full` (taken once) makes the page's first WebGL context refuse its
 * buffers as a GPU out of memory does: nothing stored, OUT_OF_MEMORY from its next `getError`.
 */
async function deviceScripts(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const read = (key: string, take: boolean): string | null => {
      try {
        const value = sessionStorage.getItem(key);
        if (take) sessionStorage.removeItem(key);
        return value;
      } catch {
        return null; // no storage here (about:blank)
      }
    };
    const memory = read('e2e-device-memory', false);
    if (memory !== null) {
      const gb = Number(memory);
      Object.defineProperty(Navigator.prototype, 'deviceMemory', { get: () => gb });
    }
    const limit = read('e2e-allocation-limit', false);
    if (limit !== null) {
      // Reading a file's bytes into memory, as V8 fails an allocation too large for it.
      const arrayBuffer = Reflect.get(Blob.prototype, 'arrayBuffer') as (this: Blob) => unknown;
      Blob.prototype.arrayBuffer = function (this: Blob) {
        if (this.size >= Number(limit))
          return Promise.reject(new RangeError('Array buffer allocation failed'));
        return Reflect.apply(arrayBuffer, this, []) as Promise<ArrayBuffer>;
      };
    }
    if (read('e2e-gpu-full', true) === null) return;
    const gl = WebGL2RenderingContext.prototype;
    const bufferData = Reflect.get(gl, 'bufferData') as (...args: unknown[]) => void;
    const getError = Reflect.get<WebGL2RenderingContext, 'getError'>(gl, 'getError');
    const full = new WeakSet<object>();
    const refused = new WeakSet<object>();
    let chosen = false;
    gl.bufferData = function (this: WebGL2RenderingContext, ...args: unknown[]) {
      if (!chosen) {
        chosen = true;
        full.add(this);
      }
      if (full.has(this)) refused.add(this);
      else Reflect.apply(bufferData, this, args);
    };
    gl.getError = function (this: WebGL2RenderingContext) {
      if (refused.delete(this)) return this.OUT_OF_MEMORY;
      return Reflect.apply<WebGL2RenderingContext, [], number>(getError, this, []);
    };
  });
}

/** The app's scripts a tab fetched (their paths), and whether any of them holds three's renderer. */
function scriptsOf(context: BrowserContext): {
  paths: Set<string>;
  three: () => Promise<string[]>;
} {
  const paths = new Set<string>();
  context.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.endsWith('.js')) paths.add(url.pathname);
  });
  return {
    paths,
    three: async () => {
      const found: string[] = [];
      for (const file of paths) {
        const code = await readFile(path.join(inject('clientDist'), file), 'utf8').catch(() => '');
        if (code.includes('WebGLRenderer')) found.push(file);
      }
      return found;
    },
  };
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
  it('a GLB, a glTF folder and a ZIP uploaded from the asset’s page reach ready with a thumbnail and three levels, their progress shown, a file that is no model says so, and three is not fetched there', async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const press = await pressId(admin.accountId);
    await writeFile(path.join(dir, 'Pump housing.glb'), await sphereGlb(100));
    const folder = path.join(dir, 'Gearbox');
    await mkdir(folder, { recursive: true });
    for (const [name, bytes] of Object.entries(await sphereGltfFolder(60, 'gearbox')))
      await writeFile(path.join(folder, name), bytes);

    // A ZIP of a glTF folder, and a file that is no model.
    await writeFile(path.join(dir, 'Conveyor.zip'), zipOf(await sphereGltfFolder(40, 'conveyor')));
    await writeFile(path.join(dir, 'Broken.fbx'), 'Kaydara FBX Binary  \0 not a model at all');

    const profile = await e2e.browser();
    const scripts = scriptsOf(profile.context);
    const tab = await e2e.signedInApp(DEMO_USERS.admin, `/app/devices/${press}/details`, profile);
    const section = tab.page.getByTestId('asset-models');
    await expect.poll(() => section.getByTestId('no-models').count()).toBe(1);
    // Every status the tiles show, as they show it: the processing's progress passes by.
    await tab.page.evaluate(() => {
      const seen = new Set<string>();
      (window as unknown as { modelStatuses: Set<string> }).modelStatuses = seen;
      const read = () => {
        for (const tile of document.querySelectorAll('[data-testid="model-tile"]')) {
          const status = tile.querySelector('[data-testid="model-status"]')?.textContent;
          seen.add(`${tile.getAttribute('aria-label') ?? ''}: ${status ?? ''}`);
        }
      };
      new MutationObserver(read).observe(document.body, {
        subtree: true,
        childList: true,
        characterData: true,
      });
    });
    const pick = async (file: string, name: string) => {
      const chooser = tab.page.waitForEvent('filechooser');
      await section.getByTestId('upload-model-file').click();
      await (await chooser).setFiles(path.join(dir, file));
      await expect.poll(() => tileOf(section, name).count()).toBe(1);
    };
    await pick('Pump housing.glb', 'Pump housing');
    await section.getByTestId('upload-model-folder-input').setInputFiles(folder);
    await pick('Conveyor.zip', 'Conveyor');
    await pick('Broken.fbx', 'Broken');

    const pump = tileOf(section, 'Pump housing');
    const gearbox = tileOf(section, 'Gearbox');
    const conveyor = tileOf(section, 'Conveyor');
    for (const tile of [pump, gearbox, conveyor]) {
      await expect.poll(() => tile.getAttribute('data-state'), { timeout: 60_000 }).toBe('ready');
      await expect.poll(() => tile.getByTestId('model-status').textContent()).toBe('Ready');
      const picture = tile.getByRole('img');
      await expect.poll(() => picture.count()).toBe(1);
      await expect.poll(() => imageLoaded(picture)).toBe(true);
    }
    expect(await pump.getByTestId('model-levels').textContent()).toMatch(
      /^High: 20,000 triangles · Medium: [\d,]+ triangles · Low: [\d,]+ triangles$/,
    );
    // The ZIP's tile showed its processing's progress on the way.
    const statuses = await tab.page.evaluate(() => [
      ...(window as unknown as { modelStatuses: Set<string> }).modelStatuses,
    ]);
    expect(statuses.filter((t) => /^3D model .*Conveyor.*: Processing \(/.test(t))).not.toEqual([]);
    // The file that is no model: its tile says so.
    const broken = tileOf(section, 'Broken');
    await expect.poll(() => broken.getAttribute('data-state'), { timeout: 60_000 }).toBe('failed');
    expect(await broken.getByTestId('model-status').textContent()).toBe(THREED_TEXTS.loadFailed);
    // Three (the viewer's chunk) is fetched on the 3D routes only: not for the asset's page.
    expect(scripts.paths.size).toBeGreaterThan(3);
    expect(await scripts.three()).toEqual([]);

    const models = await e2e.serverModels(admin.accountId, 'threedmodel');
    expect(models.map((m) => m.attributes.name).sort()).toEqual([
      'Broken',
      'Conveyor',
      'Gearbox',
      'Pump housing',
    ]);
    expect(models.find((m) => m.attributes.name === 'Conveyor')?.attributes.format).toBe('gltf');
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

  it('a model’s page draws it at the device’s quality (lower on a small device), a level the GPU or the memory cannot hold is drawn one lower and said, and AR is not here (a lost context and offline: the scene test, same viewer)', async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const press = await pressId(admin.accountId);
    // Uploaded as the page does (the first test drives the page's upload).
    await uploadModel(e2e.server, admin.token, press, 'Valve', {
      'Valve.glb': await sphereGlb(90),
    });
    const profile = await e2e.browser();
    await deviceScripts(profile.context);
    const scripts = scriptsOf(profile.context);
    const tab = await e2e.signedInApp(DEMO_USERS.admin, `/app/devices/${press}/details`, profile);
    const section = tab.page.getByTestId('asset-models');
    const tile = tileOf(section, 'Valve');
    await expect.poll(() => tile.getAttribute('data-state'), { timeout: 60_000 }).toBe('ready');
    await tile.getByTestId('model-open').click();
    await tab.waitForPath(/\/3d\/[^/]+$/);

    const viewer = tab.page.getByTestId('model-viewer');
    await expect.poll(() => viewer.getAttribute('data-drawn'), { timeout: 30_000 }).toBe('true');
    expect(await viewer.getAttribute('data-quality')).toBe('high');
    await expect.poll(() => drawnPixels(viewer)).toBeGreaterThan(2_000);
    // The 3D route fetched three (the asset's page did not: the first test).
    expect((await scripts.three()).length).toBeGreaterThan(0);
    const memory = tab.page.getByTestId('viewer-memory');
    expect(await memory.count()).toBe(0);

    // The GPU refuses the high level's buffers: the medium level is drawn, and that is said.
    await tab.page.evaluate(() => sessionStorage.setItem('e2e-gpu-full', '1'));
    await tab.reload();
    await expect
      .poll(() => memory.textContent(), { timeout: 30_000 })
      .toBe('Too little available memory, quality reduced and model reloaded');
    await expect.poll(() => viewer.getAttribute('data-drawn'), { timeout: 30_000 }).toBe('true');
    expect(await viewer.getAttribute('data-quality')).toBe('medium');
    await expect.poll(() => drawnPixels(viewer)).toBeGreaterThan(2_000);

    // Too little memory to read the high level's file: the medium one, said.
    const valve = (await e2e.serverModels(admin.accountId, 'threedmodel')).find(
      (m) => m.attributes.name === 'Valve',
    )?.attributes.levels as { quality: string; bytes: number }[];
    const bytesOf = (quality: string) => valve.find((l) => l.quality === quality)?.bytes ?? 0;
    expect(bytesOf('medium')).toBeLessThan(bytesOf('high'));
    await tab.page.evaluate(
      (high) => sessionStorage.setItem('e2e-allocation-limit', String(high)),
      bytesOf('high'),
    );
    await tab.reload();
    await expect
      .poll(() => memory.textContent(), { timeout: 30_000 })
      .toBe('Too little available memory, quality reduced and model reloaded');
    await expect.poll(() => viewer.getAttribute('data-drawn'), { timeout: 30_000 }).toBe('true');
    expect(await viewer.getAttribute('data-quality')).toBe('medium');
    await expect.poll(() => drawnPixels(viewer)).toBeGreaterThan(2_000);

    // A device with 1 GB (a phone's): the low level, picked by itself, nothing refused.
    await tab.page.evaluate(() => {
      sessionStorage.removeItem('e2e-allocation-limit');
      sessionStorage.setItem('e2e-device-memory', '1');
    });
    await tab.reload();
    await expect.poll(() => viewer.getAttribute('data-drawn'), { timeout: 30_000 }).toBe('true');
    expect(await viewer.getAttribute('data-quality')).toBe('low');
    expect(await memory.count()).toBe(0);
    await expect.poll(() => drawnPixels(viewer)).toBeGreaterThan(2_000);

    await tab.page.getByTestId('viewer-ar').click();
    await expect
      .poll(() => tab.page.getByTestId('viewer-ar-missing').textContent())
      .toBe('Augmented Reality not available on the device');

    // A device that offers AR: the viewer asks WebXR for an immersive-ar session (this browser
    // has no AR device, so the page's stand-in records the ask and refuses it, as a user who
    // declines the camera does: then the same words).
    await tab.page.evaluate(() => {
      const w = window as unknown as { asked: string[] };
      w.asked = [];
      Object.defineProperty(navigator, 'xr', {
        configurable: true,
        value: {
          isSessionSupported: (mode: string) => Promise.resolve(mode === 'immersive-ar'),
          requestSession: (mode: string) => {
            w.asked.push(mode);
            return Promise.reject(new DOMException('declined', 'NotAllowedError'));
          },
        },
      });
    });
    await tab.page.getByTestId('viewer-ar').click();
    await expect
      .poll(() => tab.page.evaluate(() => (window as unknown as { asked: string[] }).asked))
      .toEqual(['immersive-ar']);
    expect(await tab.page.getByTestId('viewer-ar-missing').textContent()).toBe(
      'Augmented Reality not available on the device',
    );
  });
});

/** A document of the asset (a PDF's first bytes), uploaded as the asset's files page does. */
async function uploadDocument(token: string, assetId: string, name: string): Promise<string> {
  const bytes = new TextEncoder().encode('%PDF-1.4\n% a manual\n');
  const id = uuidv7();
  const made = await e2e.server.call('POST', apiPaths.collection('files'), {
    token,
    json: {
      id,
      asset_id: assetId,
      kind: 'document',
      name,
      type: 'application/pdf',
      size: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    },
  });
  expect(made.status, made.text).toBe(201);
  const put = await fetch(`${e2e.server.url}${API_BASE}/${apiPaths.fileUpload(id, 0)}`, {
    method: 'PUT',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/octet-stream' },
    body: bytes,
  });
  expect(put.status).toBe(200);
  return id;
}

describe('a scene with hotspots', () => {
  it('draws its model, places a hotspot by a click on it (beside it refused) with its icon, file, position and live value coloured by alarm, makes a rendering the asset’s picture, lowers quality when memory runs out, draws again offline, jumps to a hotspot’s view, prints its QR label, and places models turned, mirrored, at a quality, in orbit or free mode', async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const gw = await demoGateway(e2e.server, admin.accountId, 0);
    const stream = gw.streams['Motor temperature'] ?? '';
    const modelId = await uploadModel(e2e.server, admin.token, gw.assetId, 'Tank', {
      'tank.glb': await sphereGlb(60),
    });
    // A second model to place beside it in edit mode, and a manual to attach to a hotspot.
    const filterId = await uploadModel(e2e.server, admin.token, gw.assetId, 'Filter', {
      'filter.glb': await sphereGlb(24),
    });
    await uploadDocument(admin.token, gw.assetId, 'Pump manual.pdf');
    await processed(admin.accountId, modelId);
    await processed(admin.accountId, filterId);
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
    // Every request of the page and its worker from here on (item 3: no fetch to any other
    // origin, drei's CDN defaults off); the page's own earlier ones from its resource timings.
    const requested: string[] = [];
    page.context().on('request', (r) => requested.push(r.url()));
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
    // Its icon from the icon font, a file, a position, and the description above its QR code.
    await details.getByTestId('hotspot-icon').click();
    const pumpOption = page.getByRole('option', { name: 'Pump', exact: true });
    const pumpGlyph = await pumpOption.locator('svg').innerHTML();
    await pumpOption.click();
    const attach = async (kind: string) => {
      await details.getByTestId('hotspot-entry-kind').click();
      await page.getByRole('option', { name: kind, exact: true }).click();
    };
    await attach('File');
    await details.getByTestId('hotspot-entry-choice').click();
    await page.getByRole('option', { name: 'Pump manual.pdf' }).click();
    await details.getByTestId('hotspot-entry-add').click();
    await attach('Position');
    await details.getByRole('textbox', { name: 'Label' }).fill('Stand');
    await details.getByRole('textbox', { name: 'Latitude' }).fill('48.137');
    await details.getByRole('textbox', { name: 'Longitude' }).fill('11.575');
    await details.getByTestId('hotspot-entry-add').click();
    // A text, and a link to another object (the asset itself: its details page).
    await attach('Text');
    await details.getByRole('textbox', { name: 'Text' }).fill('Check the seal first');
    await details.getByTestId('hotspot-entry-add').click();
    const assetName = (await e2e.serverModels(admin.accountId, 'asset')).find(
      (a) => a.id === gw.assetId,
    )?.attributes.name as string;
    await attach('Link');
    await details.getByTestId('hotspot-entry-choice').click();
    await page.getByRole('option', { name: `Asset: ${assetName}`, exact: true }).click();
    await details.getByTestId('hotspot-entry-add').click();
    await details.getByTestId('hotspot-qr-description-input').fill('Pump P1, hall 2');
    // The help centre's article about the part (issue 33 item 5).
    await details.getByTestId('hotspot-help-article').fill('136');
    // Another admin renames the hotspot meanwhile: the save writes what this form changed, and
    // the new name stays.
    const hotspotId = (await e2e.serverModels(admin.accountId, 'hotspot'))[0]?.id ?? '';
    const renamed = await e2e.server.call('PUT', apiPaths.model('hotspots', hotspotId), {
      token: admin.token,
      json: { name: 'Pump P1 (north)' },
    });
    expect(renamed.status, renamed.text).toBe(200);
    await details.getByTestId('hotspot-form-save').click();
    await expect
      .poll(async () => (await e2e.serverModels(admin.accountId, 'hotspot'))[0]?.attributes)
      .toMatchObject({
        name: 'Pump P1 (north)',
        icon: 'pump',
        qr_description: 'Pump P1, hall 2',
        help_article: 136,
        metadata: [
          { kind: 'stream', datastream_id: stream },
          { kind: 'file' },
          { kind: 'position', label: 'Stand', latitude: 48.137, longitude: 11.575 },
          { kind: 'text', text: 'Check the seal first' },
          { kind: 'link', target: 'asset', id: gw.assetId },
        ],
      });
    // The marker shows the pump's glyph.
    expect(await marker.locator('svg').first().innerHTML()).toBe(pumpGlyph);
    const value = marker.getByTestId('hotspot-value');
    // The value with its unit, isolated (bidi marks) as every value is shown.
    const shown = async () => (await value.textContent())?.replace(/[\u2066-\u2069]/g, '');
    await expect.poll(shown, { timeout: 20_000 }).toBe('21.5 °C');
    expect(await value.getAttribute('data-alarm')).toBe('none');
    const colour = () => value.evaluate((el) => getComputedStyle(el).color);
    const calm = await colour();
    await agent.send([{ stream, ts: Date.now(), value: 68.25 }]);
    await expect.poll(shown, { timeout: 20_000 }).toBe('68.25 °C');
    await expect.poll(() => value.getAttribute('data-alarm'), { timeout: 20_000 }).toBe('critical');
    // Coloured by the alarm: a red the reader sees, not only an attribute.
    const alarmed = await colour();
    expect(alarmed).not.toBe(calm);
    const [red = 0, green = 0, blue = 0] = (alarmed.match(/\d+/g) ?? []).map(Number);
    expect(red).toBeGreaterThan(green + 60);
    expect(red).toBeGreaterThan(blue + 60);

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

    // View mode (the reload's): the hotspot's entries as a reader sees them, then its view.
    await expect.poll(() => marker.isVisible()).toBe(true);
    const overview = await drawnPixels(viewer);
    await marker.click();
    const entries = details.getByTestId('hotspot-entry');
    await expect
      .poll(() => entries.evaluateAll((els) => els.map((el) => el.getAttribute('data-kind'))))
      .toEqual(['stream', 'file', 'position', 'text', 'link']);
    expect(await entries.nth(1).getByRole('button').textContent()).toBe('Pump manual.pdf');
    expect(await entries.nth(2).textContent()).toBe('Stand: 48.137, 11.575');
    expect(await entries.nth(3).textContent()).toBe('Check the seal first');
    const linked = entries.nth(4).getByRole('link', { name: assetName });
    expect(new URL(await linked.evaluate((a) => (a as HTMLAnchorElement).href)).pathname).toBe(
      `/app/devices/${gw.assetId}/details`,
    );
    // Its help article, a link a reader follows to the article (help/136).
    const help = details.getByTestId('help-link').getByRole('link', { name: 'Article 136' });
    expect(new URL(await help.evaluate((a) => (a as HTMLAnchorElement).href)).pathname).toBe(
      '/app/help/136',
    );
    // "Go to its view": the camera comes close to the hotspot, the model fills more of the view.
    await details.getByTestId('hotspot-go').click();
    await expect.poll(() => drawnPixels(viewer)).toBeGreaterThan(overview * 1.3);

    // Its QR code with the description above it; printed, the label alone.
    await details.getByTestId('hotspot-qr').click();
    const label = page.getByTestId('hotspot-qr-label');
    const caption = label.getByTestId('hotspot-qr-description');
    await expect.poll(() => caption.textContent()).toBe('Pump P1, hall 2');
    const code = label.getByRole('img');
    const [above, under] = [await caption.boundingBox(), await code.boundingBox()];
    expect((above?.y ?? 0) + (above?.height ?? 0)).toBeLessThanOrEqual((under?.y ?? 0) + 1);
    await page.evaluate(() => {
      const w = window as unknown as { printed: number };
      w.printed = 0;
      window.print = () => {
        w.printed += 1;
      };
    });
    await page.getByTestId('hotspot-qr-print').click();
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { printed: number }).printed))
      .toBe(1);
    await page.emulateMedia({ media: 'print' });
    expect(await caption.isVisible()).toBe(true);
    expect(await code.isVisible()).toBe(true);
    expect(await viewer.isVisible()).toBe(false);
    expect(await page.getByTestId('hotspot-qr-print').isVisible()).toBe(false);
    await page.emulateMedia({ media: 'screen' });
    await page.keyboard.press('Escape');
    await expect.poll(() => label.count()).toBe(0);
    // The scene's third-viewer address (spec 000 §2) shows the same scene, in a viewer of its
    // own: the last one (drawn, close up at the hotspot) must be gone before it is looked at.
    await viewer.evaluate((el) => el.setAttribute('data-e2e-left', ''));
    await tab.navigateInApp(`/app/devices/${gw.assetId}/scene/v3/${sceneId}`);
    await page.locator('[data-e2e-left]').waitFor({ state: 'detached' });
    await expect.poll(() => viewer.getAttribute('data-drawn'), { timeout: 30_000 }).toBe('true');
    await agent.close();

    // One model: orbit mode. A drag turns the view around the model, which stays in the middle.
    await expect.poll(() => marker.isVisible()).toBe(true);
    const middle = await drawnCentre(viewer);
    let markerAt = await centreOf(marker);
    await dragView(page, viewer, 80);
    await expect.poll(async () => distance(await centreOf(marker), markerAt)).toBeGreaterThan(20);
    expect(distance(await drawnCentre(viewer), middle)).toBeLessThan(15);

    // Edit mode: the model turned, mirrored, and drawn at another quality; its hotspot (in the
    // model's own metres) goes along.
    const sceneOnServer = async () =>
      (await e2e.serverModels(admin.accountId, 'scene')).find((m) => m.id === sceneId)?.attributes
        .models as { rotation: number[]; flip_x: boolean; quality: string }[] | undefined;
    await page.getByTestId('scene-mode').getByText('Edit').click();
    const placement = page.getByTestId('placement');
    const save = () => page.getByTestId('placements-save').click();
    markerAt = await centreOf(marker);
    await placement
      .getByRole('group', { name: /^Rotation of/ })
      .getByRole('textbox', { name: 'Y (°)' })
      .fill('90');
    await save();
    await expect.poll(async () => (await sceneOnServer())?.[0]?.rotation).toEqual([0, 90, 0]);
    await expect.poll(async () => distance(await centreOf(marker), markerAt)).toBeGreaterThan(20);
    markerAt = await centreOf(marker);
    await placement.getByRole('checkbox', { name: 'Flip X axis' }).check();
    await save();
    await expect.poll(async () => (await sceneOnServer())?.[0]?.flip_x).toBe(true);
    await expect.poll(async () => distance(await centreOf(marker), markerAt)).toBeGreaterThan(20);
    expect(await viewer.getAttribute('data-quality')).toBe('high');
    await placement.getByLabel('Quality').click();
    await page.getByRole('option', { name: 'Low', exact: true }).click();
    await save();
    await expect.poll(async () => (await sceneOnServer())?.[0]?.quality).toBe('low');
    await expect.poll(() => viewer.getAttribute('data-quality')).toBe('low');

    // A second model beside it: free mode, said by the navigation choice; a drag moves the whole
    // view across. Orbiting one of them is a choice.
    const shownWithOne = await drawnCentre(viewer);
    await page.getByTestId('placement-add-choice').click();
    await page.getByRole('option', { name: 'Filter', exact: true }).click();
    await page.getByTestId('placement-add').click();
    await placement.nth(1).getByRole('textbox', { name: 'X (m)' }).fill('1.5');
    await save();
    await expect.poll(async () => (await sceneOnServer())?.length).toBe(2);
    const navigation = page.getByTestId('scene-active-model');
    await expect
      .poll(() => navigation.getByRole('radio', { name: 'Free (all models)' }).isChecked())
      .toBe(true);
    await expect
      .poll(async () => distance(await drawnCentre(viewer), shownWithOne))
      .toBeGreaterThan(20);
    await page.getByTestId('scene-mode').getByText('View').click();
    markerAt = await centreOf(marker);
    await dragView(page, viewer, 80);
    // Free mode pans: the view slides along with the hand, the hotspot straight across with it
    // (a turn around a model, orbit mode's drag, would carry it up or down too).
    await expect.poll(async () => (await centreOf(marker)).x - markerAt.x).toBeGreaterThan(40);
    expect(Math.abs((await centreOf(marker)).y - markerAt.y)).toBeLessThan(3);
    expect(await viewer.getAttribute('data-nav')).toBe('free');
    await navigation.getByText(/Orbit .*Tank/).click();
    await expect.poll(() => navigation.getByRole('radio', { name: /Tank/ }).isChecked()).toBe(true);
    expect(await viewer.getAttribute('data-nav')).toBe('orbit');

    // Nothing of the scene came from anywhere but the app's own origin (or the page's memory).
    const timed = await page.evaluate(() =>
      performance.getEntriesByType('resource').map((entry) => entry.name),
    );
    const app = new URL(page.url()).origin;
    const elsewhere = [...requested, ...timed].filter(
      (url) => !url.startsWith('blob:') && !url.startsWith('data:') && new URL(url).origin !== app,
    );
    expect(requested.length).toBeGreaterThan(0);
    expect(elsewhere).toEqual([]);
    // The whole walk: about 45 s alone, past 120 s in a clean clone's run at a load of 20.
  }, 300_000);
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
    // The new asset's page (the template's, with the same sections, shows until it renders).
    const assetPage = new DeviceDetailsPage(page).of(assetId);
    const copyTile = tileOf(assetPage.getByTestId('asset-models'), 'Tank');
    await expect.poll(() => copyTile.getAttribute('data-state'), { timeout: 30_000 }).toBe('ready');
    await assetPage.getByTestId('asset-scenes').getByTestId('scene-open').click();
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
