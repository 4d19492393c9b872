import {
  fileProblems,
  MODEL_FILE_TEXTS,
  isSafeModelPath,
  mediaTypeOf,
  THREED_LIMITS,
  THREED_TEXTS,
} from '@plant/shared-schema';

/*
 * What a user picked for a 3D model (spec 001 §8: one file, a folder or a ZIP), as the upload
 * sends it: each file with its path inside the folder (a glTF names its bin and textures by it),
 * the model's name, and what is wrong with it before a byte is sent.
 */

/** A picked file as the picker gives it (File in the page; plain objects in the tests). */
export interface Picked {
  readonly name: string;
  readonly size: number;
  readonly type: string;
  /** The path inside the picked folder, first part the folder itself ('' for a lone file). */
  readonly webkitRelativePath: string;
}

export type ModelUpload<F extends Picked> =
  | {
      readonly name: string;
      readonly files: readonly { readonly file: F; readonly path: string }[];
      /** The model is a STEP file: no preview before it is processed. */
      readonly step: boolean;
    }
  | { readonly problem: string };

/** The endings of the files a model is read from (the server's load-model.ts), for the picker. */
export const MODEL_ENDINGS = ['glb', 'gltf', 'fbx', 'step', 'stp', 'zip'] as const;
const MODEL_FILE = new RegExp(`\\.(${MODEL_ENDINGS.join('|')})$`, 'i');

/** The upload of what was picked, or the problem (an English text of THREED_TEXTS/file.ts). */
export function modelUpload<F extends Picked>(picked: readonly F[]): ModelUpload<F> {
  if (picked.length === 0) return { problem: 'Please upload a file' };
  if (picked.length > THREED_LIMITS.files) return { problem: THREED_TEXTS.loadFailed };
  const folder = picked.some((f) => f.webkitRelativePath.includes('/'));
  const files = picked.map((file) => ({
    file,
    // A folder's files keep their places below the folder; a lone file is its own name.
    path: folder ? file.webkitRelativePath.split('/').slice(1).join('/') : file.name,
    problems: fileProblems({
      kind: 'model',
      type: mediaTypeOf(file.name, file.type),
      size: file.size,
    }),
  }));
  if (files.some((f) => !isSafeModelPath(f.path))) return { problem: THREED_TEXTS.badPath };
  // A folder brings what else lies in it (a readme): only its model's files are sent.
  const wanted = folder ? files.filter((f) => f.problems.type === undefined) : files;
  let bytes = 0;
  for (const { file, problems } of wanted) {
    const first = problems.size ?? problems.type;
    if (first !== undefined) return { problem: first };
    bytes += file.size;
  }
  if (bytes > THREED_LIMITS.inputBytes) return { problem: MODEL_FILE_TEXTS.tooLarge };
  const main = wanted.map((f) => f.path).find((p) => MODEL_FILE.test(p));
  if (main === undefined) return { problem: THREED_TEXTS.loadFailed };
  const name = folder
    ? (picked[0]?.webkitRelativePath.split('/')[0] ?? main)
    : main.replace(/\.[^.]+$/, '');
  return {
    name: name.slice(0, 250) || main,
    files: wanted.map(({ file, path }) => ({ file, path })),
    step: isStepModel(wanted.map((f) => f.path)),
  };
}

/** Whether a model's files are a STEP part (its tile says it has no preview before processing). */
export function isStepModel(paths: readonly string[]): boolean {
  return (
    paths.some((p) => /\.(step|stp)$/i.test(p)) &&
    !paths.some((p) => /\.(glb|gltf|fbx|zip)$/i.test(p))
  );
}
