import { Box3, Vector3, type Object3D } from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { MeshoptDecoder } from 'three/examples/jsm/libs/meshopt_decoder.module.js';
import { syncWorker } from '../../../sync/worker';

/*
 * A quality level's GLB, through the worker's files (kept on the device once read: an opened
 * model opens offline, DESIGN.md §9), parsed by three's GLTFLoader with meshopt's decoder (the
 * levels are EXT_meshopt_compression). Nothing is fetched from another origin.
 */

/** A level could not be read (the file is not here and the server cannot be reached, say). */
export class LevelUnavailable extends Error {}

/** Whether an error says memory ran out (an allocation refused while parsing or uploading). */
export function isMemoryError(err: unknown): boolean {
  return (
    err instanceof RangeError || (err instanceof Error && /memory|allocation/i.test(err.message))
  );
}

let loader: GLTFLoader | undefined;

function gltfLoader(): GLTFLoader {
  loader ??= new GLTFLoader().setMeshoptDecoder(MeshoptDecoder);
  return loader;
}

/** The level's scene, with its bounds (metres). */
export async function loadLevel(
  fileId: string,
): Promise<{ scene: Object3D; size: number; center: Vector3 }> {
  const read = await syncWorker().files.read(fileId, 'content');
  if ('error' in read) throw new LevelUnavailable(read.error.message);
  const bytes = await read.data.arrayBuffer();
  const gltf = await gltfLoader().parseAsync(bytes, '');
  const box = new Box3().setFromObject(gltf.scene);
  const center = box.getCenter(new Vector3());
  const size = box.getSize(new Vector3()).length() || 1;
  return { scene: gltf.scene, size, center };
}
