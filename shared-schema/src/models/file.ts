import { z } from 'zod';
import { deferred } from '../deferred';
import { idField } from '../api/fields';
import type { ModelDefinition } from './registry-types';
import { viewEditPermissions } from './model-permissions';
import { FILE_REQUIRED, FILE_TOO_LARGE, FILE_WRONG_TYPE } from './file-texts';
import { FILE_ONLY_SERVER, MODEL_FILE_TEXTS } from './threedmodel-texts';
import { RELEASE_FILE_TEXTS } from './release-texts';

/** What a theme's image that does not fit is told (kind 'image'). */
export const THEME_FILE_TEXTS = {
  tooLarge: 'The image may be at most 2 MB.',
  wrongType: 'Please choose a PNG, JPEG, WebP or GIF image.',
} as const;
export {
  FILE_CHECKSUM_MISMATCH,
  FILE_FIXED,
  FILE_NOT_UPLOADED,
  FILE_REQUIRED,
  FILE_TOO_LARGE,
  FILE_WRONG_TYPE,
  PHOTO_NOT_OF_ASSET,
} from './file-texts';
export { FILE_ONLY_SERVER, MODEL_FILE_TEXTS } from './threedmodel-texts';

/**
 * Files of an asset (DESIGN.md §9, spec 001 §3: an asset's photo and documents; DESIGN.md §13: the
 * files a 3D model was uploaded as, kind 'model', and the levels and thumbnail the server made of
 * them, kind 'level', which no client may create). The model is the
 * file's metadata; its bytes are uploaded in chunks to the server's file store, content-addressed
 * by `sha256`, and served with the reader's access checked.
 */
export const FILE_KINDS = ['photo', 'document', 'model', 'level', 'artifact', 'image'] as const;
export type FileKind = (typeof FILE_KINDS)[number];

export const FILE_STATES = ['uploading', 'ready'] as const;

const MB = 1024 * 1024;

/** What each kind of file may be: its largest size and its media types. */
export const FILE_LIMITS: Record<
  FileKind,
  {
    readonly maxBytes: number;
    readonly types: readonly string[];
    /** What a file over the size or of another type is told. */
    readonly tooLarge: string;
    readonly wrongType: string;
  }
> = {
  photo: {
    tooLarge: FILE_TOO_LARGE.photo,
    wrongType: FILE_WRONG_TYPE.photo,
    maxBytes: 20 * MB,
    types: ['image/jpeg', 'image/png', 'image/webp', 'image/gif'],
  },
  document: {
    tooLarge: FILE_TOO_LARGE.document,
    wrongType: FILE_WRONG_TYPE.document,
    maxBytes: 100 * MB,
    types: [
      'application/pdf',
      'text/plain',
      'text/csv',
      'image/jpeg',
      'image/png',
      'image/webp',
      'image/gif',
      'application/zip',
      'application/msword',
      'application/vnd.ms-excel',
      'application/vnd.ms-powerpoint',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'application/vnd.openxmlformats-officedocument.presentationml.presentation',
      'application/vnd.oasis.opendocument.text',
      'application/vnd.oasis.opendocument.spreadsheet',
      'model/step',
      'model/gltf-binary',
      'model/gltf+json',
    ],
  },
  model: {
    tooLarge: MODEL_FILE_TEXTS.tooLarge,
    wrongType: MODEL_FILE_TEXTS.wrongType,
    maxBytes: 500 * MB,
    types: [
      'model/gltf-binary',
      'model/gltf+json',
      'model/step',
      'model/vnd.fbx',
      // A glTF's bin, an FBX: browsers know no type for them.
      'application/octet-stream',
      'application/zip',
      'application/x-zip-compressed',
      // A glTF's textures.
      'image/png',
      'image/jpeg',
      'image/webp',
      'image/ktx2',
    ],
  },
  level: {
    tooLarge: MODEL_FILE_TEXTS.tooLarge,
    wrongType: FILE_ONLY_SERVER,
    maxBytes: 500 * MB,
    types: ['model/gltf-binary', 'image/png'],
  },
  // A release's artifact (DESIGN.md §15): an agent build, a firmware image, a module package.
  artifact: {
    tooLarge: RELEASE_FILE_TEXTS.tooLarge,
    wrongType: RELEASE_FILE_TEXTS.wrongType,
    maxBytes: 500 * MB,
    types: [
      'application/octet-stream',
      'application/gzip',
      'application/x-gzip',
      'application/x-tar',
      'application/zip',
      'application/x-zip-compressed',
      'application/vnd.debian.binary-package',
      'application/javascript',
      'text/javascript',
    ],
  },
  image: {
    tooLarge: THEME_FILE_TEXTS.tooLarge,
    wrongType: THEME_FILE_TEXTS.wrongType,
    maxBytes: 2 * MB,
    types: ['image/png', 'image/jpeg', 'image/webp', 'image/gif'],
  },
};

/** The largest file of any kind. */
export const FILE_MAX_BYTES = Math.max(...Object.values(FILE_LIMITS).map((l) => l.maxBytes));

/** The chunk sizes an upload may use: a chunk is one request (the last one may be shorter). */
export const UPLOAD_CHUNK_BYTES = 4 * MB;
export const UPLOAD_CHUNK_MAX_BYTES = 8 * MB;

const mediaType = /* @__PURE__ */ deferred(() =>
  z
    .string()
    .max(150)
    .regex(/^[a-z0-9][\w.+-]*\/[\w.+-]+$/i, 'The media type is not valid.')
    .transform((t) => t.toLowerCase()),
);

export const fileAttributesSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    /** The asset it belongs to; null for a template's 3D model files (then `template_id`). */
    asset_id: idField.nullable().default(null),
    /** The template whose 3D model it belongs to (DESIGN.md §13); null for an asset's file. */
    template_id: idField.nullable().default(null),
    /** The help article whose image it is (DESIGN.md §14); null for an asset's or template's. */
    article_id: idField.nullable().default(null),
    /** The feedback ticket whose photo it is (DESIGN.md §14); null for any other file. */
    ticket_id: idField.nullable().default(null),
    /** The release whose artifact it is (DESIGN.md §15); null for any other file. */
    release_id: idField.nullable().default(null),
    /** The theme whose logo or login image it is (DESIGN.md §16); null for any other file. */
    theme_id: idField.nullable().default(null),
    /**
     * The filled-in form whose photo or signature it is (issue 37); such a file names its entry's
     * asset too, whose access decides who sees it.
     */
    form_entry_id: idField.nullable().default(null),
    kind: z.enum(FILE_KINDS).default('document'),
    name: z
      .string({ error: FILE_REQUIRED })
      .trim()
      .min(1, FILE_REQUIRED)
      .max(250, 'The file name may not be longer than 250 characters'),
    type: mediaType,
    // Each kind's largest size and its text are `fileProblems`', which every file write checks (a
    // bound here said the documents' 100 MB to a 3D model's file over 500 MB).
    size: z.number({ error: FILE_REQUIRED }).int().min(1, FILE_REQUIRED),
    sha256: z.string().regex(/^[0-9a-f]{64}$/, 'The checksum is not a SHA-256 in hex.'),
    /** 'ready' once every byte is stored and checked against `sha256` (the server sets it). */
    state: z.enum(FILE_STATES).default('uploading'),
    /** Whether the server made a small image of it (photos, images among the documents). */
    thumbnail: z.boolean().default(false),
  }),
);
export type FileAttributes = z.infer<typeof fileAttributesSchema>;

/** What is wrong with a file of this kind, by field: its type and its size against the limits. */
export function fileProblems(file: {
  readonly kind: FileKind;
  readonly type: string;
  readonly size: number;
}): Partial<Record<'type' | 'size', string>> {
  const limits = FILE_LIMITS[file.kind];
  const problems: Partial<Record<'type' | 'size', string>> = {};
  if (!limits.types.includes(file.type.toLowerCase())) problems.type = limits.wrongType;
  if (file.size < 1) problems.size = FILE_REQUIRED;
  else if (file.size > limits.maxBytes) problems.size = limits.tooLarge;
  return problems;
}

export const fileModel = {
  type: 'file',
  collection: 'files',
  parentType: 'asset',
  parentField: 'asset_id',
  attributes: fileAttributesSchema,
  altParents: [
    { type: 'template', field: 'template_id' },
    { type: 'article', field: 'article_id' },
    { type: 'ticket', field: 'ticket_id' },
    { type: 'release', field: 'release_id' },
    { type: 'theme', field: 'theme_id' },
    { type: 'form_entry', field: 'form_entry_id' },
  ],
  refs: {
    asset_id: 'asset',
    template_id: 'template',
    article_id: 'article',
    ticket_id: 'ticket',
    release_id: 'release',
    theme_id: 'theme',
    form_entry_id: 'form_entry',
  },
  // Files are part of what an asset is: who edits the asset adds and removes them.
  permissions: viewEditPermissions('asset::view', 'asset::edit'),
  sortField: 'name',
  serverFields: ['state', 'thumbnail'],
  fixed: [
    'asset_id',
    'template_id',
    'article_id',
    'ticket_id',
    'release_id',
    'theme_id',
    'form_entry_id',
    'kind',
    'type',
    'size',
    'sha256',
  ],
  // A template's files (no asset): the type's permissions and `template::edit` decide (server);
  // an article's images: `helpcenter::edit` to add or remove them; a ticket's photo: its reporter
  // while the ticket is new, a feedback admin at any time (server, feedback/ticket-rules.ts); a
  // release's artifact: `release::edit` while the release is a draft (server, releases/); a
  // theme's image: `theme::edit` (server).
  asset: 'asset_id',
  assetOptional: true,
} as const satisfies ModelDefinition<'file', typeof fileAttributesSchema>;

/** Where an upload stands (GET and PUT files/{id}/upload). */
export const uploadStateSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    received: z.number().int().min(0),
    size: z.number().int().min(1),
    state: z.enum(FILE_STATES),
  }),
);
export type UploadState = z.infer<typeof uploadStateSchema>;

/** A chunk's place in the file (PUT files/{id}/upload?offset=). */
export const uploadChunkQuerySchema = /* @__PURE__ */ deferred(() =>
  z.object({
    offset: z.coerce.number().int().min(0).max(FILE_MAX_BYTES),
  }),
);

/** Media types of file name endings a browser may not know (it then gives none). */
const BY_ENDING: Readonly<Record<string, string>> = {
  step: 'model/step',
  stp: 'model/step',
  glb: 'model/gltf-binary',
  fbx: 'model/vnd.fbx',
  bin: 'application/octet-stream',
  ktx2: 'image/ktx2',
  gltf: 'model/gltf+json',
  csv: 'text/csv',
  txt: 'text/plain',
  pdf: 'application/pdf',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  zip: 'application/zip',
};

/** A file's media type: the one the browser gave, else by its name's ending, else none known. */
export function mediaTypeOf(name: string, given: string): string {
  if (given !== '') return given.toLowerCase();
  const ending = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? '';
  return BY_ENDING[ending] ?? 'application/octet-stream';
}
