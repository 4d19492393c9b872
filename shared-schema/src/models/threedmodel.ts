import { z } from 'zod';
import { deferred } from '../deferred';
import { idField, modelNameField } from '../api/fields';
import type { ModelDefinition } from './registry-types';
import { ownPermissions } from './model-permissions';
import { THREED_TEXTS } from './threedmodel-texts';
export { THREED_TEXTS } from './threedmodel-texts';

/*
 * A 3D model of an asset (DESIGN.md §13, issue 32): the files it was uploaded as (one file, a
 * folder's files with their paths, or a ZIP), and what the server made of them in the background:
 * one canonical GLB in metres as three quality levels (each a `file` of kind 'level'), its bounds
 * and a thumbnail. The 3D area's permissions are `scene::…` (spec 000's menu entry "Scene"):
 * models, scenes, hotspots and renderings are one feature to grant.
 */

export const THREED_STATES = ['uploaded', 'processing', 'ready', 'failed'] as const;
export type ThreedState = (typeof THREED_STATES)[number];

export const QUALITIES = ['low', 'medium', 'high'] as const;
export type Quality = (typeof QUALITIES)[number];

/** The formats read (spec 001 §8): what the server found among the files. */
export const THREED_FORMATS = ['glb', 'gltf', 'fbx', 'step'] as const;
export type ThreedFormat = (typeof THREED_FORMATS)[number];

const MB = 1024 * 1024;

/** The limits of one model's processing (DESIGN.md §13): each passed says so, in THREED_TEXTS. */
export const THREED_LIMITS = {
  /** All files of a model together, as uploaded. */
  inputBytes: 500 * MB,
  /** What a ZIP may unpack to, and how many entries it may hold. */
  unpackedBytes: 512 * MB,
  zipEntries: 2_000,
  /** Triangles of the canonical model (STEP: after meshing). */
  triangles: 5_000_000,
  /** A conversion's time and its thread's heap. */
  timeMs: 10 * 60_000,
  heapMb: 2_048,
  /** Files of a folder upload. */
  files: 500,
} as const;

/**
 * A file's place in the upload: its path inside the folder (a glTF names its bin and textures by
 * it), forward slashes, no part that leaves the folder.
 */
export const modelPathField = /* @__PURE__ */ deferred(() =>
  z
    .string()
    .min(1, THREED_TEXTS.badPath)
    .max(500, THREED_TEXTS.badPath)
    .refine(isSafeModelPath, THREED_TEXTS.badPath),
);

/** Whether a path stays inside its folder: relative, no `..` or `.` part, no backslash or NUL. */
export function isSafeModelPath(path: string): boolean {
  if (path.startsWith('/') || path.includes('\\') || path.includes('\0')) return false;
  if (/^[a-z]:/i.test(path)) return false;
  return path.split('/').every((part) => part !== '' && part !== '.' && part !== '..');
}

const vec3 = /* @__PURE__ */ deferred(() => z.tuple([z.number(), z.number(), z.number()]));

export const threedLevelSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    quality: z.enum(QUALITIES),
    file_id: idField,
    triangles: z.number().int().min(0),
    bytes: z.number().int().min(0),
  }),
);
export type ThreedLevel = z.infer<typeof threedLevelSchema>;

export const threedmodelAttributesSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    /** The asset it belongs to; null for a template's model (then `template_id`). */
    asset_id: idField.nullable().default(null),
    /** The template it belongs to (carried into each asset made from it); null for an asset's. */
    template_id: idField.nullable().default(null),
    /**
     * The model this one is a copy of (an asset made from a template: the template's model), set
     * when made: the server copies its files, levels and bounds instead of processing uploads.
     */
    copy_of: idField.nullable().default(null),
    name: modelNameField,
    /**
     * The uploaded files (kind 'model' of the same asset or template), by their paths in the
     * upload; a copy names none (the server fills in the copies of the original's).
     */
    sources: z
      .array(z.object({ file_id: idField, path: modelPathField }))
      .max(THREED_LIMITS.files)
      .refine((s) => new Set(s.map((f) => f.path)).size === s.length, THREED_TEXTS.samePath)
      .default([]),
    /** The server's: uploaded (waiting for its files), processing, ready or failed. */
    state: z.enum(THREED_STATES).default('uploaded'),
    /** The processing's progress, 0 to 1 (the status tile's). */
    progress: z.number().min(0).max(1).default(0),
    /** Why it failed (one of THREED_TEXTS). */
    reason: z.string().max(500).nullable().default(null),
    format: z.enum(THREED_FORMATS).nullable().default(null),
    /** The canonical model's quality levels, low to high. */
    levels: z.array(threedLevelSchema).max(QUALITIES.length).default([]),
    /** Its axis-aligned bounds in metres. */
    bounds: z.object({ min: vec3, max: vec3 }).nullable().default(null),
    thumbnail_file_id: idField.nullable().default(null),
  }),
);
export type ThreedmodelAttributes = z.infer<typeof threedmodelAttributesSchema>;

export const threedmodelModel = {
  type: 'threedmodel',
  collection: 'threedmodels',
  parentType: 'asset',
  parentField: 'asset_id',
  altParents: [{ type: 'template', field: 'template_id' }],
  attributes: threedmodelAttributesSchema,
  // copy_of is no ref: the original may go while its copies stay.
  refs: { asset_id: 'asset', template_id: 'template' },
  permissions: ownPermissions('scene'),
  sortField: 'name',
  serverFields: ['state', 'progress', 'reason', 'format', 'levels', 'bounds', 'thumbnail_file_id'],
  // A model made anew is uploaded anew: its files are what it is.
  fixed: ['asset_id', 'template_id', 'copy_of', 'sources'],
  // A template's models (no asset): the type's permissions and `template::edit` decide (server).
  asset: 'asset_id',
  assetOptional: true,
} as const satisfies ModelDefinition<'threedmodel', typeof threedmodelAttributesSchema>;
