import { mkdtemp, mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { THREED_TEXTS } from '@plant/shared-schema';
import { sphereGlb, sphereGltfFolder, zipBomb, zipOf } from '../testing/model-files';
import { cylinderStep } from '../testing/step-part';
import { convert, type ConvertOutcome } from './convert';
import { convertOnThread } from './convert-thread';
import { gltfIo } from './load-model';
import { countTriangles } from './levels';
import { unpackZip } from './zip-unpack';

/*
 * One model's processing (DESIGN.md §13, issue 32 items 1 and 2), in this process: each format to
 * three levels with fewer triangles the lower the level, bounds in metres, a thumbnail that shows
 * the model; ZIP archives unpacked within their limits. (Through the server, on its thread, and
 * with the upload path: threed.test.ts.)
 */
const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function upload(files: Record<string, Uint8Array | string>): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'plant-model-'));
  dirs.push(dir);
  for (const [name, bytes] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), bytes);
  }
  return dir;
}

function ok(outcome: ConvertOutcome) {
  if (!('ok' in outcome))
    throw new Error(`refused: ${outcome.refused}${outcome.cause ? ` (${outcome.cause})` : ''}`);
  return outcome.ok;
}

async function expectLevels(outcome: ConvertOutcome) {
  const made = ok(outcome);
  expect(made.levels.map((l) => l.quality)).toEqual(['high', 'medium', 'low']);
  const [high, medium, low] = made.levels;
  expect(low?.triangles).toBeLessThan(medium?.triangles ?? 0);
  expect(medium?.triangles).toBeLessThan(high?.triangles ?? 0);
  // Each level is a GLB that reads back with as many triangles as it says.
  for (const level of made.levels) {
    expect(countTriangles(await gltfIo().readBinary(level.glb))).toBe(level.triangles);
    expect(Buffer.from(level.glb.subarray(0, 4)).toString()).toBe('glTF');
  }
  // The thumbnail shows something: not every pixel is transparent.
  const { data, info } = await sharp(made.thumbnail).raw().toBuffer({ resolveWithObject: true });
  let drawn = 0;
  for (let i = 3; i < data.length; i += info.channels) if ((data[i] ?? 0) > 0) drawn += 1;
  expect(drawn).toBeGreaterThan(1000);
  return made;
}

describe('converting an upload', () => {
  it('makes three levels, bounds and a thumbnail of a GLB', async () => {
    const made = await expectLevels(
      await convert(await upload({ 'pump.glb': await sphereGlb(120) })),
    );
    expect(made.format).toBe('glb');
    expect(made.levels[0]?.triangles).toBe(2 * 120 * 120);
    expect(made.bounds?.max[1]).toBeCloseTo(0.5, 3);
  });

  it('reads a glTF folder with its separate bin', async () => {
    const made = await expectLevels(await convert(await upload(await sphereGltfFolder(80))));
    expect(made.format).toBe('gltf');
  });

  it('says what a glTF without its bin lacks', async () => {
    const { 'machine.gltf': json } = await sphereGltfFolder(20);
    expect(await convert(await upload({ 'machine.gltf': json ?? '' }))).toEqual({
      refused: THREED_TEXTS.loadFailed,
    });
  });

  it('meshes a STEP part in metres', async () => {
    const made = await expectLevels(
      await convert(await upload({ 'flange.step': cylinderStep(40, 100) })),
    );
    expect(made.format).toBe('step');
    // 40 mm radius, 100 mm high: metres, and standing up (CAD's Z up is glTF's Y up).
    expect(made.bounds?.max[1]).toBeCloseTo(0.1, 4);
    expect(made.bounds?.min[1]).toBeCloseTo(0, 4);
    expect(made.bounds?.max[0]).toBeCloseTo(0.04, 3);
  });

  it('unpacks a ZIP of a glTF folder', async () => {
    const folder = await sphereGltfFolder(60);
    const zip = zipOf(
      Object.fromEntries(Object.entries(folder).map(([k, v]) => [`model/${k}`, v])),
    );
    const made = await expectLevels(await convert(await upload({ 'model.zip': zip })));
    expect(made.format).toBe('gltf');
  });

  it('refuses a ZIP with an entry that leaves its folder, before writing it', async () => {
    const dir = await upload({
      'model.zip': zipOf({ 'ok.glb': await sphereGlb(8), '../escaped.glb': await sphereGlb(8) }),
    });
    expect(await convert(dir)).toEqual({ refused: THREED_TEXTS.zipPath });
    await expect(stat(path.join(dir, 'escaped.glb'))).rejects.toThrow();
    await expect(stat(path.join(dir, 'unpacked', 'ok.glb'))).rejects.toThrow();
  });

  it('refuses a ZIP that unpacks to 1 GB', async () => {
    const bomb = zipBomb(20, 50 * 1024 * 1024);
    expect(bomb.length).toBeLessThan(2_000_000);
    expect(await convert(await upload({ 'model.zip': bomb }))).toEqual({
      refused: THREED_TEXTS.zipTooLarge,
    });
  });

  it('stops a ZIP whose headers lie about its sizes at the limit, as it inflates', async () => {
    const dir = await upload({ 'model.zip': zipBomb(8, 8 * 1024 * 1024, 1024) });
    const into = path.join(dir, 'unpacked');
    expect(() =>
      unpackZip(path.join(dir, 'model.zip'), into, { bytes: 20 * 1024 * 1024, entries: 100 }),
    ).toThrow(THREED_TEXTS.zipTooLarge);
    let written = 0;
    for (const name of await readdir(into)) written += (await stat(path.join(into, name))).size;
    expect(written).toBeGreaterThan(0);
    expect(written).toBeLessThanOrEqual(20 * 1024 * 1024);
  });

  it('refuses a model over the triangle limit', async () => {
    expect(
      await convert(await upload({ 'big.glb': await sphereGlb(40) }), () => undefined, {
        triangles: 1000,
      }),
    ).toEqual({ refused: THREED_TEXTS.tooManyTriangles });
  });

  it('says what a file of no known format is', async () => {
    expect(await convert(await upload({ 'notes.txt': 'not a model' }))).toEqual({
      refused: THREED_TEXTS.loadFailed,
    });
  });
});

describe('a conversion on its own thread', () => {
  it('ends a conversion over its time or its heap with their texts, and the next one converts', async () => {
    const dir = await upload({ 'pump.glb': await sphereGlb(60) });
    const limits = { timeMs: 60_000, heapMb: 2048, triangles: 1_000_000 };
    const slow = convertOnThread(dir, () => undefined, { ...limits, timeMs: 1 });
    expect(await slow.outcome).toEqual({ refused: THREED_TEXTS.tooSlow });
    const starved = convertOnThread(dir, () => undefined, { ...limits, heapMb: 4 });
    expect(await starved.outcome).toEqual({ refused: THREED_TEXTS.tooMuchMemory });
    const shares: number[] = [];
    const fine = convertOnThread(dir, (share) => shares.push(share), limits);
    const outcome = await fine.outcome;
    expect(ok(outcome).levels).toHaveLength(3);
    expect(shares.length).toBeGreaterThan(2);
    expect(shares).toEqual([...shares].sort((a, b) => a - b));
  });
});
