import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API_BASE,
  apiPaths,
  FILE_ONLY_SERVER,
  SCENE_TEXTS,
  MODEL_FILE_TEXTS,
  THREED_LIMITS,
  THREED_TEXTS,
  uuidv7,
  type RenderingAttributes,
  type RoleAdmin,
  type SyncedModel,
  type ThreedmodelAttributes,
} from '@plant/shared-schema';
import { ChangeLogRepository } from '../repositories/change-log.repository';
import { DEMO_USERS } from '../seed/demo';
import { dataOf, startTestServer, type TestServer } from '../testing/harness';
import { sphereFbx, sphereGlb, sphereGltfFolder, zipBomb, zipOf } from '../testing/model-files';
import { cylinderStep } from '../testing/step-part';
import { uploadModel, uploadModelFile } from '../testing/model-upload';
import { countTriangles } from './levels';
import { gltfIo } from './load-model';

/*
 * 3D models through the server (issue 32 items 1 and 2): files uploaded through the resumable
 * file path, a `threedmodel` naming them, processed in the background into three levels (files
 * of kind 'level' served like any file), bounds and a thumbnail; ZIP archives refused with their
 * reasons; only who may change the asset's 3D models makes one, and only of its own files.
 */
let s: TestServer;
let admin = '';
let tech = '';
let press = '';

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Uploads bytes as a 3D model file of the press (one chunk); answers its id. */
const uploadFile = (name: string, bytes: Uint8Array, token = admin) =>
  uploadModelFile(s, token, press, name, bytes);

/** Makes a 3D model of the press from these files (path → bytes); answers its id. */
const makeModel = (name: string, files: Record<string, Uint8Array | string>) =>
  uploadModel(s, admin, press, name, files);

async function modelOf(id: string, token = admin): Promise<SyncedModel | undefined> {
  return (await s.snapshot(token)).find((m) => m.id === id);
}

/** Waits until the model is processed (ready or failed), as a client reading it sees. */
async function processed(id: string): Promise<ThreedmodelAttributes> {
  let attributes: ThreedmodelAttributes | undefined;
  await expect
    .poll(
      async () => {
        attributes = (await modelOf(id))?.attributes as ThreedmodelAttributes | undefined;
        return attributes?.state;
      },
      { timeout: 60_000, interval: 200 },
    )
    .toMatch(/^(ready|failed)$/);
  return attributes as ThreedmodelAttributes;
}

async function download(fileId: string): Promise<Uint8Array> {
  const res = await fetch(`${s.url}${API_BASE}/${apiPaths.fileContent(fileId)}`, {
    headers: { Authorization: `Bearer ${admin}` },
  });
  expect(res.status).toBe(200);
  return new Uint8Array(await res.arrayBuffer());
}

/** The model reached ready with three levels that read back, fewer triangles the lower. */
async function expectReady(id: string) {
  const model = await processed(id);
  expect(model.reason).toBeNull();
  expect(model.state).toBe('ready');
  expect(model.progress).toBe(1);
  expect(model.levels.map((l) => l.quality)).toEqual(['high', 'medium', 'low']);
  const [high, , low] = model.levels;
  expect(low?.triangles).toBeLessThan(high?.triangles ?? 0);
  for (const level of model.levels) {
    const glb = await download(level.file_id);
    expect(glb.byteLength).toBe(level.bytes);
    expect(countTriangles(await gltfIo().readBinary(glb))).toBe(level.triangles);
  }
  const thumbnail = await download(model.thumbnail_file_id ?? '');
  expect((await sharp(thumbnail).metadata()).format).toBe('png');
  return model;
}

/** While set, renderings wait for it before they are drawn (a test holds the queue). */
let renderingsHeld: Promise<void> | undefined;

beforeAll(async () => {
  s = await startTestServer({
    sceneRenderer: (real) => ({
      render: async (job) => {
        await renderingsHeld;
        return real.render(job);
      },
      close: () => real.close(),
    }),
  });
  admin = await s.signIn(DEMO_USERS.admin);
  tech = await s.signIn(DEMO_USERS.tech);
  press =
    (await s.snapshot(admin)).find(
      (m) => m.type === 'asset' && m.attributes.name === 'Press line 1',
    )?.id ?? '';
});
afterAll(() => s.close());

describe('3D models processed in the background', () => {
  it('makes three levels, bounds and a thumbnail of an uploaded GLB', async () => {
    const id = await makeModel('Pump', { 'pump.glb': await sphereGlb(100) });
    const model = await expectReady(id);
    expect(model.format).toBe('glb');
    expect(model.levels[0]?.triangles).toBe(20_000);
    expect(model.bounds?.max[1]).toBeCloseTo(0.5, 3);
    // The levels are files of the asset, of kind 'level', ready: the same path serves them.
    const files = (await s.snapshot(admin)).filter(
      (m) => m.type === 'file' && model.levels.some((l) => l.file_id === m.id),
    );
    expect(
      files.map((f) => [f.attributes.kind, f.attributes.state, f.attributes.asset_id]),
    ).toEqual([0, 1, 2].map(() => ['level', 'ready', press]));
  });

  it('reads a glTF folder whose JSON names its separate bin', async () => {
    const folder = await sphereGltfFolder(60, 'gearbox');
    const files = Object.fromEntries(Object.entries(folder).map(([k, v]) => [`gearbox/${k}`, v]));
    expect((await expectReady(await makeModel('Gearbox', files))).format).toBe('gltf');
  });

  it('unpacks a ZIP on the server', async () => {
    const zip = zipOf(await sphereGltfFolder(50));
    expect((await expectReady(await makeModel('Zipped', { 'model.zip': zip }))).format).toBe(
      'gltf',
    );
  });

  it('meshes a small STEP part', async () => {
    const model = await expectReady(
      await makeModel('Flange', { 'flange.stp': cylinderStep(40, 100) }),
    );
    expect(model.format).toBe('step');
    expect(model.bounds?.max[1]).toBeCloseTo(0.1, 4);
  });

  it('reads an FBX file', async () => {
    const model = await expectReady(await makeModel('Blower', { 'blower.fbx': sphereFbx(60) }));
    expect(model.format).toBe('fbx');
    expect(model.levels[0]?.triangles).toBe(2 * 60 * 60);
    expect(model.bounds?.max[1]).toBeCloseTo(0.5, 3);
  });

  it('refuses a ZIP with an entry that leaves its folder, and one that unpacks to 1 GB', async () => {
    const escaping = await makeModel('Escaping', {
      'model.zip': zipOf({
        'model.glb': await sphereGlb(8),
        '../../etc/evil.glb': await sphereGlb(8),
      }),
    });
    const bomb = await makeModel('Bomb', { 'model.zip': zipBomb(20, 50 * 1024 * 1024) });
    expect(await processed(escaping)).toMatchObject({
      state: 'failed',
      reason: THREED_TEXTS.zipPath,
      levels: [],
    });
    expect(await processed(bomb)).toMatchObject({
      state: 'failed',
      reason: THREED_TEXTS.zipTooLarge,
    });
  });

  it('refuses a ZIP of more entries than the limit, and files over 500 MB before a byte is sent', async () => {
    // 2,001 entries of one byte: small, refused for their number.
    const entries: Record<string, Uint8Array> = { 'model.glb': await sphereGlb(8) };
    for (let i = 0; i < THREED_LIMITS.zipEntries; i++)
      entries[`parts/${i}.txt`] = new Uint8Array(1);
    const many = await makeModel('Many', { 'model.zip': zipOf(entries) });
    expect(await processed(many)).toMatchObject({
      state: 'failed',
      reason: THREED_TEXTS.zipTooManyEntries,
      levels: [],
    });
    // The sizes a client declares as it starts the resumable upload: one file over 500 MB is
    // refused as it is named, and files within it each but over it together make no model.
    const declare = (name: string, size: number) =>
      s.call('POST', apiPaths.collection('files'), {
        token: admin,
        json: {
          id: uuidv7(),
          asset_id: press,
          kind: 'model',
          name,
          type: 'application/octet-stream',
          size,
          sha256: sha(new Uint8Array([size % 256])),
        },
      });
    const huge = await declare('huge.fbx', THREED_LIMITS.inputBytes + 1);
    expect(huge.status).toBe(422);
    expect(huge.text).toContain(MODEL_FILE_TEXTS.tooLarge);
    const halves: { file_id: string; path: string }[] = [];
    for (const name of ['a.bin', 'b.bin']) {
      const half = await declare(name, THREED_LIMITS.inputBytes / 2 + 1);
      expect(half.status, half.text).toBe(201);
      halves.push({ file_id: dataOf<{ id: string }>(half).id, path: name });
    }
    const together = await s.call('POST', apiPaths.collection('threedmodels'), {
      token: admin,
      json: { asset_id: press, name: 'Too large', sources: halves },
    });
    expect(together.status).toBe(422);
    expect(together.text).toContain(MODEL_FILE_TEXTS.tooLarge);
  });

  it('says when the files hold no model it can read', async () => {
    const { 'machine.gltf': json } = await sphereGltfFolder(10);
    expect(
      await processed(await makeModel('No bin', { 'machine.gltf': json ?? '' })),
    ).toMatchObject({
      state: 'failed',
      reason: THREED_TEXTS.loadFailed,
    });
  });
});

describe('who makes 3D models, of which files', () => {
  it('refuses a model of files of another kind or of another asset, and levels made by a client', async () => {
    const document = uuidv7();
    const bytes = await sphereGlb(4);
    const made = await s.call('POST', apiPaths.collection('files'), {
      token: admin,
      json: {
        id: document,
        asset_id: press,
        kind: 'document',
        name: 'pump.glb',
        type: 'model/gltf-binary',
        size: bytes.length,
        sha256: sha(bytes),
      },
    });
    expect(made.status).toBe(201);
    const refused = await s.call('POST', apiPaths.collection('threedmodels'), {
      token: admin,
      json: { asset_id: press, name: 'Doc', sources: [{ file_id: document, path: 'pump.glb' }] },
    });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain(THREED_TEXTS.sourcesOfAsset);
    const level = await s.call('POST', apiPaths.collection('files'), {
      token: admin,
      json: {
        asset_id: press,
        kind: 'level',
        name: 'fake.glb',
        type: 'model/gltf-binary',
        size: bytes.length,
        sha256: sha(bytes),
      },
    });
    expect(level.status).toBe(422);
    expect(level.text).toContain(FILE_ONLY_SERVER);
    const badPath = await s.call('POST', apiPaths.collection('threedmodels'), {
      token: admin,
      json: { asset_id: press, name: 'Bad', sources: [{ file_id: document, path: '../pump.glb' }] },
    });
    expect(badPath.status).toBe(422);
    expect(badPath.text).toContain(THREED_TEXTS.badPath);
  });

  it('refuses a user without the 3D permission, and sets no server field a client sends', async () => {
    const file = await uploadFile('part.glb', await sphereGlb(6));
    const denied = await s.call('POST', apiPaths.collection('threedmodels'), {
      token: tech,
      json: { asset_id: press, name: 'Tech', sources: [{ file_id: file, path: 'part.glb' }] },
    });
    expect(denied.status).toBe(403);
    const id = uuidv7();
    const forged = await s.call('POST', apiPaths.collection('threedmodels'), {
      token: admin,
      json: {
        id,
        asset_id: press,
        name: 'Forged',
        sources: [{ file_id: file, path: 'part.glb' }],
        state: 'ready',
        levels: [{ quality: 'high', file_id: file, triangles: 1, bytes: 1 }],
      },
    });
    expect(forged.status).toBe(201);
    const model = await processed(id);
    expect(model.levels.every((l) => l.file_id !== file)).toBe(true);
    expect(model.state).toBe('ready');
  });
});

describe('scenes and hotspots', () => {
  let modelId = '';
  let sceneId = '';
  it('makes a scene that places a processed model', async () => {
    modelId = await makeModel('Tank', { 'tank.glb': await sphereGlb(40) });
    await expectReady(modelId);
    sceneId = uuidv7();
    const made = await s.call('POST', apiPaths.collection('scenes'), {
      token: admin,
      json: {
        id: sceneId,
        asset_id: press,
        name: 'Line',
        models: [{ threedmodel_id: modelId, position: [2, 0, 0] }],
      },
    });
    expect(made.status, made.text).toBe(201);
  });

  const hotspot = (fields: Record<string, unknown>, token = admin) =>
    s.call('POST', apiPaths.collection('hotspots'), {
      token,
      json: { scene_id: sceneId, name: 'Valve', threedmodel_id: modelId, ...fields },
    });

  it('places a model once, and only a model of the scene’s asset', async () => {
    const other = (await s.snapshot(admin)).find((m) => m.type === 'asset' && m.id !== press)?.id;
    const foreign = await s.call('POST', apiPaths.collection('scenes'), {
      token: admin,
      json: { asset_id: other, name: 'Elsewhere', models: [{ threedmodel_id: modelId }] },
    });
    expect(foreign.status).toBe(422);
    expect(foreign.text).toContain(SCENE_TEXTS.modelsOfAsset);
    const twice = await s.call('POST', apiPaths.collection('scenes'), {
      token: admin,
      json: {
        asset_id: press,
        name: 'Twice',
        models: [{ threedmodel_id: modelId }, { threedmodel_id: modelId }],
      },
    });
    expect(twice.status).toBe(422);
    expect(twice.text).toContain(SCENE_TEXTS.modelTwice);
  });

  it('keeps a hotspot on the model’s surface, in the model’s own metres', async () => {
    // The sphere's radius is 0.5 m around its origin: the scene's placement does not count.
    const on = await hotspot({ point: [0.5, 0, 0], normal: [1, 0, 0], icon: 'valve' });
    expect(on.status, on.text).toBe(201);
    const made = (on.json as { data: SyncedModel }).data;
    expect(made.attributes).toMatchObject({ asset_id: press, icon: 'valve' });
    for (const point of [
      [2.5, 0, 0],
      [0, 0, 0],
      [0.5, 0.5, 0.5],
    ]) {
      const off = await hotspot({ point });
      expect(off.status, String(point)).toBe(422);
      expect(off.text).toContain(SCENE_TEXTS.offModel);
    }
    // Moving a hotspot off the surface is refused too.
    const moved = await s.call('PUT', apiPaths.model('hotspots', made.id), {
      token: admin,
      json: { point: [0, 3, 0] },
    });
    expect(moved.status).toBe(422);
    expect(moved.text).toContain(SCENE_TEXTS.offModel);
  });

  it('refuses an icon outside the icon font, a model not in the scene, and data of another asset', async () => {
    const icon = await hotspot({ point: [0, 0.5, 0], icon: 'unicorn' });
    expect(icon.status).toBe(422);
    expect(icon.text).toContain(SCENE_TEXTS.unknownIcon);
    const notPlaced = await hotspot({ point: [0, 0.5, 0], threedmodel_id: uuidv7() });
    expect(notPlaced.status).toBe(422);
    expect(notPlaced.text).toContain(SCENE_TEXTS.modelNotInScene);
    const streams = (await s.snapshot(admin)).filter((m) => m.type === 'datastream');
    const ours = streams.find((m) => m.attributes.asset_id === press)?.id;
    const theirs = streams.find((m) => m.attributes.asset_id !== press)?.id;
    const foreign = await hotspot({
      point: [0, 0.5, 0],
      metadata: [{ kind: 'stream', datastream_id: theirs }],
    });
    expect(foreign.status).toBe(422);
    expect(foreign.text).toContain(SCENE_TEXTS.metadataOfAsset);
    const live = await hotspot({
      point: [0, 0.5, 0],
      metadata: [
        { kind: 'stream', datastream_id: ours },
        { kind: 'text', text: 'Check the seal weekly.' },
        { kind: 'link', target: 'asset', id: press },
      ],
      qr_description: 'Pump P1',
    });
    expect(live.status, live.text).toBe(201);
  });

  it('takes the asset from the stored scene, and asks the 3D permission', async () => {
    const other = (await s.snapshot(admin)).find((m) => m.type === 'asset' && m.id !== press)?.id;
    // Naming another asset beside the scene is refused; naming none takes the scene's.
    const forged = await hotspot({ point: [0, -0.5, 0], asset_id: other });
    expect(forged.status).toBe(422);
    expect(forged.text).toContain('The scene belongs to another asset.');
    const plain = await hotspot({ point: [0, -0.5, 0] });
    expect((plain.json as { data: SyncedModel }).data.attributes.asset_id).toBe(press);
    const denied = await hotspot({ point: [0, -0.5, 0] }, tech);
    expect(denied.status).toBe(403);
  });
});

describe('renderings', () => {
  it('draws the scene from a view in the background, and the picture may become the asset’s', async () => {
    const sceneId = (await s.snapshot(admin)).find(
      (m) => m.type === 'scene' && m.attributes.name === 'Line',
    )?.id;
    expect(sceneId).toBeDefined();
    const made = await s.call('POST', apiPaths.collection('renderings'), {
      token: admin,
      json: {
        scene_id: sceneId,
        name: 'Front',
        // The tank stands at x = 2 m in the scene: looked at from 2.5 m in front.
        camera: { position: [2, 0, 2.5], target: [2, 0, 0] },
        width: 320,
        height: 240,
        state: 'ready',
      },
    });
    expect(made.status, made.text).toBe(201);
    const id = (made.json as { data: SyncedModel }).data.id;
    let rendering: RenderingAttributes | undefined;
    await expect
      .poll(
        async () => {
          rendering = (await modelOf(id))?.attributes as RenderingAttributes | undefined;
          return rendering?.state;
        },
        { timeout: 90_000, interval: 250 },
      )
      .toMatch(/^(ready|failed)$/);
    expect(rendering?.reason ?? null).toBeNull();
    const png = await download(rendering?.file_id ?? '');
    const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([320, 240]);
    let drawn = 0;
    for (let i = 0; i < data.length; i += info.channels) {
      const off =
        Math.abs((data[i] ?? 0) - 0xee) +
        Math.abs((data[i + 1] ?? 0) - 0xf1) +
        Math.abs((data[i + 2] ?? 0) - 0xf5);
      if (off > 40) drawn += 1;
    }
    // The sphere fills a good part of the picture, the background the rest.
    expect(drawn).toBeGreaterThan(320 * 240 * 0.1);
    expect(drawn).toBeLessThan(320 * 240 * 0.9);

    const picture = await s.call('PUT', apiPaths.model('assets', press), {
      token: admin,
      json: { photo: rendering?.file_id },
    });
    expect(picture.status, picture.text).toBe(200);
    // A model's uploaded file is not a picture.
    const upload = await uploadFile('part.glb', await sphereGlb(4));
    const refused = await s.call('PUT', apiPaths.model('assets', press), {
      token: admin,
      json: { photo: upload },
    });
    expect(refused.status).toBe(422);
  });
});

describe('renderings under way', () => {
  it('refuses a sixth rendering of a scene while five wait or are drawn', async () => {
    const sceneId = (await s.snapshot(admin)).find(
      (m) => m.type === 'scene' && m.attributes.name === 'Line',
    )?.id;
    const ask = (name: string) =>
      s.call('POST', apiPaths.collection('renderings'), {
        token: admin,
        json: {
          scene_id: sceneId,
          name,
          camera: { position: [2, 0, 2.5], target: [2, 0, 0] },
          width: 64,
          height: 64,
        },
      });
    // The queue held: none is drawn while the six are asked for (on a busy machine a small one
    // could otherwise be drawn between two writes).
    let release = () => {};
    renderingsHeld = new Promise((resolve) => (release = resolve));
    try {
      for (const name of ['A', 'B', 'C', 'D', 'E']) expect((await ask(name)).status).toBe(201);
      const sixth = await ask('F');
      expect(sixth.status).toBe(422);
      expect(sixth.text).toContain(SCENE_TEXTS.tooManyRenderings);
    } finally {
      release();
      renderingsHeld = undefined;
    }
  });
});

describe('a template’s 3D models and scenes, carried into an asset made from it', () => {
  let templateId = '';
  let templateModel = '';
  let templateScene = '';
  const post = (collection: string, json: Record<string, unknown>, token = admin) =>
    s.call('POST', apiPaths.collection(collection), { token, json });

  it('keeps models, scenes and hotspots on a template, hotspots naming its streams by place', async () => {
    templateId = uuidv7();
    const template = await post('templates', {
      id: templateId,
      name: 'Pump skid',
      groups: [{ name: 'Pump', streams: [{ name: 'Pressure', unit: 'bar', type: 'number' }] }],
    });
    expect(template.status, template.text).toBe(201);
    templateModel = await uploadModel(s, admin, { template: templateId }, 'Pump', {
      'pump.glb': await sphereGlb(30),
    });
    const model = await expectReady(templateModel);
    expect(model).toMatchObject({ asset_id: null, template_id: templateId });
    // Its levels are files of the template.
    const files = (await s.snapshot(admin)).filter((m) => m.type === 'file');
    const level = files.find((f) => f.id === model.levels[0]?.file_id);
    expect(level?.attributes).toMatchObject({ asset_id: null, template_id: templateId });

    templateScene = uuidv7();
    const scene = await post('scenes', {
      id: templateScene,
      template_id: templateId,
      name: 'Skid',
      models: [{ threedmodel_id: templateModel, position: [1, 0, 0] }],
    });
    expect(scene.status, scene.text).toBe(201);
    const hotspot = (metadata: unknown[]) =>
      post('hotspots', {
        scene_id: templateScene,
        name: 'Outlet',
        threedmodel_id: templateModel,
        point: [0.5, 0, 0],
        normal: [1, 0, 0],
        metadata,
      });
    const made = await hotspot([{ kind: 'stream', datastream_id: 'tpl-0-0' }]);
    expect(made.status, made.text).toBe(201);
    expect((made.json as { data: SyncedModel }).data.attributes.asset_id).toBeNull();
    // A place the template has no stream at, a real stream's id, a file: refused.
    const streamId = (await s.snapshot(admin)).find((m) => m.type === 'datastream')?.id;
    for (const entry of [
      { kind: 'stream', datastream_id: 'tpl-3-0' },
      { kind: 'stream', datastream_id: streamId },
      { kind: 'file', file_id: model.levels[0]?.file_id },
    ]) {
      const refused = await hotspot([entry]);
      expect(refused.status, JSON.stringify(entry)).toBe(422);
      expect(refused.text).toContain(SCENE_TEXTS.metadataOfTemplate);
    }
    // No renderings of a template's scene: the asset made from it renders its own.
    const rendering = await post('renderings', {
      scene_id: templateScene,
      name: 'Front',
      camera: { position: [0, 0, 3], target: [0, 0, 0] },
    });
    expect(rendering.status).toBe(422);
    expect(rendering.text).toContain(SCENE_TEXTS.renderingOfTemplate);
  });

  it('refuses a model or scene of both or neither, and a template’s scene placing an asset’s model', async () => {
    const file = await uploadModelFile(s, admin, press, 'both.glb', await sphereGlb(8));
    const both = await post('threedmodels', {
      asset_id: press,
      template_id: templateId,
      name: 'Both',
      sources: [{ file_id: file, path: 'both.glb' }],
    });
    expect(both.status).toBe(422);
    expect(both.text).toContain(THREED_TEXTS.oneOwner);
    const neither = await post('scenes', { name: 'Nowhere' });
    expect(neither.status).toBe(422);
    expect(neither.text).toContain(THREED_TEXTS.oneOwner);
    // The template's model on an asset's scene, an asset's model on the template's scene.
    const assetModel = await uploadModel(s, admin, press, 'Small', { 's.glb': await sphereGlb(8) });
    for (const json of [
      { asset_id: press, name: 'Mixed', models: [{ threedmodel_id: templateModel }] },
      { template_id: templateId, name: 'Mixed', models: [{ threedmodel_id: assetModel }] },
    ]) {
      const mixed = await post('scenes', json);
      expect(mixed.status).toBe(422);
      expect(mixed.text).toContain(SCENE_TEXTS.modelsOfAsset);
    }
  });

  it('copies the template’s model for a new asset without processing it again, and survives the template', async () => {
    const assetId = uuidv7();
    expect((await post('assets', { id: assetId, name: 'Skid 7' })).status).toBe(201);
    const missing = await post('threedmodels', {
      asset_id: assetId,
      name: 'Pump',
      copy_of: uuidv7(),
    });
    expect(missing.status).toBe(422);
    expect(missing.text).toContain(THREED_TEXTS.copyMissing);
    const copyId = uuidv7();
    const copied = await post('threedmodels', {
      id: copyId,
      asset_id: assetId,
      name: 'Pump',
      copy_of: templateModel,
      // Server fields a client sends are ignored: the original's are taken.
      state: 'failed',
    });
    expect(copied.status, copied.text).toBe(201);
    const copy = (copied.json as { data: SyncedModel }).data.attributes as ThreedmodelAttributes;
    const original = (await modelOf(templateModel))?.attributes as ThreedmodelAttributes;
    // Ready as the write answers: the same levels, as new files of the new asset.
    expect(copy).toMatchObject({ state: 'ready', asset_id: assetId, bounds: original.bounds });
    expect(copy.levels.map((l) => [l.quality, l.triangles, l.bytes])).toEqual(
      original.levels.map((l) => [l.quality, l.triangles, l.bytes]),
    );
    const snapshot = await s.snapshot(admin);
    for (const [i, level] of copy.levels.entries()) {
      expect(level.file_id).not.toBe(original.levels[i]?.file_id);
      const file = snapshot.find((m) => m.id === level.file_id);
      expect(file?.attributes).toMatchObject({
        asset_id: assetId,
        template_id: null,
        kind: 'level',
      });
    }
    expect(copy.sources).toHaveLength(1);
    expect(copy.sources[0]?.file_id).not.toBe(original.sources[0]?.file_id);
    // The copy's scene and hotspot, at the template's point: on the copy's surface too.
    const sceneId = uuidv7();
    const scene = await post('scenes', {
      id: sceneId,
      asset_id: assetId,
      name: 'Skid',
      models: [{ threedmodel_id: copyId, position: [1, 0, 0] }],
    });
    expect(scene.status, scene.text).toBe(201);
    const hotspot = await post('hotspots', {
      scene_id: sceneId,
      name: 'Outlet',
      threedmodel_id: copyId,
      point: [0.5, 0, 0],
    });
    expect(hotspot.status, hotspot.text).toBe(201);

    // The template goes with its models, scenes and files; the asset's copy stays whole.
    const gone = await s.call('DELETE', apiPaths.model('templates', templateId), { token: admin });
    expect(gone.status, gone.text).toBe(200);
    const after = await s.snapshot(admin);
    for (const id of [templateModel, templateScene, ...original.levels.map((l) => l.file_id)])
      expect(after.some((m) => m.id === id)).toBe(false);
    const glb = await download(copy.levels[0]?.file_id ?? '');
    expect(glb.byteLength).toBe(copy.levels[0]?.bytes);
  });
});

describe('who changes a template’s 3D models and scenes', () => {
  it('asks the template’s edit permission besides the 3D one, and copies only a template’s model', async () => {
    const templateId = uuidv7();
    const made = await s.call('POST', apiPaths.collection('templates'), {
      token: admin,
      json: { id: templateId, name: 'Guarded skid' },
    });
    expect(made.status, made.text).toBe(201);
    // The technician gets a role for 3D models, without the templates' edit permission.
    const role = dataOf<RoleAdmin>(
      await s.call('POST', apiPaths.roles(), { token: admin, json: { name: 'Modeller' } }),
    );
    const grant = (permissions: string[]) =>
      s.call('PUT', apiPaths.rolePermissions(role.id), { token: admin, json: { permissions } });
    const modelling = ['scene::view', 'scene::create', 'scene::edit', 'asset::view', 'asset::edit'];
    expect((await grant([...modelling, 'template::view'])).status).toBe(200);
    const members = dataOf<{ id: string; email: string }[]>(
      await s.call('GET', apiPaths.members(), { token: admin }),
    );
    const techId = members.find((m) => m.email === DEMO_USERS.tech)?.id ?? '';
    expect(
      (await s.call('PUT', apiPaths.memberRole(techId, role.id), { token: admin })).status,
    ).toBe(200);
    const modeller = await s.signIn(DEMO_USERS.tech);
    const scene = () =>
      s.call('POST', apiPaths.collection('scenes'), {
        token: modeller,
        json: { template_id: templateId, name: 'Skid' },
      });
    expect((await scene()).status).toBe(403);
    await expect(
      uploadModelFile(s, modeller, { template: templateId }, 'part.glb', await sphereGlb(6)),
    ).rejects.toThrow(/403/);
    // With it, the same writes are taken.
    expect((await grant([...modelling, 'template::view', 'template::edit'])).status).toBe(200);
    const allowed = await s.signIn(DEMO_USERS.tech);
    expect((await scene()).status).toBe(201);
    const partId = await uploadModelFile(
      s,
      allowed,
      { template: templateId },
      'part.glb',
      await sphereGlb(6),
    );

    // The technician sees only some assets. A template's file reaches it (its updates name the
    // template); a file's update logged before updates named their asset does not.
    const row = await s.db
      .selectFrom('models')
      .select('account_id')
      .where('id', '=', templateId)
      .executeTakeFirstOrThrow();
    await new ChangeLogRepository(s.db).record(
      row.account_id,
      [{ action: 'updated', type: 'file', id: uuidv7(), attributes: { name: 'Old manual.pdf' } }],
      Date.now(),
    );
    const logs = (token: string) => s.call('GET', apiPaths.mqttlogs(0), { token });
    const seenByModeller = await logs(allowed);
    expect(seenByModeller.text).toContain(partId);
    expect(seenByModeller.text).not.toContain('Old manual.pdf');
    expect((await logs(admin)).text).toContain('Old manual.pdf');

    // A copy's original is a template's model: an asset's is told as missing.
    const assetModel = await uploadModel(s, admin, press, 'Not a template’s', {
      'n.glb': await sphereGlb(6),
    });
    await expectReady(assetModel);
    const stolen = await s.call('POST', apiPaths.collection('threedmodels'), {
      token: admin,
      json: { template_id: templateId, name: 'Copy', copy_of: assetModel },
    });
    expect(stolen.status).toBe(422);
    expect(stolen.text).toContain(THREED_TEXTS.copyMissing);
  });
});

describe('limits through the server', () => {
  it('fails a model past the triangle limit with its text, and the next model is processed', async () => {
    // A server whose conversions allow 2,000 triangles (the real limit is 5 million).
    const small = await startTestServer({
      threedLimits: { timeMs: 10 * 60_000, heapMb: 2_048, triangles: 2_000 },
    });
    try {
      const token = await small.signIn(DEMO_USERS.admin);
      const asset = (await small.snapshot(token)).find(
        (m) => m.type === 'asset' && m.attributes.name === 'Press line 1',
      )?.id as string;
      const big = await uploadModel(small, token, asset, 'Big', { 'big.glb': await sphereGlb(60) });
      const fine = await uploadModel(small, token, asset, 'Fine', {
        'fine.glb': await sphereGlb(12),
      });
      const stateOf = async (id: string) =>
        (await small.snapshot(token)).find((m) => m.id === id)?.attributes as
          ThreedmodelAttributes | undefined;
      await expect
        .poll(async () => (await stateOf(fine))?.state, { timeout: 60_000, interval: 200 })
        .toBe('ready');
      expect(await stateOf(big)).toMatchObject({
        state: 'failed',
        reason: THREED_TEXTS.tooManyTriangles,
        levels: [],
      });
      expect((await stateOf(fine))?.levels.map((l) => l.quality)).toEqual([
        'high',
        'medium',
        'low',
      ]);
    } finally {
      await small.close();
    }
  });
});
