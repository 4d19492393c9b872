import type { Document, Node as GltfNode } from '@gltf-transform/core';
import sharp from 'sharp';

/*
 * A model's thumbnail without a browser (DESIGN.md §13): its triangles drawn by our own small
 * rasteriser, seen from the front-right above as a catalogue shows a machine, each face lit by
 * how much it turns to the viewer, in its material's colour, on a transparent square. Renderings
 * of a scene (the viewer's lights, textures) are the browser's work (issue 32 item 5); this is the
 * picture of a list's tile.
 */

const SIZE = 256;
const MARGIN = 12;

type Vec3 = [number, number, number];

const normalise = (v: Vec3): Vec3 => {
  const n = Math.hypot(v[0], v[1], v[2]) || 1;
  return [v[0] / n, v[1] / n, v[2] / n];
};
const cross = (a: Vec3, b: Vec3): Vec3 => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
const dot = (a: Vec3, b: Vec3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

/** The nodes that draw (their world matrices applied where drawn). */
function drawingNodes(doc: Document): GltfNode[] {
  return doc
    .getRoot()
    .listNodes()
    .filter((n) => n.getMesh() !== null);
}

/** Applies a column-major 4x4 matrix to a point. */
function transform(m: readonly number[], p: Vec3): Vec3 {
  const [x, y, z] = p;
  return [
    (m[0] ?? 1) * x + (m[4] ?? 0) * y + (m[8] ?? 0) * z + (m[12] ?? 0),
    (m[1] ?? 0) * x + (m[5] ?? 1) * y + (m[9] ?? 0) * z + (m[13] ?? 0),
    (m[2] ?? 0) * x + (m[6] ?? 0) * y + (m[10] ?? 1) * z + (m[14] ?? 0),
  ];
}

/** The model's thumbnail as a PNG, SIZE px square. */
export async function thumbnailOf(doc: Document): Promise<Uint8Array> {
  // The view: from front-right above, y up (glTF's).
  const towardViewer = normalise([1, 0.8, 1.3]);
  const right = normalise(cross([0, 1, 0], towardViewer));
  const up = cross(towardViewer, right);
  const triangles: { a: Vec3; b: Vec3; c: Vec3; color: Vec3 }[] = [];
  let minX = Infinity;
  let maxX = -Infinity;
  let minY = Infinity;
  let maxY = -Infinity;
  const element: number[] = [];
  for (const node of drawingNodes(doc)) {
    const matrix = node.getWorldMatrix();
    for (const primitive of node.getMesh()?.listPrimitives() ?? []) {
      if (primitive.getMode() !== 4) continue;
      const position = primitive.getAttribute('POSITION');
      if (position === null) continue;
      const factor = primitive.getMaterial()?.getBaseColorFactor() ?? [0.75, 0.75, 0.78, 1];
      const color: Vec3 = [factor[0], factor[1], factor[2]];
      const view: Vec3[] = [];
      for (let i = 0; i < position.getCount(); i++) {
        position.getElement(i, element);
        const world = transform(matrix, [element[0] ?? 0, element[1] ?? 0, element[2] ?? 0]);
        const v: Vec3 = [dot(world, right), dot(world, up), dot(world, towardViewer)];
        minX = Math.min(minX, v[0]);
        maxX = Math.max(maxX, v[0]);
        minY = Math.min(minY, v[1]);
        maxY = Math.max(maxY, v[1]);
        view.push(v);
      }
      const indices = primitive.getIndices();
      const count = indices?.getCount() ?? position.getCount();
      for (let i = 0; i + 2 < count; i += 3) {
        const at = (k: number) => view[indices === null ? k : indices.getScalar(k)];
        const a = at(i);
        const b = at(i + 1);
        const c = at(i + 2);
        if (a !== undefined && b !== undefined && c !== undefined)
          triangles.push({ a, b, c, color });
      }
    }
  }
  const pixels = Buffer.alloc(SIZE * SIZE * 4);
  if (triangles.length > 0 && Number.isFinite(minX)) {
    const span = Math.max(maxX - minX, maxY - minY) || 1;
    const scale = (SIZE - 2 * MARGIN) / span;
    const offsetX = (SIZE - (maxX - minX) * scale) / 2;
    const offsetY = (SIZE - (maxY - minY) * scale) / 2;
    const depth = new Float32Array(SIZE * SIZE).fill(-Infinity);
    const toScreen = (v: Vec3): Vec3 => [
      offsetX + (v[0] - minX) * scale,
      SIZE - (offsetY + (v[1] - minY) * scale),
      v[2],
    ];
    for (const t of triangles) {
      const normal = normalise(
        cross(
          [t.b[0] - t.a[0], t.b[1] - t.a[1], t.b[2] - t.a[2]],
          [t.c[0] - t.a[0], t.c[1] - t.a[1], t.c[2] - t.a[2]],
        ),
      );
      // Both sides lit (a model's winding is not always right): light from the viewer's side.
      const light = 0.35 + 0.65 * Math.abs(normal[2]);
      const [r, g, b] = t.color.map((c) => Math.round(255 * Math.min(1, c * light))) as Vec3;
      fillTriangle(toScreen(t.a), toScreen(t.b), toScreen(t.c), depth, (index) => {
        pixels[index * 4] = r;
        pixels[index * 4 + 1] = g;
        pixels[index * 4 + 2] = b;
        pixels[index * 4 + 3] = 255;
      });
    }
  }
  return new Uint8Array(
    await sharp(pixels, { raw: { width: SIZE, height: SIZE, channels: 4 } })
      .png()
      .toBuffer(),
  );
}

/** Fills a screen triangle where it is nearer than what is drawn (depth: larger is nearer). */
function fillTriangle(
  a: Vec3,
  b: Vec3,
  c: Vec3,
  depth: Float32Array,
  paint: (index: number) => void,
): void {
  const area = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
  if (area === 0) return;
  const x0 = Math.max(0, Math.floor(Math.min(a[0], b[0], c[0])));
  const x1 = Math.min(SIZE - 1, Math.ceil(Math.max(a[0], b[0], c[0])));
  const y0 = Math.max(0, Math.floor(Math.min(a[1], b[1], c[1])));
  const y1 = Math.min(SIZE - 1, Math.ceil(Math.max(a[1], b[1], c[1])));
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      const px = x + 0.5;
      const py = y + 0.5;
      const w0 = ((b[0] - px) * (c[1] - py) - (b[1] - py) * (c[0] - px)) / area;
      const w1 = ((c[0] - px) * (a[1] - py) - (c[1] - py) * (a[0] - px)) / area;
      const w2 = 1 - w0 - w1;
      if (w0 < 0 || w1 < 0 || w2 < 0) continue;
      const z = w0 * a[2] + w1 * b[2] + w2 * c[2];
      const index = y * SIZE + x;
      if (z <= (depth[index] ?? -Infinity)) continue;
      depth[index] = z;
      paint(index);
    }
  }
}
