import { atom, useAtomValue } from 'jotai';
import {
  can,
  canEnterRoute,
  hasTag,
  modelByType,
  TIMINGS,
  type AssetAccessView,
  type PermissionContext,
  type RouteRequirement,
} from '@plant/shared-schema';
import { sessionAtom } from '../state/session';
import { readString, STORAGE_KEYS } from '../state/storage';
import type { AppStore } from '../state/store';

/**
 * The permission manager of spec 000 §4: the signed-in user's permission records, tags and
 * feature flags (all in the stored user, refreshed from GET user), judged by the one permission
 * function of shared-schema. Route guards wait until it is initialised.
 */
export const permissionsReadyAtom = atom(false);

export const permissionContextAtom = atom<PermissionContext | null>((get) => {
  const session = get(sessionAtom);
  if (session === null) return null;
  const { user } = session;
  return {
    activeRoles: user.activeRoles,
    permissions: user.permissions,
    tags: user.tags,
    featureFlags: user.featureFlags,
    internalFeaturesDisabled: readString(STORAGE_KEYS.disableInternalFeatures) === 'true',
  };
});

/** `can(permission)` for the signed-in user; false while signed out. */
export function useCan(): (permission: string) => boolean {
  const ctx = useAtomValue(permissionContextAtom);
  return (permission) => ctx !== null && can(ctx, permission);
}

/** Whether a route's requirement is met (permission and/or tag). */
export function useMayEnter(): (requirement: RouteRequirement | undefined) => boolean {
  const ctx = useAtomValue(permissionContextAtom);
  return (requirement) =>
    requirement === undefined || (ctx !== null && canEnterRoute(ctx, requirement));
}

export function useHasTag(): (slug: string) => boolean {
  const ctx = useAtomValue(permissionContextAtom);
  return (slug) => ctx !== null && hasTag(ctx, slug);
}

/** Resolves once the permission manager is initialised, checking every 100 ms (spec 000 §9). */
export async function permissionsReady(store: AppStore): Promise<PermissionContext | null> {
  while (!store.get(permissionsReadyAtom)) {
    await new Promise((resolve) => setTimeout(resolve, TIMINGS.permissionRecheckMs));
  }
  return store.get(permissionContextAtom);
}

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
  const def = modelByType(type);
  if (ctx === null || def === undefined || !can(ctx, def.permissions.update)) return false;
  if (field !== undefined && access?.hidden[type]?.includes(field) === true) return false;
  if (def.asset === undefined || access === undefined || access.allAssets) return true;
  if (model === null || model === undefined) return false;
  const assetId = def.asset === 'self' ? model.id : model.attributes[def.asset];
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
