import type { Context, MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import {
  API_BASE,
  apiRoute,
  DISABLE_INTERNAL_FEATURES_HEADER,
  mayUseApp,
  scopedTokenMayCall,
} from '@plant/shared-schema';
import { NOROLE_REFUSED } from '../services/auth.service';
import type { Services } from '../services';
import { DomainError } from '../services/domain-error';
import { requestHeader, type AppEnv } from './context';

export function bearerToken(c: Context<AppEnv>): string | undefined {
  const header = requestHeader(c, 'authorization') ?? '';
  const match = /^Bearer ([A-Za-z0-9_-]{1,200})$/.exec(header);
  return match?.[1];
}

/**
 * Refuses requests without a live bearer token (401) and records who is calling and with which
 * rights, for the route to check its permission against.
 */
export function requireAuth(services: Services): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const token = bearerToken(c);
    const signedIn =
      token === undefined
        ? undefined
        : await services.sessions.resolve(token, internalFeaturesDisabled(c));
    if (signedIn === undefined) throw new DomainError('unauthenticated', 'Unauthenticated.');
    // The norole rule holds for the whole session, not only at sign-in: a user demoted to norole
    // (or removed everywhere) loses the API at the next request.
    if (!mayUseApp(signedIn.session.roles.map((r) => r.slug))) {
      throw new DomainError('forbidden', NOROLE_REFUSED);
    }
    const scopes = signedIn.session.ctx.scopes;
    if (scopes !== undefined) refuseOutsideCatalog(c, scopes);
    // Security insights weigh when scoped tokens were last used (written at most hourly).
    if (signedIn.auth.narrowed !== undefined)
      services.securityEvents.tokenUsed(signedIn.auth.tokenId);
    c.set('auth', signedIn.auth);
    c.set('session', signedIn.session);
    await next();
  };
}

/** The client turns internal features off with this header (stored setting disableInternalFeatures). */
export function internalFeaturesDisabled(c: Context<AppEnv>): boolean {
  const value = requestHeader(c, DISABLE_INTERNAL_FEATURES_HEADER)?.toLowerCase();
  return value === '1' || value === 'true';
}

export const TOKEN_REFUSED =
  'This token may not use this call: it needs another scope, or the app itself.';

/**
 * A scoped token (personal, application, client credentials) calls only routes of the API
 * catalog that its scopes open: a route the catalog does not know is refused (deny by default),
 * so a new route is closed to tokens until it is listed with its access.
 */
function refuseOutsideCatalog(c: Context<AppEnv>, scopes: readonly string[]): void {
  const pattern = routePath(c);
  const path = pattern.startsWith(API_BASE) ? pattern.slice(API_BASE.length) : pattern;
  const method = c.req.method === 'HEAD' ? 'GET' : c.req.method;
  const route = apiRoute(method, path);
  if (route === undefined || !scopedTokenMayCall(route.access, scopes)) {
    throw new DomainError('forbidden', TOKEN_REFUSED);
  }
}
