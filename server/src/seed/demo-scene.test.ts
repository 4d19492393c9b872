import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  surfaceTolerance,
  type HotspotAttributes,
  type SceneAttributes,
  type SyncedModel,
  type ThreedmodelAttributes,
} from '@plant/shared-schema';
import { DiskBlobStore } from '../files/blob-store';
import { startTestServer, type TestServer } from '../testing/harness';
import { SurfaceIndex } from '../threed/surface';
import { DEMO_SCENE } from './demo-scene';
import { DEMO_USERS } from './demo';
import path from 'node:path';

/*
 * The demo's 3D scene (issue 32 item 8): on a fresh demo start, the first machine has a model
 * the seed built, processed in the background to three levels, a scene placing it, and two
 * hotspots on its surface, the motor's showing the machine's motor temperature.
 */
let s: TestServer;
let admin = '';

beforeAll(async () => {
  s = await startTestServer({ demoScene: true });
  admin = await s.signIn(DEMO_USERS.admin);
});
afterAll(() => s.close());

describe('the demo scene', () => {
  it('has a processed model and two hotspots on it, one showing a live stream', async () => {
    let models: SyncedModel[] = [];
    await expect
      .poll(
        async () => {
          models = await s.snapshot(admin);
          return models.find((m) => m.type === 'threedmodel')?.attributes.state;
        },
        { timeout: 60_000, interval: 250 },
      )
      .toBe('ready');
    const model = models.find((m) => m.type === 'threedmodel');
    const attributes = model?.attributes as ThreedmodelAttributes;
    expect(attributes.name).toBe(DEMO_SCENE.model);
    expect(attributes.levels.map((l) => l.quality)).toEqual(['high', 'medium', 'low']);
    const scene = models.find((m) => m.type === 'scene');
    expect((scene?.attributes as SceneAttributes).models.map((p) => p.threedmodel_id)).toEqual([
      model?.id,
    ]);
    const hotspots = models
      .filter((m) => m.type === 'hotspot')
      .map((m) => m.attributes as HotspotAttributes);
    expect(hotspots.map((h) => h.name).sort()).toEqual([DEMO_SCENE.motor, DEMO_SCENE.tank]);
    const motor = hotspots.find((h) => h.name === DEMO_SCENE.motor);
    const stream = models.find(
      (m) =>
        m.type === 'datastream' &&
        m.id === (motor?.metadata[0] as { datastream_id?: string }).datastream_id,
    );
    expect(stream?.attributes).toMatchObject({
      name: 'Motor temperature',
      asset_id: (scene?.attributes as SceneAttributes).asset_id,
    });
    // Each on the processed model's surface, as the server asks of a user's hotspot.
    const surfaces = new SurfaceIndex(new DiskBlobStore(path.join(s.dataDir, 'files')));
    const medium = attributes.levels.find((l) => l.quality === 'medium');
    const file = models.find((m) => m.id === medium?.file_id);
    for (const hotspot of hotspots) {
      const distance = await surfaces.distance(
        (await s.demoAccountIds()).root,
        { sha256: String(file?.attributes.sha256) },
        hotspot.point,
      );
      expect(distance).not.toBeNull();
      expect(distance ?? 1).toBeLessThan(surfaceTolerance(attributes.bounds));
    }
  });
});
