import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Document, NodeIO } from '@gltf-transform/core';
import sharp from 'sharp';
import { median } from './lib';

/*
 * Issue 32's processing benchmark: a GLB of about 1 M triangles with a 4096 px texture made into
 * three quality levels, by the server's conversion (server/src/threed/convert.ts: the model
 * read, high/medium/low with meshopt, bounds, a thumbnail) against gltf-transform's own CLI
 * making the same three levels (`optimize` with the same simplify ratios and texture sizes,
 * meshopt compression), each side in processes of its own: wall time and peak memory (the
 * largest resident set of a side's processes), ratios in one run.
 */

const SEGMENTS = Number(process.env.BENCH_THREED_SEGMENTS ?? 708);
const ROUNDS = Number(process.env.BENCH_THREED_ROUNDS ?? 3);
const TEXTURE = 4096;

/** A sphere of 2 × SEGMENTS² triangles with UVs and a 4096 px PNG texture, as a GLB. */
async function bigGlb(): Promise<Uint8Array> {
  const positions = new Float32Array((SEGMENTS + 1) ** 2 * 3);
  const uvs = new Float32Array((SEGMENTS + 1) ** 2 * 2);
  let p = 0;
  let u = 0;
  for (let i = 0; i <= SEGMENTS; i++) {
    for (let j = 0; j <= SEGMENTS; j++) {
      const theta = (Math.PI * i) / SEGMENTS;
      const phi = (2 * Math.PI * j) / SEGMENTS;
      positions[p++] = Math.sin(theta) * Math.cos(phi);
      positions[p++] = Math.cos(theta);
      positions[p++] = Math.sin(theta) * Math.sin(phi);
      uvs[u++] = j / SEGMENTS;
      uvs[u++] = i / SEGMENTS;
    }
  }
  const indices = new Uint32Array(SEGMENTS * SEGMENTS * 6);
  let k = 0;
  for (let i = 0; i < SEGMENTS; i++) {
    for (let j = 0; j < SEGMENTS; j++) {
      const a = i * (SEGMENTS + 1) + j;
      const b = a + SEGMENTS + 1;
      indices.set([a, b, a + 1, b, b + 1, a + 1], k);
      k += 6;
    }
  }
  // A texture with detail everywhere (so resizing it is real work), compressible like a photo.
  const pixels = Buffer.alloc(TEXTURE * TEXTURE * 3);
  for (let y = 0; y < TEXTURE; y++) {
    for (let x = 0; x < TEXTURE; x++) {
      const o = (y * TEXTURE + x) * 3;
      pixels[o] = (x ^ y) & 255;
      pixels[o + 1] = (x * 3 + y) & 255;
      pixels[o + 2] = ((x >> 4) * (y >> 4)) & 255;
    }
  }
  const png = await sharp(pixels, { raw: { width: TEXTURE, height: TEXTURE, channels: 3 } })
    .png()
    .toBuffer();
  const doc = new Document();
  const buffer = doc.createBuffer();
  const texture = doc.createTexture('surface').setImage(png).setMimeType('image/png');
  const material = doc.createMaterial('Steel').setBaseColorTexture(texture);
  const primitive = doc
    .createPrimitive()
    .setAttribute(
      'POSITION',
      doc.createAccessor().setType('VEC3').setArray(positions).setBuffer(buffer),
    )
    .setAttribute(
      'TEXCOORD_0',
      doc.createAccessor().setType('VEC2').setArray(uvs).setBuffer(buffer),
    )
    .setIndices(doc.createAccessor().setType('SCALAR').setArray(indices).setBuffer(buffer))
    .setMaterial(material);
  doc
    .createScene()
    .addChild(doc.createNode('Sphere').setMesh(doc.createMesh('Sphere').addPrimitive(primitive)));
  return new NodeIO().writeBinary(doc);
}

/** Runs the child once; answers its wall time and peak resident set (KB). */
function child(args: readonly string[]): Promise<{ ms: number; maxRssKb: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const proc = spawn(
      process.execPath,
      [path.join(import.meta.dirname, 'threed-child.mjs'), ...args],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
    proc.stderr.on('data', (d: Buffer) => (err += d.toString()));
    proc.on('exit', (code) => {
      const ms = performance.now() - started;
      const last = out.trim().split('\n').at(-1) ?? '';
      if (code !== 0) {
        reject(new Error(`${args.join(' ')}: exit ${code}: ${err.slice(-2000)}`));
        return;
      }
      resolve({ ms, maxRssKb: (JSON.parse(last) as { maxRssKb: number }).maxRssKb });
    });
  });
}

/** The CLI's three levels, one `optimize` each, as our LEVEL_PLANS make them. */
const CLI_LEVELS = [
  ['--simplify', 'false', '--texture-size', '2048'],
  ['--simplify-ratio', '0.5', '--simplify-error', '0.005', '--texture-size', '1024'],
  ['--simplify-ratio', '0.15', '--simplify-error', '0.02', '--texture-size', '512'],
];

export async function benchThreed(): Promise<string[]> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'plant-bench-3d-'));
  try {
    const input = path.join(dir, 'upload');
    await import('node:fs/promises').then((fs) => fs.mkdir(input));
    const glb = await bigGlb();
    await writeFile(path.join(input, 'machine.glb'), glb);
    const oursMs: number[] = [];
    const oursKb: number[] = [];
    const cliMs: number[] = [];
    const cliKb: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const ours = await child(['ours', input]);
      oursMs.push(ours.ms);
      oursKb.push(ours.maxRssKb);
      let ms = 0;
      let kb = 0;
      for (const [i, level] of CLI_LEVELS.entries()) {
        const run = await child([
          'cli',
          'optimize',
          path.join(input, 'machine.glb'),
          path.join(dir, `cli-${i}.glb`),
          '--compress',
          'meshopt',
          // Recompressed in their own format, at the level's size: as ours (levels.ts).
          '--texture-compress',
          'auto',
          ...level,
        ]);
        ms += run.ms;
        kb = Math.max(kb, run.maxRssKb);
      }
      cliMs.push(ms);
      cliKb.push(kb);
    }
    const triangles = 2 * SEGMENTS * SEGMENTS;
    const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;
    const s = (value: number) => `${(value / 1000).toFixed(1)} s`;
    return [
      `threed-processing-time: ${(median(oursMs) / median(cliMs)).toFixed(2)} (ours/gltf-transform CLI, ` +
        `target at most 1.3) ${triangles.toLocaleString('en')} triangles, a ${TEXTURE} px texture, ` +
        `${(glb.byteLength / 1024 / 1024).toFixed(0)} MB GLB to three levels: ours ${s(median(oursMs))}, ` +
        `the CLI's three optimize runs ${s(median(cliMs))}`,
      `threed-processing-memory: ${(median(oursKb) / median(cliKb)).toFixed(2)} (ours/gltf-transform CLI, ` +
        `target at most 1.3) peak resident set: ours ${mb(median(oursKb))}, the CLI ${mb(median(cliKb))}`,
    ];
  } finally {
    // BENCH_THREED_KEEP=1 keeps the files (to look at what each side made).
    if (process.env.BENCH_THREED_KEEP === undefined)
      await rm(dir, { recursive: true, force: true });
    else process.stdout.write(`kept in ${dir}\n`);
  }
}
