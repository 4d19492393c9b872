import type { Document, Primitive } from '@gltf-transform/core';
import type { BlobStore } from '../files/blob-store';

/*
 * Whether a point lies on a 3D model (issue 32 item 4, spec 001 §8: 'A hotspot must lie on a
 * model.'): the distance from a point, in the model's own metres, to the nearest triangle of one
 * of its levels. The level's triangles are read once (its GLB from the blob store, meshopt decoded
 * by gltf-transform) and kept for the next hotspot of the same model, a few models at most.
 */

/** What a write of a hotspot asks: how far a point is from the surface a level file draws. */
export interface SurfaceCheck {
  /** The distance in metres; null when the level cannot be read (then the point is refused). */
  distance(
    accountId: string,
    level: { readonly sha256: string },
    point: readonly [number, number, number],
  ): Promise<number | null>;
  /** Reads the level's triangles ahead (before a write's transaction): the check then only scans. */
  warm(accountId: string, level: { readonly sha256: string }): Promise<void>;
}

/** Triangles kept across models, as floats (9 per triangle): about 110 MB. */
const KEPT_FLOATS = 27_000_000;

export class SurfaceIndex implements SurfaceCheck {
  private readonly kept = new Map<string, Float32Array>();
  private readonly reading = new Map<string, Promise<Float32Array | null>>();

  constructor(private readonly blobs: BlobStore) {}

  async distance(
    accountId: string,
    level: { readonly sha256: string },
    point: readonly [number, number, number],
  ): Promise<number | null> {
    const triangles = await this.triangles(accountId, level.sha256);
    return triangles === null ? null : nearestDistance(triangles, point);
  }

  async warm(accountId: string, level: { readonly sha256: string }): Promise<void> {
    await this.triangles(accountId, level.sha256);
  }

  private async triangles(accountId: string, sha256: string): Promise<Float32Array | null> {
    const key = `${accountId}:${sha256}`;
    const found = this.kept.get(key);
    if (found !== undefined) {
      // Most recently used last.
      this.kept.delete(key);
      this.kept.set(key, found);
      return found;
    }
    let pending = this.reading.get(key);
    if (pending === undefined) {
      pending = this.read(accountId, sha256).finally(() => this.reading.delete(key));
      this.reading.set(key, pending);
    }
    const read = await pending;
    if (read !== null) this.keep(key, read);
    return read;
  }

  private keep(key: string, triangles: Float32Array): void {
    this.kept.set(key, triangles);
    let total = 0;
    for (const t of this.kept.values()) total += t.length;
    for (const [k, t] of this.kept) {
      if (total <= KEPT_FLOATS || k === key) break;
      this.kept.delete(k);
      total -= t.length;
    }
  }

  private async read(accountId: string, sha256: string): Promise<Float32Array | null> {
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of this.blobs.open(accountId, sha256)) chunks.push(chunk as Buffer);
      // gltf-transform and meshopt's decoder load with the first hotspot, not at start.
      const { gltfIoReady } = await import('./load-model');
      const io = await gltfIoReady();
      const doc = await io.readBinary(new Uint8Array(Buffer.concat(chunks)));
      return worldTriangles(doc);
    } catch {
      return null;
    }
  }
}

/** Every triangle the document's scenes draw, in the model's frame (nodes' transforms applied). */
export function worldTriangles(doc: Document): Float32Array {
  const parts: { matrix: readonly number[]; primitive: Primitive }[] = [];
  let total = 0;
  for (const scene of doc.getRoot().listScenes()) {
    scene.traverse((node) => {
      const mesh = node.getMesh();
      if (mesh === null) return;
      const matrix = node.getWorldMatrix() as readonly number[];
      for (const primitive of mesh.listPrimitives()) {
        const positions = primitive.getAttribute('POSITION');
        if (primitive.getMode() !== 4 || positions === null) continue;
        const count = primitive.getIndices()?.getCount() ?? positions.getCount();
        total += Math.floor(count / 3) * 9;
        parts.push({ matrix, primitive });
      }
    });
  }
  const out = new Float32Array(total);
  let at = 0;
  const v = [0, 0, 0];
  for (const { matrix: m, primitive } of parts) {
    const positions = primitive.getAttribute('POSITION');
    if (positions === null) continue;
    const indices = primitive.getIndices();
    const count = Math.floor((indices?.getCount() ?? positions.getCount()) / 3) * 3;
    for (let i = 0; i < count; i += 1) {
      positions.getElement(indices === null ? i : indices.getScalar(i), v);
      const [x = 0, y = 0, z = 0] = v;
      out[at++] = (m[0] ?? 1) * x + (m[4] ?? 0) * y + (m[8] ?? 0) * z + (m[12] ?? 0);
      out[at++] = (m[1] ?? 0) * x + (m[5] ?? 1) * y + (m[9] ?? 0) * z + (m[13] ?? 0);
      out[at++] = (m[2] ?? 0) * x + (m[6] ?? 0) * y + (m[10] ?? 1) * z + (m[14] ?? 0);
    }
  }
  return out;
}

/**
 * The smallest distance from `p` to the triangles (9 floats each): the closest point on each
 * triangle by its Voronoi regions (Ericson, Real-Time Collision Detection §5.1.5), a box test
 * first so most triangles cost a few comparisons.
 */
export function nearestDistance(
  tri: Float32Array,
  p: readonly [number, number, number],
): number | null {
  if (tri.length < 9) return null;
  const [px, py, pz] = p;
  let best = Infinity;
  for (let i = 0; i + 8 < tri.length; i += 9) {
    const ax = tri[i] as number;
    const ay = tri[i + 1] as number;
    const az = tri[i + 2] as number;
    const bx = tri[i + 3] as number;
    const by = tri[i + 4] as number;
    const bz = tri[i + 5] as number;
    const cx = tri[i + 6] as number;
    const cy = tri[i + 7] as number;
    const cz = tri[i + 8] as number;
    const r = Math.sqrt(best);
    if (
      px < Math.min(ax, bx, cx) - r ||
      px > Math.max(ax, bx, cx) + r ||
      py < Math.min(ay, by, cy) - r ||
      py > Math.max(ay, by, cy) + r ||
      pz < Math.min(az, bz, cz) - r ||
      pz > Math.max(az, bz, cz) + r
    )
      continue;
    const d = squaredToTriangle(px, py, pz, ax, ay, az, bx, by, bz, cx, cy, cz);
    if (d < best) best = d;
    if (best === 0) break;
  }
  return Math.sqrt(best);
}

function squaredToTriangle(
  px: number,
  py: number,
  pz: number,
  ax: number,
  ay: number,
  az: number,
  bx: number,
  by: number,
  bz: number,
  cx: number,
  cy: number,
  cz: number,
): number {
  const abx = bx - ax;
  const aby = by - ay;
  const abz = bz - az;
  const acx = cx - ax;
  const acy = cy - ay;
  const acz = cz - az;
  const apx = px - ax;
  const apy = py - ay;
  const apz = pz - az;
  const d1 = abx * apx + aby * apy + abz * apz;
  const d2 = acx * apx + acy * apy + acz * apz;
  const sq = (x: number, y: number, z: number) => {
    const dx = px - x;
    const dy = py - y;
    const dz = pz - z;
    return dx * dx + dy * dy + dz * dz;
  };
  if (d1 <= 0 && d2 <= 0) return sq(ax, ay, az);
  const bpx = px - bx;
  const bpy = py - by;
  const bpz = pz - bz;
  const d3 = abx * bpx + aby * bpy + abz * bpz;
  const d4 = acx * bpx + acy * bpy + acz * bpz;
  if (d3 >= 0 && d4 <= d3) return sq(bx, by, bz);
  const vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    const t = d1 / (d1 - d3);
    return sq(ax + t * abx, ay + t * aby, az + t * abz);
  }
  const cpx = px - cx;
  const cpy = py - cy;
  const cpz = pz - cz;
  const d5 = abx * cpx + aby * cpy + abz * cpz;
  const d6 = acx * cpx + acy * cpy + acz * cpz;
  if (d6 >= 0 && d5 <= d6) return sq(cx, cy, cz);
  const vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    const t = d2 / (d2 - d6);
    return sq(ax + t * acx, ay + t * acy, az + t * acz);
  }
  const va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
    const t = (d4 - d3) / (d4 - d3 + (d5 - d6));
    return sq(bx + t * (cx - bx), by + t * (cy - by), bz + t * (cz - bz));
  }
  const denom = 1 / (va + vb + vc);
  const v = vb * denom;
  const w = vc * denom;
  return sq(ax + abx * v + acx * w, ay + aby * v + acy * w, az + abz * v + acz * w);
}
