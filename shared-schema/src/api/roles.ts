import { z } from 'zod';
import { deferred } from '../deferred';
import { idField, modelNameField } from './fields';
export {
  ROLE_HAS_MEMBERS,
  ROLE_IS_FIXED,
  ROLE_NAME_TAKEN,
  UNKNOWN_PERMISSION,
} from './roles-texts';

export { ROLE_EDIT_PERMISSION } from './role-edit-permission';

// The permission matrix's areas (with the registry's table) in a module of their own: a page
// that only checks a role's name must not carry the table in its first visit.
export { KNOWN_PERMISSIONS, PERMISSION_AREAS, rolePermissionsSchema } from './permission-areas';

import { FIELD_TYPES } from '../models/field-types';
export { FIELD_TYPES, type FieldType } from '../models/field-types';

export const roleNameSchema = /* @__PURE__ */ deferred(() => z.object({ name: modelNameField }));
export type RoleName = z.infer<typeof roleNameSchema>;

/** The key button: every asset of the account (true), or only those given (false). */
export const roleAllAssetsSchema = /* @__PURE__ */ deferred(() =>
  z.object({ all_assets: z.boolean() }),
);

/** An asset given to the role; `edit` the pencil. */
export const roleAssetSchema = /* @__PURE__ */ deferred(() => z.object({ edit: z.boolean() }));

/** The fields of a type the role shows; null: all of them. */
export const roleFieldsSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    fields: z.array(z.string().min(1).max(100)).max(200).nullable(),
  }),
);

export const roleParamsSchema = /* @__PURE__ */ deferred(() => z.object({ id: idField }));
export const roleAssetParamsSchema = /* @__PURE__ */ deferred(() =>
  z.object({ id: idField, assetId: idField }),
);
export const roleFieldParamsSchema = /* @__PURE__ */ deferred(() =>
  z.object({ id: idField, type: z.enum(FIELD_TYPES) }),
);

/** A role as the roles screen shows it. */
export const roleAdminSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    id: z.string(),
    slug: z.string(),
    name: z.string(),
    /** admin and norole: not to be renamed, deleted or changed. */
    fixed: z.boolean(),
    members: z.number().int(),
    permissions: z.array(z.string()),
    all_assets: z.boolean(),
    assets: z.array(z.object({ asset_id: z.string(), edit: z.boolean() })),
    fields: z.array(z.object({ type: z.string(), fields: z.array(z.string()) })),
  }),
);
export type RoleAdmin = z.infer<typeof roleAdminSchema>;
