import { z } from 'zod';
import { deferred } from '../deferred';
import { idField, modelNameField } from '../api/fields';
import { contactField } from '../api/profile';
import type { ModelDefinition } from './registry-types';
import { ownPermissions } from './model-permissions';
import { LATITUDE_MESSAGE, LONGITUDE_MESSAGE } from './asset-texts';
export { LATITUDE_MESSAGE, LONGITUDE_MESSAGE } from './asset-texts';

export const MAC_PATTERN = /^([0-9A-Fa-f]{2}[:-]){5}[0-9A-Fa-f]{2}$/;

export const ASSET_STATUSES = ['unknown', 'ok', 'warning', 'alarm', 'offline'] as const;

/** An asset: a machine or plant (spec 001 §3). */
export const assetAttributesSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    name: modelNameField,
    mac: z
      .string()
      .regex(MAC_PATTERN, 'Please enter a valid MAC address (six pairs of hex digits)')
      .nullable()
      .default(null),
    description: z.string().max(5000).default(''),
    gateway_id: idField.nullable().default(null),
    /** The asset's photo: a `file` of this asset of kind 'photo'. */
    photo: idField.nullable().default(null),
    tags: z.array(z.string().min(1).max(100)).max(100).default([]),
    /** Who to call about the asset: a name and an e-mail address, phone number or Telegram name. */
    contacts: z
      .array(
        z.object({
          name: z
            .string()
            .trim()
            .max(250, 'The name may not be longer than 250 characters')
            .default(''),
          value: contactField,
        }),
      )
      .max(50)
      .default([]),
    status: z.enum(ASSET_STATUSES).default('unknown'),
    /** The template it was made from (its tasks apply to it); null: made without one. */
    template_id: idField.nullable().default(null),
    /** Where the asset stands (the map view), in degrees; null: not placed. */
    position: z
      .object({
        lat: z
          .number({ error: LATITUDE_MESSAGE })
          .min(-90, LATITUDE_MESSAGE)
          .max(90, LATITUDE_MESSAGE),
        lng: z
          .number({ error: LONGITUDE_MESSAGE })
          .min(-180, LONGITUDE_MESSAGE)
          .max(180, LONGITUDE_MESSAGE),
      })
      .nullable()
      .default(null),
  }),
);
export type AssetAttributes = z.infer<typeof assetAttributesSchema>;

export const assetModel = {
  type: 'asset',
  collection: 'assets',
  parentType: 'account',
  attributes: assetAttributesSchema,
  refs: { gateway_id: 'gateway', photo: 'file', template_id: 'template' },
  permissions: ownPermissions('asset'),
  sortField: 'name',
  asset: 'self',
} as const satisfies ModelDefinition<'asset', typeof assetAttributesSchema>;
