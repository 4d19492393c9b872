import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Document, Logger, NodeIO, type Node as GltfNode } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import { MeshoptDecoder, MeshoptEncoder } from 'meshoptimizer';
import { Loader, LoadingManager, Mesh, Texture, type BufferGeometry, type Object3D } from 'three';
import { FBXLoader } from 'three/examples/jsm/loaders/FBXLoader.js';
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

/** The reader and writer of every format step: every extension known, meshopt's codec. */
export function gltfIo(): NodeIO {
  return new NodeIO()
    .setLogger(new Logger(Logger.Verbosity.SILENT))
    .registerExtensions(ALL_EXTENSIONS)
    .registerDependencies({ 'meshopt.decoder': MeshoptDecoder, 'meshopt.encoder': MeshoptEncoder });
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
    if (format === 'step') return await loadStep(readFileSync(file));
    return loadFbx(readFileSync(file), path.dirname(file));
  } catch (err) {
    if (err instanceof ModelRefused) throw err;
    throw new ModelRefused(THREED_TEXTS.loadFailed);
  }
}

/** One mesh to put into a document: triangles, optional normals, one colour. */
interface RawMesh {
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

interface OcctMesh {
  name?: string;
  color?: [number, number, number];
  attributes: { position: { array: number[] }; normal?: { array: number[] } };
  index: { array: number[] };
}

/** A STEP part or assembly, meshed by OpenCascade in metres. */
async function loadStep(bytes: Uint8Array): Promise<Document> {
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

/** FBXLoader's textures come through the DOM's images: here each is an empty texture. */
class NoImages extends Loader<Texture> {
  override load(): Texture {
    return new Texture();
  }
}

/** An FBX model through three's loader: its meshes with their places and colours. */
function loadFbx(bytes: Buffer, dir: string): Document {
  const manager = new LoadingManager();
  const images = new NoImages(manager);
  for (const ending of [
    'png',
    'jpg',
    'jpeg',
    'tga',
    'bmp',
    'gif',
    'webp',
    'tif',
    'tiff',
    'dds',
    'psd',
  ])
    manager.addHandler(new RegExp(`\\.${ending}$`, 'i'), images);
  const loader = new FBXLoader(manager);
  const arrayBuffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const root = loader.parse(arrayBuffer as ArrayBuffer, `${dir}/`);
  root.updateMatrixWorld(true);
  const meshes: RawMesh[] = [];
  root.traverse((object: Object3D) => {
    if (!(object instanceof Mesh)) return;
    const geometry = (object.geometry as BufferGeometry).toNonIndexed();
    const position = geometry.getAttribute('position');
    if (position === undefined) return;
    const normal = geometry.getAttribute('normal');
    const count = position.count - (position.count % 3);
    const indices = new Uint32Array(count);
    for (let i = 0; i < count; i++) indices[i] = i;
    const materials: unknown = object.material;
    const material: unknown = Array.isArray(materials) ? (materials as unknown[])[0] : materials;
    const color = (material as { color?: { r: number; g: number; b: number } } | undefined)?.color;
    meshes.push({
      name: object.name === '' ? `Mesh ${meshes.length + 1}` : object.name,
      positions: Float32Array.from(position.array as ArrayLike<number>),
      normals: normal === undefined ? null : Float32Array.from(normal.array as ArrayLike<number>),
      indices,
      color: color === undefined ? null : [color.r, color.g, color.b],
      matrix: object.matrixWorld.elements,
    });
  });
  if (meshes.length === 0) throw new ModelRefused(THREED_TEXTS.loadFailed);
  return documentOf(meshes);
}
