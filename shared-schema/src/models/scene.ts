import { z } from 'zod';
import { deferred } from '../deferred';
import { helpArticleField } from './help-article-field';
import { idField, modelNameField } from '../api/fields';
import type { ModelDefinition } from './registry-types';
import { ownPermissions } from './model-permissions';
import { QUALITIES } from './threedmodel';
import { SCENE_TEXTS } from './threedmodel-texts';
export { SCENE_TEXTS } from './threedmodel-texts';

/*
 * Scenes and their hotspots (DESIGN.md §13, issue 32 items 3 and 4). A scene places 3D models of
 * its asset in metres; a hotspot is a point on one placed model's surface, stored in that model's
 * own metres (the frame of its canonical GLB, which every quality level shares), so it stays on
 * the surface at every level and wherever the model is moved. The server refuses a point off the
 * model (server/src/threed/surface.ts). Both are under the 3D area's `scene::…` permissions.
 */

export const SCENE_LIMITS = {
  models: 50,
  metadata: 20,
  /** How far a coordinate may be from the origin, in metres. */
  extent: 100_000,
} as const;

const coordinate = /* @__PURE__ */ deferred(() =>
  z.number().finite().min(-SCENE_LIMITS.extent).max(SCENE_LIMITS.extent),
);
export const vec3Schema = /* @__PURE__ */ deferred(() =>
  z.tuple([coordinate, coordinate, coordinate]),
);
export type Vec3 = z.infer<typeof vec3Schema>;

const degrees = /* @__PURE__ */ deferred(() => z.number().finite().min(-360).max(360));

/** A view of the scene: where the camera is and what it looks at, in the scene's metres. */
export const sceneCameraSchema = /* @__PURE__ */ deferred(() =>
  z.strictObject({
    position: vec3Schema,
    target: vec3Schema,
  }),
);
export type SceneCamera = z.infer<typeof sceneCameraSchema>;

export const SCENE_QUALITIES = ['auto', ...QUALITIES] as const;
export type SceneQuality = (typeof SCENE_QUALITIES)[number];

/** One model in a scene: where it stands (metres), how it is turned (degrees, XYZ), mirrored. */
export const scenePlacementSchema = /* @__PURE__ */ deferred(() =>
  z.strictObject({
    threedmodel_id: idField,
    position: vec3Schema.default([0, 0, 0]),
    rotation: z.tuple([degrees, degrees, degrees]).default([0, 0, 0]),
    /** Mirrored along X (models exported from left-handed tools). */
    flip_x: z.boolean().default(false),
    quality: z.enum(SCENE_QUALITIES).default('auto'),
  }),
);
export type ScenePlacement = z.infer<typeof scenePlacementSchema>;

export const sceneAttributesSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    /** The asset it belongs to; null for a template's scene (then `template_id`). */
    asset_id: idField.nullable().default(null),
    /** The template it belongs to (carried into each asset made from it); null for an asset's. */
    template_id: idField.nullable().default(null),
    name: modelNameField,
    models: z
      .array(scenePlacementSchema)
      .max(SCENE_LIMITS.models, SCENE_TEXTS.tooManyModels)
      .refine((list) => new Set(list.map((m) => m.threedmodel_id)).size === list.length, {
        error: SCENE_TEXTS.modelTwice,
      })
      .default([]),
    /** The view it opens with; null: fitted to its models. */
    camera: sceneCameraSchema.nullable().default(null),
  }),
);
export type SceneAttributes = z.infer<typeof sceneAttributesSchema>;

export const sceneModel = {
  type: 'scene',
  collection: 'scenes',
  parentType: 'asset',
  parentField: 'asset_id',
  altParents: [{ type: 'template', field: 'template_id' }],
  attributes: sceneAttributesSchema,
  refs: { asset_id: 'asset', template_id: 'template' },
  permissions: ownPermissions('scene'),
  sortField: 'name',
  fixed: ['asset_id', 'template_id'],
  // A template's scenes (no asset): the type's permissions and `template::edit` decide (server).
  asset: 'asset_id',
  assetOptional: true,
} as const satisfies ModelDefinition<'scene', typeof sceneAttributesSchema>;

/**
 * The hotspot icon font: the glyphs a hotspot may show (the client draws each, features/threed/
 * hotspot-icons.tsx); any other name is refused ('An icon must be part of the icon font.').
 */
export const HOTSPOT_ICONS = [
  'pin',
  'info',
  'warning',
  'gauge',
  'pump',
  'motor',
  'valve',
  'document',
  'wrench',
  'bolt',
] as const;
export type HotspotIcon = (typeof HOTSPOT_ICONS)[number];

/** What a hotspot links to: another object of the account. */
export const HOTSPOT_LINK_TYPES = ['asset', 'dashboard'] as const;

const latitude = /* @__PURE__ */ deferred(() => z.number().finite().min(-90).max(90));
const longitude = /* @__PURE__ */ deferred(() => z.number().finite().min(-180).max(180));

/** One entry of a hotspot's metadata (spec 001 §3: any kind). */
export const hotspotMetadataSchema = /* @__PURE__ */ deferred(() =>
  z.discriminatedUnion('kind', [
    /** A data stream of the asset: its live value in the scene, coloured by its alarms. */
    z.strictObject({ kind: z.literal('stream'), datastream_id: idField }),
    /** A file of the asset (a manual, a drawing). */
    z.strictObject({ kind: z.literal('file'), file_id: idField }),
    /** A place on the map (where the part is on the site). */
    z.strictObject({
      kind: z.literal('position'),
      label: z.string().trim().max(120).default(''),
      latitude,
      longitude,
    }),
    /** Another object of the account. */
    z.strictObject({ kind: z.literal('link'), target: z.enum(HOTSPOT_LINK_TYPES), id: idField }),
    z.strictObject({ kind: z.literal('text'), text: z.string().trim().min(1).max(2000) }),
  ]),
);
export type HotspotMetadata = z.infer<typeof hotspotMetadataSchema>;

export const hotspotAttributesSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    scene_id: idField,
    /** The scene's asset (copied from the scene by the server); null on a template's scene. */
    asset_id: idField.nullable().default(null),
    name: modelNameField,
    /** The placed model it sits on. */
    threedmodel_id: idField,
    /** The help article about it (links like help/136). */
    help_article: helpArticleField,
    /** On that model's surface, in the model's own metres. */
    point: vec3Schema,
    /** The surface's direction there (unit length, model frame): where the icon faces. */
    normal: vec3Schema.default([0, 1, 0]),
    /** The view a jump to it opens (scene metres); null: looking at the point. */
    camera: sceneCameraSchema.nullable().default(null),
    icon: z.enum(HOTSPOT_ICONS, { error: SCENE_TEXTS.unknownIcon }).default('pin'),
    metadata: z
      .array(hotspotMetadataSchema)
      .max(SCENE_LIMITS.metadata, SCENE_TEXTS.tooManyMetadata)
      .default([]),
    /** Printed above its QR code. */
    qr_description: z.string().trim().max(200).default(''),
  }),
);
export type HotspotAttributes = z.infer<typeof hotspotAttributesSchema>;

export const hotspotModel = {
  type: 'hotspot',
  collection: 'hotspots',
  parentType: 'scene',
  parentField: 'scene_id',
  attributes: hotspotAttributesSchema,
  // Its model is checked against the scene's placements (server model-transaction.ts), not as a
  // ref: a model's delete is not refused for its hotspots; the viewer leaves them out.
  refs: { scene_id: 'scene', asset_id: 'asset' },
  fromParent: ['asset_id'],
  permissions: ownPermissions('scene'),
  sortField: 'name',
  fixed: ['scene_id'],
  // A template's scene's hotspots: the type's permissions and `template::edit` (server).
  asset: 'asset_id',
  assetOptional: true,
} as const satisfies ModelDefinition<'hotspot', typeof hotspotAttributesSchema>;

/** How far from a model's surface a hotspot may be: a share of the model's size, at least 1 mm. */
export function surfaceTolerance(bounds: { min: Vec3; max: Vec3 } | null): number {
  if (bounds === null) return 0.001;
  const d = Math.hypot(
    bounds.max[0] - bounds.min[0],
    bounds.max[1] - bounds.min[1],
    bounds.max[2] - bounds.min[2],
  );
  // The low level is simplified within 2 % of the model's extent (server levels.ts): a point
  // picked on it lies within that of the full surface.
  return Math.max(0.001, d * 0.025);
}

export const RENDERING_STATES = ['waiting', 'rendering', 'ready', 'failed'] as const;
export type RenderingState = (typeof RENDERING_STATES)[number];

/** The sizes a rendering may have, in pixels. */
export const RENDERING_LIMITS = { min: 64, max: 4096, underWay: 5 } as const;

const renderingSide = /* @__PURE__ */ deferred(() =>
  z.number().int().min(RENDERING_LIMITS.min).max(RENDERING_LIMITS.max),
);

/**
 * A rendering (DESIGN.md §13, spec 001 §3): a picture of the scene from a chosen view, made by
 * the server in the background (server/src/threed/rendering-processor.ts) as a PNG file of the
 * asset; once ready it may become the asset's picture.
 */
export const renderingAttributesSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    scene_id: idField,
    /** The scene's asset (copied from the scene by the server); a template's scene has none. */
    asset_id: idField.nullable().default(null),
    name: modelNameField,
    camera: sceneCameraSchema,
    width: renderingSide.default(1280),
    height: renderingSide.default(720),
    /** The server's: waiting, rendering, ready (with its file) or failed (with the reason). */
    state: z.enum(RENDERING_STATES).default('waiting'),
    reason: z.string().max(500).nullable().default(null),
    file_id: idField.nullable().default(null),
  }),
);
export type RenderingAttributes = z.infer<typeof renderingAttributesSchema>;

export const renderingModel = {
  type: 'rendering',
  collection: 'renderings',
  parentType: 'scene',
  parentField: 'scene_id',
  attributes: renderingAttributesSchema,
  refs: { scene_id: 'scene', asset_id: 'asset' },
  fromParent: ['asset_id'],
  permissions: ownPermissions('scene'),
  sortField: 'name',
  serverFields: ['state', 'reason', 'file_id'],
  // A new view is a new rendering.
  fixed: ['scene_id', 'camera', 'width', 'height'],
  // A template's scene (no asset) has none: its writes are told so (server model-transaction.ts).
  asset: 'asset_id',
  assetOptional: true,
} as const satisfies ModelDefinition<'rendering', typeof renderingAttributesSchema>;
