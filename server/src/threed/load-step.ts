import { createRequire } from 'node:module';
import type { Document } from '@gltf-transform/core';
import { THREED_TEXTS } from '@plant/shared-schema';
import { documentOf } from './load-model';
import { ModelRefused } from './zip-unpack';

/* STEP through OpenCascade (occt-import-js, WASM): loaded only for a STEP model. */

/** occt-import-js ships no types: the part of its API the STEP reader uses. */
interface OcctModule {
  ReadStepFile(
    content: Uint8Array,
    params: {
      readonly linearUnit: 'millimeter' | 'centimeter' | 'meter' | 'inch' | 'foot';
      readonly linearDeflectionType: 'bounding_box_ratio' | 'absolute_value';
      readonly linearDeflection: number;
      readonly angularDeflection: number;
    },
  ): unknown;
}
const occtImport = createRequire(import.meta.url)('occt-import-js') as () => Promise<OcctModule>;

interface OcctMesh {
  name?: string;
  color?: [number, number, number];
  attributes: { position: { array: number[] }; normal?: { array: number[] } };
  index: { array: number[] };
}

/** A STEP part or assembly, meshed by OpenCascade in metres. */
export async function loadStep(bytes: Uint8Array): Promise<Document> {
  const occt = await occtImport();
  const result = occt.ReadStepFile(bytes, {
    linearUnit: 'meter',
    linearDeflectionType: 'bounding_box_ratio',
    linearDeflection: 0.001,
    angularDeflection: 0.2,
  }) as { success: boolean; meshes: OcctMesh[] };
  if (!result.success || result.meshes.length === 0)
    throw new ModelRefused(THREED_TEXTS.loadFailed);
  return documentOf(
    result.meshes.map((m, i) => ({
      name: m.name !== undefined && m.name !== '' ? m.name : `Part ${i + 1}`,
      positions: Float32Array.from(m.attributes.position.array),
      normals:
        m.attributes.normal === undefined ? null : Float32Array.from(m.attributes.normal.array),
      indices: Uint32Array.from(m.index.array),
      color: m.color ?? null,
    })),
    true,
  );
}
