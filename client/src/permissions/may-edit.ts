import { atom, useAtomValue } from 'jotai';
import {
  can,
  editRuleOf,
  type AssetAccessView,
  type PermissionContext,
} from '@plant/shared-schema';
import { sessionAtom } from '../state/session';
import { permissionContextAtom } from './permissions';

/* The edit right of a model (issue 30 item 5): the pages with pencils load it. */

/** A model as far as its edit right goes: its id and attributes (its asset's id among them). */
export interface EditSubject {
  readonly id: string;
  readonly attributes: Readonly<Record<string, unknown>>;
}

/**
 * Whether the server would take a change of `model` (of `type`) from the user: its role grants
 * the type's edit permission and, for a model inside an asset, the session's access decision
 * (GET user's `access`, DESIGN.md §10) lets it change that asset; a `field` hidden from its
 * roles is never editable (the server refuses a write naming it). A user stored before the
 * decision came along is judged by its permissions alone, as before.
 */
export function mayEdit(
  ctx: PermissionContext | null,
  access: AssetAccessView | undefined,
  type: string,
  model: EditSubject | null | undefined,
  field?: string,
): boolean {
  const rule = editRuleOf(type);
  if (ctx === null || rule === undefined || !can(ctx, rule.update)) return false;
  if (field !== undefined && access?.hidden[type]?.includes(field) === true) return false;
  if (rule.asset === null || access === undefined || access.allAssets) return true;
  if (model === null || model === undefined) return false;
  const assetId = rule.asset === 'self' ? model.id : model.attributes[rule.asset];
  // The account's own model of a type whose asset is optional: the permission alone decides.
  if ((assetId === null || assetId === undefined) && rule.assetOptional === true) return true;
  return typeof assetId === 'string' && access.edit.includes(assetId);
}

const assetAccessAtom = atom((get) => get(sessionAtom)?.user.access);

/**
 * THE check behind every pencil and edit button of a model: no control where the server would
 * refuse the save (the role's permission and the per-asset edit right together).
 */
export function useMayEdit(
  type: string,
  model: EditSubject | null | undefined,
  field?: string,
): boolean {
  const ctx = useAtomValue(permissionContextAtom);
  const access = useAtomValue(assetAccessAtom);
  return mayEdit(ctx, access, type, model, field);
}
