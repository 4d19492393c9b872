import type { Document } from '@gltf-transform/core';
import { Loader, LoadingManager, Mesh, Texture, type BufferGeometry, type Object3D } from 'three';
import { FBXLoader } from 'three/examples/jsm/loaders/FBXLoader.js';
import { THREED_TEXTS } from '@plant/shared-schema';
import { documentOf, type RawMesh } from './load-model';
import { ModelRefused } from './zip-unpack';

/* FBX through three's FBXLoader in Node: loaded only for an FBX model. */

/** FBXLoader's textures come through the DOM's images: here each is an empty texture. */
class NoImages extends Loader<Texture> {
  override load(): Texture {
    return new Texture();
  }
}

/** An FBX model through three's loader: its meshes with their places and colours. */
export function loadFbx(bytes: Buffer, dir: string): Document {
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
