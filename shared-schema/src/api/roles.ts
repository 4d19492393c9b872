import { z } from 'zod';
import { AREA_EXTRAS, FIELD_TYPES, MODEL_PERMISSION_TABLE } from '../models/permission-table';
import { idField, modelNameField } from './fields';
import { UNKNOWN_PERMISSION } from './roles-texts';
export {
  ROLE_HAS_MEMBERS,
  ROLE_IS_FIXED,
  ROLE_NAME_TAKEN,
  UNKNOWN_PERMISSION,
} from './roles-texts';

/** Managing an account's roles (spec 001 §6): create, rename, delete, permissions, access. */
export const ROLE_EDIT_PERMISSION = 'role::edit';

/**
 * Every permission name the product uses, grouped by area, for the role's permission matrix.
 * The model types' four come from the registry; the others are those the screens and routes
 * check. A name not listed here cannot be given to a role.
 */
export const PERMISSION_AREAS: readonly { readonly area: string; readonly names: string[] }[] = [
  ...modelAreas(),
  { area: 'accounts', names: ['account::view', 'account::edit'] },
  { area: 'users', names: ['user::view', 'user::edit'] },
  { area: 'roles', names: [ROLE_EDIT_PERMISSION] },
  { area: 'security', names: ['security-insights::view'] },
];

/**
 * One area per permission prefix (`alarm::…`), named by the first model type that has it, each
 * permission once (issue 30 item 11): a type that borrows another's (stream groups use the
 * streams', files the assets') adds none, one that adds a permission (an acknowledgement's
 * `alarm::acknowledge`) adds it to its prefix's area; managed types have their own areas.
 */
function modelAreas(): { area: string; names: string[] }[] {
  const seen = new Set<string>();
  const byPrefix = new Map<string, { area: string; names: string[] }>();
  // The registry's facts without its schemas (models/permission-table.ts): the roles page's budget.
  for (const m of MODEL_PERMISSION_TABLE) {
    // Groups are named by the streams' area, which comes after them.
    if (m.managed === true || m.type === 'datastreamgroup') continue;
    const { view, create, update } = m.permissions;
    for (const name of [view, create, update, m.permissions.delete]) {
      if (seen.has(name)) continue;
      seen.add(name);
      const prefix = name.split('::')[0] ?? name;
      const area = byPrefix.get(prefix) ?? { area: m.collection, names: [] };
      area.names.push(name);
      byPrefix.set(prefix, area);
    }
  }
  // Permissions of an area no model's four name (the development team's feedback::develop).
  for (const name of AREA_EXTRAS) byPrefix.get(name.split('::')[0] ?? name)?.names.push(name);
  return [...byPrefix.values()];
}

export const KNOWN_PERMISSIONS: ReadonlySet<string> = new Set(
  PERMISSION_AREAS.flatMap((a) => a.names),
);

export { FIELD_TYPES, type FieldType } from '../models/permission-table';

export const roleNameSchema = z.object({ name: modelNameField });
export type RoleName = z.infer<typeof roleNameSchema>;

export const rolePermissionsSchema = z.object({
  permissions: z
    .array(z.string().max(100))
    .max(200)
    .refine((names) => names.every((n) => KNOWN_PERMISSIONS.has(n)), UNKNOWN_PERMISSION),
});

/** The key button: every asset of the account (true), or only those given (false). */
export const roleAllAssetsSchema = z.object({ all_assets: z.boolean() });

/** An asset given to the role; `edit` the pencil. */
export const roleAssetSchema = z.object({ edit: z.boolean() });

/** The fields of a type the role shows; null: all of them. */
export const roleFieldsSchema = z.object({
  fields: z.array(z.string().min(1).max(100)).max(200).nullable(),
});

export const roleParamsSchema = z.object({ id: idField });
export const roleAssetParamsSchema = z.object({ id: idField, assetId: idField });
export const roleFieldParamsSchema = z.object({ id: idField, type: z.enum(FIELD_TYPES) });

/** A role as the roles screen shows it. */
export const roleAdminSchema = z.object({
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
});
export type RoleAdmin = z.infer<typeof roleAdminSchema>;
