import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Document, Logger, NodeIO, type Node as GltfNode } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import { MeshoptDecoder, MeshoptEncoder } from 'meshoptimizer';
import { THREED_TEXTS, type ThreedFormat } from '@plant/shared-schema';
import { ModelRefused, unpackZip } from './zip-unpack';

/*
 * From the uploaded files to one glTF document in metres (DESIGN.md §13): the model file found
 * among them (a ZIP unpacked first), read by its format's reader. glTF and GLB through
 * gltf-transform's own reader (it resolves a glTF's bin and textures by their paths, the way
 * the folder upload keeps them), STEP through OpenCascade (occt-import-js, WASM), meshed in
 * metres, FBX through three's FBXLoader (geometry and material colours; its textures are not
 * read: FBXLoader loads images through the DOM).
 */

/** The reader and writer of every format step: every extension known, meshopt's codec. */
export function gltfIo(): NodeIO {
  return new NodeIO()
    .setLogger(new Logger(Logger.Verbosity.SILENT))
    .registerExtensions(ALL_EXTENSIONS)
    .registerDependencies({ 'meshopt.decoder': MeshoptDecoder, 'meshopt.encoder': MeshoptEncoder });
}

/**
 * gltfIo once meshopt's WebAssembly is instantiated: a level read before it (meshopt-compressed)
 * fails with "Cannot read properties of undefined (reading 'exports')".
 */
export async function gltfIoReady(): Promise<NodeIO> {
  await Promise.all([MeshoptDecoder.ready, MeshoptEncoder.ready]);
  return gltfIo();
}

/** Every file under `dir`, as paths relative to it with forward slashes. */
export function filesUnder(dir: string, prefix = ''): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(path.join(dir, prefix), { withFileTypes: true })) {
    const relative = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) found.push(...filesUnder(dir, relative));
    else if (entry.isFile()) found.push(relative);
  }
  return found.sort();
}

const ENDINGS: readonly (readonly [ThreedFormat, RegExp])[] = [
  ['glb', /\.glb$/i],
  ['gltf', /\.gltf$/i],
  ['fbx', /\.fbx$/i],
  ['step', /\.(step|stp)$/i],
];

/**
 * The model file among the upload's: a lone ZIP is unpacked first (into `dir/unpacked`); then the
 * first GLB, glTF, FBX or STEP in that order, the one nearest the top of the folder first.
 */
export function findModelFile(dir: string): { file: string; format: ThreedFormat } {
  let files = filesUnder(dir);
  let base = dir;
  if (files.length === 1 && /\.zip$/i.test(files[0] ?? '')) {
    base = path.join(dir, 'unpacked');
    unpackZip(path.join(dir, files[0] ?? ''), base);
    files = filesUnder(base);
  }
  const byDepth = [...files].sort(
    (a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b),
  );
  for (const [format, ending] of ENDINGS) {
    const file = byDepth.find((f) => ending.test(f));
    if (file !== undefined) return { file: path.join(base, file), format };
  }
  throw new ModelRefused(THREED_TEXTS.loadFailed);
}

/** Reads the model file into a glTF document in metres. */
export async function loadModel(file: string, format: ThreedFormat): Promise<Document> {
  try {
    if (format === 'glb' || format === 'gltf') return await gltfIo().read(file);
    // OpenCascade's WASM and three load only for a model that needs them.
    if (format === 'step') return await (await import('./load-step')).loadStep(readFileSync(file));
    return (await import('./load-fbx')).loadFbx(readFileSync(file), path.dirname(file));
  } catch (err) {
    if (err instanceof ModelRefused) throw err;
    throw new ModelRefused(THREED_TEXTS.loadFailed);
  }
}

/** One mesh to put into a document: triangles, optional normals, one colour. */
export interface RawMesh {
  readonly name: string;
  readonly positions: Float32Array;
  readonly normals: Float32Array | null;
  readonly indices: Uint32Array;
  readonly color: readonly [number, number, number] | null;
  /** The mesh's place in the model (column-major 4x4), or none. */
  readonly matrix?: readonly number[];
}

/**
 * A document of these meshes, one node each under one root. `zUp`: the meshes stand on XY as CAD
 * draws them; the root turns them to glTF's Y up.
 */
export function documentOf(meshes: readonly RawMesh[], zUp = false): Document {
  const doc = new Document();
  doc.setLogger(new Logger(Logger.Verbosity.SILENT));
  const buffer = doc.createBuffer();
  const root = doc.createNode('Model');
  if (zUp) root.setRotation([-Math.SQRT1_2, 0, 0, Math.SQRT1_2]);
  doc.createScene('Model').addChild(root);
  const materials = new Map<string, ReturnType<Document['createMaterial']>>();
  for (const raw of meshes) {
    if (raw.indices.length < 3) continue;
    const key = raw.color === null ? 'default' : raw.color.join(',');
    let material = materials.get(key);
    if (material === undefined) {
      const [r, g, b] = raw.color ?? [0.75, 0.75, 0.78];
      material = doc
        .createMaterial(key)
        .setBaseColorFactor([r, g, b, 1])
        .setMetallicFactor(0.1)
        .setRoughnessFactor(0.6);
      materials.set(key, material);
    }
    const primitive = doc
      .createPrimitive()
      .setAttribute(
        'POSITION',
        doc.createAccessor().setType('VEC3').setArray(raw.positions).setBuffer(buffer),
      )
      .setIndices(doc.createAccessor().setType('SCALAR').setArray(raw.indices).setBuffer(buffer))
      .setMaterial(material);
    if (raw.normals !== null && raw.normals.length === raw.positions.length) {
      primitive.setAttribute(
        'NORMAL',
        doc.createAccessor().setType('VEC3').setArray(raw.normals).setBuffer(buffer),
      );
    }
    const node: GltfNode = doc
      .createNode(raw.name)
      .setMesh(doc.createMesh(raw.name).addPrimitive(primitive));
    if (raw.matrix !== undefined)
      node.setMatrix(raw.matrix as Parameters<GltfNode['setMatrix']>[0]);
    root.addChild(node);
  }
  return doc;
}
