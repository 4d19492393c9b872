import { readFile } from 'node:fs/promises';
import type { Document } from '@gltf-transform/core';
import { THREED_LIMITS, THREED_TEXTS, type ThreedFormat } from '@plant/shared-schema';
import { boundsOf, countTriangles, fitTextures, makeLevels, type MadeLevel } from './levels';
import { findModelFile, gltfIo, loadModel } from './load-model';
import { thumbnailOf } from './thumbnail';
import { causeOf, ModelRefused } from './zip-unpack';

/*
 * One model's processing (DESIGN.md §13), run on a thread of its own (convert-thread.ts): the
 * uploaded files in `dir` to the canonical model, its three levels, bounds and thumbnail.
 */

export interface Converted {
  readonly format: ThreedFormat;
  readonly levels: MadeLevel[];
  readonly bounds: { min: [number, number, number]; max: [number, number, number] } | null;
  readonly thumbnail: Uint8Array;
}

/** `refused` is the user's text; `cause`, when an error made it, is for the server's log. */
export type ConvertOutcome =
  { readonly ok: Converted } | { readonly refused: string; readonly cause?: string };

/** The limits a conversion checks itself (time and memory are the thread's). */
export interface ConvertLimits {
  readonly triangles: number;
}

/**
 * The model read and checked, as the canonical GLB (its textures at most the high level's size:
 * `fitTextures`) and the document it was read into. A GLB without textures is canonical as
 * uploaded (glTF's metres, Y up): its bytes are kept, not written anew. The document goes to the
 * first level, which takes it out of here; the other levels read the GLB anew.
 */
async function canonicalOf(
  file: string,
  format: ThreedFormat,
  limits: ConvertLimits,
): Promise<
  { canonical: Uint8Array; bounds: Converted['bounds']; doc?: Document } | { refused: string }
> {
  const bytes = format === 'glb' ? new Uint8Array(await readFile(file)) : null;
  const doc = bytes === null ? await loadModel(file, format) : await gltfIo().readBinary(bytes);
  const triangles = countTriangles(doc);
  if (triangles === 0) return { refused: THREED_TEXTS.loadFailed };
  if (triangles > limits.triangles) return { refused: THREED_TEXTS.tooManyTriangles };
  const fitted = await fitTextures(doc);
  const canonical = bytes !== null && !fitted ? bytes : await gltfIo().writeBinary(doc);
  return { canonical, bounds: boundsOf(doc), doc };
}

/** Processes the upload in `dir`; `progress` hears each step's share of the work done. */
export async function convert(
  dir: string,
  progress: (share: number) => void = () => undefined,
  limits: ConvertLimits = { triangles: THREED_LIMITS.triangles },
): Promise<ConvertOutcome> {
  try {
    const { file, format } = findModelFile(dir);
    progress(0.1);
    const read = await canonicalOf(file, format, limits);
    if ('refused' in read) return read;
    const { canonical, bounds } = read;
    progress(0.3);
    const levels = await makeLevels(
      canonical,
      (_quality, index) => progress(0.4 + 0.15 * index),
      read,
    );
    const low = levels.find((l) => l.quality === 'low') ?? levels[0];
    const thumbnail = await thumbnailOf(await gltfIo().readBinary(low?.glb ?? canonical));
    progress(0.9);
    return { ok: { format, levels, bounds, thumbnail } };
  } catch (err) {
    if (err instanceof ModelRefused) return { refused: err.reason };
    return { refused: THREED_TEXTS.loadFailed, cause: causeOf(err) };
  }
}
