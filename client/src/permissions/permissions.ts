import { atom, useAtomValue } from 'jotai';
import {
  can,
  canEnterRoute,
  hasTag,
  TIMINGS,
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
