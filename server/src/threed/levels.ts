import type { Document, Primitive } from '@gltf-transform/core';
import {
  dedup,
  getBounds,
  meshopt,
  prune,
  simplify,
  textureCompress,
  weld,
} from '@gltf-transform/functions';
import { MeshoptEncoder, MeshoptSimplifier } from 'meshoptimizer';
import sharp from 'sharp';
import type { Quality } from '@plant/shared-schema';
import { gltfIo } from './load-model';

/*
 * The three quality levels of a canonical model (DESIGN.md §13): high is the model itself, medium
 * and low are simplified by meshoptimizer (half and about a sixth of the triangles, each within its
 * error bound: a flat face keeps its two triangles), textures at most 2048, 1024 and 512 px; each
 * level compressed with meshopt (EXT_meshopt_compression with quantised attributes) as a GLB.
 */

interface LevelPlan {
  readonly quality: Quality;
  /** Triangles kept, as a share of the model's (1: none removed). */
  readonly ratio: number;
  /** The simplifier's error bound, relative to the mesh's size. */
  readonly error: number;
  readonly texture: number;
}

export const LEVEL_PLANS: readonly LevelPlan[] = [
  { quality: 'high', ratio: 1, error: 0, texture: 2048 },
  { quality: 'medium', ratio: 0.5, error: 0.005, texture: 1024 },
  { quality: 'low', ratio: 0.15, error: 0.02, texture: 512 },
];

export interface MadeLevel {
  readonly quality: Quality;
  readonly glb: Uint8Array;
  readonly triangles: number;
}

/** Triangles of a primitive (triangle lists only; points and lines have none). */
function trianglesOf(primitive: Primitive): number {
  if (primitive.getMode() !== 4) return 0;
  const count =
    primitive.getIndices()?.getCount() ?? primitive.getAttribute('POSITION')?.getCount() ?? 0;
  return Math.floor(count / 3);
}

/** Every triangle the document's meshes hold, once per node that draws them. */
export function countTriangles(doc: Document): number {
  let total = 0;
  const perMesh = new Map<unknown, number>();
  for (const mesh of doc.getRoot().listMeshes()) {
    perMesh.set(
      mesh,
      mesh.listPrimitives().reduce((n, p) => n + trianglesOf(p), 0),
    );
  }
  for (const node of doc.getRoot().listNodes()) {
    const mesh = node.getMesh();
    if (mesh !== null) total += perMesh.get(mesh) ?? 0;
  }
  return total;
}

/** The model's bounds in metres (its first scene, every node's transform applied). */
export function boundsOf(
  doc: Document,
): { min: [number, number, number]; max: [number, number, number] } | null {
  const scene = doc.getRoot().getDefaultScene() ?? doc.getRoot().listScenes()[0];
  if (scene === undefined) return null;
  const { min, max } = getBounds(scene);
  if (!min.every(Number.isFinite) || !max.every(Number.isFinite)) return null;
  return { min: [min[0], min[1], min[2]], max: [max[0], max[1], max[2]] };
}

/**
 * Brings the document's textures down to the high level's size at most, once, before any level is
 * made: each level then decodes these (a 4096 px texture decoded for each of three levels was
 * most of a large model's peak memory). Answers whether there were textures.
 */
export async function fitTextures(doc: Document): Promise<boolean> {
  if (doc.getRoot().listTextures().length === 0) return false;
  const side = LEVEL_PLANS[0]?.texture ?? 2048;
  await doc.transform(textureCompress({ encoder: sharp, resize: [side, side] }));
  return true;
}

/**
 * Makes the three levels from the canonical model's GLB, one after another (each from a fresh
 * read: the transforms change the document they run on). `onLevel` hears each as it is done.
 * `read.doc`: the canonical model as a document already (it was just read, its textures fitted
 * by `fitTextures`): the first level is made of it, so a large model is parsed once less and its
 * textures are not encoded twice; it is taken out of `read`, so that nothing holds it past its
 * level.
 */
export async function makeLevels(
  canonical: Uint8Array,
  onLevel: (quality: Quality, index: number) => void = () => undefined,
  read: { doc?: Document } = {},
): Promise<MadeLevel[]> {
  await Promise.all([MeshoptEncoder.ready, MeshoptSimplifier.ready]);
  const io = gltfIo();
  const made: MadeLevel[] = [];
  for (const [index, plan] of LEVEL_PLANS.entries()) {
    const fitted = read.doc !== undefined;
    const doc = read.doc ?? (await io.readBinary(canonical));
    delete read.doc;
    await doc.transform(
      weld(),
      ...(plan.ratio < 1
        ? [simplify({ simplifier: MeshoptSimplifier, ratio: plan.ratio, error: plan.error })]
        : []),
      dedup(),
      prune(),
      ...(doc.getRoot().listTextures().length > 0 && !(fitted && index === 0)
        ? [textureCompress({ encoder: sharp, resize: [plan.texture, plan.texture] })]
        : []),
      meshopt({ encoder: MeshoptEncoder, level: 'medium' }),
    );
    made.push({
      quality: plan.quality,
      glb: await io.writeBinary(doc),
      triangles: countTriangles(doc),
    });
    onLevel(plan.quality, index);
  }
  return made;
}
