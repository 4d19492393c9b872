import { msg } from '@lingui/core/macro';
import { notifications } from '@mantine/notifications';
import { redirect } from '@tanstack/react-router';
import { canEnterRoute, type RouteRequirement } from '@plant/shared-schema';
import { safeRedirect } from '../features/user/safe-redirect';
import { i18n } from '../i18n/i18n';
import { permissionsReady } from '../permissions/permissions';
import { sessionAtom } from '../state/session';
import type { AppStore } from '../state/store';

export interface RouterContext {
  readonly store: AppStore;
}

/**
 * /app and below (spec 000 §2): a stored user, else sign-in with a redirect back; a stored role
 * that is missing: /user/norole.
 */
export function requireSession(store: AppStore, href: string): void {
  const session = store.get(sessionAtom);
  if (session === null) throw redirect({ to: '/user/login', search: { redirect: href } });
  if (session.role === null) throw redirect({ to: '/user/norole' });
}

/**
 * The user area: someone with a stored user and token goes to the app instead; from a login link
 * (/user/login?redirect=), to where the link leads, if that is a path of this app.
 */
export function redirectSignedIn(store: AppStore, next?: string): void {
  if (store.get(sessionAtom) === null) return;
  if (next === undefined) throw redirect({ to: '/app/devices' });
  throw redirect({ href: safeRedirect(next, location.origin), replace: true });
}

/**
 * A route permission (spec 000 §6): waits for the permission manager (re-check every 100 ms),
 * then a refused user goes to /, and is told why there (issue 30 item 3: not a silent jump).
 */
export async function requirePermission(
  store: AppStore,
  requirement: RouteRequirement,
  { quiet }: { readonly quiet: boolean },
): Promise<void> {
  const ctx = await permissionsReady(store);
  if (ctx !== null && canEnterRoute(ctx, requirement)) return;
  // A link's preload (the pointer over it) is no visit: nothing to explain yet.
  if (!quiet)
    notifications.show({
      id: 'no-permission',
      color: 'orange',
      title: i18n._(msg`This page is not open to you`),
      message: i18n._(msg`Please ask your administrator for the necessary permissions`),
    });
  throw redirect({ to: '/' });
}
