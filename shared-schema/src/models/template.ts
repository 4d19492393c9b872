import { z } from 'zod';
import { deferred } from '../deferred';
import { idField, modelNameField } from '../api/fields';
import { datastreamAttributesSchema } from './datastream';
import type { ModelDefinition } from './registry-types';
import { ownPermissions } from './model-permissions';

/** The demo templates the seed makes (`/app/templates/demo/<name>`); clients cannot set one. */
export const TEMPLATE_DEMOS = ['smartphone'] as const;
export type TemplateDemo = (typeof TEMPLATE_DEMOS)[number];

/** A layout's stream: a data stream's settings (spec 001 §3), without its place or its values. */
export const templateStreamSchema = /* @__PURE__ */ deferred(() =>
  datastreamAttributesSchema.pick({
    name: true,
    unit: true,
    type: true,
    vis_min: true,
    vis_max: true,
    state_texts: true,
    preprocessing: true,
  }),
);
export type TemplateStream = z.infer<typeof templateStreamSchema>;

export const TEMPLATE_MAX_GROUPS = 100;
export const TEMPLATE_MAX_STREAMS_PER_GROUP = 500;
/**
 * The largest layout, as UTF-8 JSON of its groups. A template is written in one request, and a
 * write body may have up to 64 KiB (MAX_BODY_BYTES): 48 KiB leaves room for the name, the
 * description and the write's envelope. A realistic machine (a dozen groups of ten streams,
 * about 150 bytes each with units and state texts) needs under 20 KiB; pre-processing code is
 * what can fill it, and an asset with that much code is told so instead of failing on the wire.
 */
export const TEMPLATE_MAX_GROUPS_BYTES = 48 * 1024;
export const TEMPLATE_TOO_LARGE =
  'This layout is too large: its groups and streams may take up to 48 KB.';

export function templateGroupsBytes(groups: unknown): number {
  return new TextEncoder().encode(JSON.stringify(groups)).length;
}

/** A layout's folder of streams, in the order of the asset's groups. */
export const templateGroupSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    name: modelNameField,
    collapsible: z.boolean().default(true),
    open_by_default: z.boolean().default(true),
    streams: z.array(templateStreamSchema).max(TEMPLATE_MAX_STREAMS_PER_GROUP).default([]),
  }),
);
export type TemplateGroup = z.infer<typeof templateGroupSchema>;

/**
 * A layout (spec 001 §1, §3: "a saved asset used as a template"): the groups and streams of an
 * asset with their settings, never their values; new assets are made from it.
 */
export const templateAttributesSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    name: modelNameField,
    description: z.string().max(5000).default(''),
    /** The asset it was saved from; null when made otherwise or when that asset was deleted. */
    source_asset_id: idField.nullable().default(null),
    groups: z
      .array(templateGroupSchema)
      .max(TEMPLATE_MAX_GROUPS)
      .refine(
        (groups) => templateGroupsBytes(groups) <= TEMPLATE_MAX_GROUPS_BYTES,
        TEMPLATE_TOO_LARGE,
      )
      .default([]),
    /** Which demo it is (the seed's); null for every template a user makes. */
    demo: z.enum(TEMPLATE_DEMOS).nullable().default(null),
  }),
);
export type TemplateAttributes = z.infer<typeof templateAttributesSchema>;

export const templateModel = {
  type: 'template',
  collection: 'templates',
  parentType: 'account',
  attributes: templateAttributesSchema,
  refs: { source_asset_id: 'asset' },
  permissions: ownPermissions('template'),
  sortField: 'name',
  serverFields: ['demo'],
} as const satisfies ModelDefinition<'template', typeof templateAttributesSchema>;
