import { Document, NodeIO } from '@gltf-transform/core';
import type { Db } from '../db/database';
import { keepBytes, type BlobStore } from '../files/blob-store';
import type { Clock } from '../lib/clock';
import { ModelRepository } from '../repositories/model.repository';
import { seedWrites } from './seed-writes';

/*
 * The demo's 3D scene (issue 32 item 8): the first demo machine gets a model the seed builds (the
 * press's hydraulic unit: a base plate, a tank and a motor, in metres), uploaded as a GLB file would be, so
 * the server processes it in the background like any upload; a scene placing it; and two
 * hotspots on its surface: the motor, showing the machine's live motor temperature, and the
 * tank, with a service note.
 */

export const DEMO_SCENE = {
  name: 'Hydraulic unit',
  model: 'Hydraulic unit',
  file: 'hydraulic-unit.glb',
  motor: 'Motor',
  tank: 'Tank',
} as const;

/** The parts, in metres: a box's centre and size, a cylinder's centre, radius and height. */
const BASE = { center: [0, 0.05, 0], size: [1.2, 0.1, 0.6] } as const;
const MOTOR = { center: [0.3, 0.225, 0], size: [0.3, 0.25, 0.25] } as const;
const TANK = { center: [-0.3, 0.4, 0], radius: 0.2, height: 0.6 } as const;
const SEGMENTS = 32;

interface Mesh {
  readonly positions: number[];
  readonly normals: number[];
}

function box(center: readonly number[], size: readonly number[]): Mesh {
  const [cx = 0, cy = 0, cz = 0] = center;
  const [sx = 0, sy = 0, sz = 0] = size.map((s) => s / 2);
  const positions: number[] = [];
  const normals: number[] = [];
  // Each face: its normal axis and sign, and two axes across it (counter-clockwise outside).
  const faces: [number, number, number, number][] = [
    [0, 1, 1, 2],
    [0, -1, 2, 1],
    [1, 1, 2, 0],
    [1, -1, 0, 2],
    [2, 1, 0, 1],
    [2, -1, 1, 0],
  ];
  const half = [sx, sy, sz];
  const c = [cx, cy, cz];
  for (const [axis, sign, u, v] of faces) {
    const corner = (a: number, b: number) => {
      const p = [0, 0, 0];
      p[axis] = (c[axis] ?? 0) + sign * (half[axis] ?? 0);
      p[u] = (c[u] ?? 0) + a * (half[u] ?? 0);
      p[v] = (c[v] ?? 0) + b * (half[v] ?? 0);
      return p;
    };
    const n = [0, 0, 0];
    n[axis] = sign;
    for (const [a, b] of [
      [-1, -1],
      [1, -1],
      [1, 1],
      [-1, -1],
      [1, 1],
      [-1, 1],
    ] as const) {
      positions.push(...corner(a, b));
      normals.push(...n);
    }
  }
  return { positions, normals };
}

function cylinder(center: readonly number[], radius: number, height: number): Mesh {
  const [cx = 0, cy = 0, cz = 0] = center;
  const positions: number[] = [];
  const normals: number[] = [];
  const bottom = cy - height / 2;
  const top = cy + height / 2;
  for (let i = 0; i < SEGMENTS; i += 1) {
    const a0 = (i / SEGMENTS) * Math.PI * 2;
    const a1 = ((i + 1) / SEGMENTS) * Math.PI * 2;
    const [x0, z0, x1, z1] = [Math.cos(a0), Math.sin(a0), Math.cos(a1), Math.sin(a1)];
    const side = [
      [x0, bottom, z0],
      [x1, top, z1],
      [x1, bottom, z1],
      [x0, bottom, z0],
      [x0, top, z0],
      [x1, top, z1],
    ];
    for (const [x = 0, y = 0, z = 0] of side) {
      positions.push(cx + radius * x, y, cz + radius * z);
      normals.push(x, 0, z);
    }
    for (const [y, up] of [
      [top, 1],
      [bottom, -1],
    ] as const) {
      const ring =
        up === 1
          ? [
              [0, 0],
              [x1, z1],
              [x0, z0],
            ]
          : [
              [0, 0],
              [x0, z0],
              [x1, z1],
            ];
      for (const [x = 0, z = 0] of ring) {
        positions.push(cx + radius * x, y, cz + radius * z);
        normals.push(0, up, 0);
      }
    }
  }
  return { positions, normals };
}

/** The hydraulic unit as a GLB: one node per part, each with its own colour. */
export async function demoMachineGlb(): Promise<Uint8Array> {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const scene = doc.createScene('Hydraulic unit');
  const parts: [string, Mesh, [number, number, number, number]][] = [
    ['Base', box(BASE.center, BASE.size), [0.35, 0.38, 0.42, 1]],
    ['Tank', cylinder(TANK.center, TANK.radius, TANK.height), [0.75, 0.78, 0.8, 1]],
    ['Motor', box(MOTOR.center, MOTOR.size), [0.1, 0.35, 0.65, 1]],
  ];
  for (const [name, mesh, color] of parts) {
    const material = doc.createMaterial(name).setBaseColorFactor(color).setMetallicFactor(0.2);
    const position = doc
      .createAccessor()
      .setType('VEC3')
      .setArray(new Float32Array(mesh.positions))
      .setBuffer(buffer);
    const normal = doc
      .createAccessor()
      .setType('VEC3')
      .setArray(new Float32Array(mesh.normals))
      .setBuffer(buffer);
    const primitive = doc
      .createPrimitive()
      .setAttribute('POSITION', position)
      .setAttribute('NORMAL', normal)
      .setMaterial(material);
    scene.addChild(doc.createNode(name).setMesh(doc.createMesh(name).addPrimitive(primitive)));
  }
  return new NodeIO().writeBinary(doc);
}

/**
 * Seeds the scene on the machine (its stream "Motor temperature" shown live by the motor's
 * hotspot). The model's GLB goes into the blob store as an upload's bytes do.
 */
export async function seedDemoScene(
  trx: Db,
  clock: Clock,
  accountId: string,
  assetId: string,
  blobs: BlobStore,
): Promise<void> {
  const { create } = seedWrites(trx, clock, accountId, 'demo scene');
  const glb = await demoMachineGlb();
  const sha256 = await keepBytes(blobs, accountId, glb);
  const fileId = await create('files', {
    asset_id: assetId,
    kind: 'model',
    name: DEMO_SCENE.file,
    type: 'model/gltf-binary',
    size: glb.byteLength,
    sha256,
    state: 'ready',
  });
  const modelId = await create('threedmodels', {
    asset_id: assetId,
    name: DEMO_SCENE.model,
    sources: [{ file_id: fileId, path: DEMO_SCENE.file }],
  });
  const sceneId = await create('scenes', {
    asset_id: assetId,
    name: DEMO_SCENE.name,
    models: [{ threedmodel_id: modelId }],
    camera: { position: [1.4, 1.1, 1.6], target: [0, 0.3, 0] },
  });
  const streams = await new ModelRepository(trx).allOfTypes(accountId, ['datastream']);
  const motorTemperature = streams.find((r) => {
    const a = JSON.parse(r.attributes) as { asset_id?: string; name?: string };
    return a.asset_id === assetId && a.name === 'Motor temperature';
  })?.id;
  await create('hotspots', {
    scene_id: sceneId,
    name: DEMO_SCENE.motor,
    threedmodel_id: modelId,
    // The middle of the motor's top face.
    point: [MOTOR.center[0], MOTOR.center[1] + MOTOR.size[1] / 2, MOTOR.center[2]],
    normal: [0, 1, 0],
    icon: 'motor',
    metadata:
      motorTemperature === undefined ? [] : [{ kind: 'stream', datastream_id: motorTemperature }],
    qr_description: 'Drive motor M1',
  });
  await create('hotspots', {
    scene_id: sceneId,
    name: DEMO_SCENE.tank,
    threedmodel_id: modelId,
    // On the tank's side, facing +X (a vertex line of the cylinder: exactly on its surface).
    point: [TANK.center[0] + TANK.radius, TANK.center[1], TANK.center[2]],
    normal: [1, 0, 0],
    icon: 'info',
    metadata: [
      { kind: 'text', text: 'Hydraulic oil HLP 46. Check the level weekly; change it yearly.' },
    ],
    qr_description: 'Tank T1',
  });
}
