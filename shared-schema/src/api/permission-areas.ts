import { z } from 'zod';
import { deferred } from '../deferred';
import { AREA_EXTRAS, MODEL_PERMISSION_TABLE } from '../models/permission-table';
import { ROLE_EDIT_PERMISSION } from './role-edit-permission';
import { UNKNOWN_PERMISSION } from './roles-texts';

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

export const rolePermissionsSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    permissions: z
      .array(z.string().max(100))
      .max(200)
      .refine((names) => names.every((n) => KNOWN_PERMISSIONS.has(n)), UNKNOWN_PERMISSION),
  }),
);
