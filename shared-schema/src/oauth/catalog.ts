import { ACCOUNT_ROUTES } from './catalog-routes/account';
import { DATA_ROUTES } from './catalog-routes/data';
import { INTEGRATION_ROUTES } from './catalog-routes/integrations';
import { REPORT_ROUTES } from './catalog-routes/reports';
import { SERVICE_BOOKLET_ROUTES } from './catalog-routes/service-booklet';
import { SESSION_ROUTES } from './catalog-routes/session';
import { SECURITY_INSIGHT_ROUTES } from './catalog-routes/security-insights';
import { TWO_FACTOR_ROUTES } from './catalog-routes/two-factor';
import type { ApiRoute, RouteAccess } from './route-access';

export * from './route-access';

/**
 * Every route of the API (under API_BASE), with who may call it. THE list: the server's auth
 * middleware refuses a scoped token (a personal access token, a third-party application's or a
 * client-credentials token) on a route that is not here, and the API reference (OpenAPI 3.1 at
 * /api/v1/openapi.json, /app/api) is generated from it.
 *
 * `access`:
 * - `public`: no token (sign-in, registration, password reset, invitation links, the reference);
 * - `first-party`: only the app's own sign-in, never a scoped token (managing tokens and clients,
 *   the consent screen, switching the active account, the browser's broker credentials);
 * - `scopes`: a scoped token needs one of these (a write scope includes its read), and the
 *   route's own permission check applies besides, itself narrowed by the token's scopes;
 * - `any`: any signed-in token; what it reads or writes is narrowed by the permission checks
 *   inside (the generic model routes decide per model type, the sync reads filter by it).
 */
export const API_ROUTES: readonly ApiRoute[] = [
  ...SESSION_ROUTES,
  ...ACCOUNT_ROUTES,
  ...DATA_ROUTES,
  ...REPORT_ROUTES,
  ...SERVICE_BOOKLET_ROUTES,
  ...INTEGRATION_ROUTES,
  ...SECURITY_INSIGHT_ROUTES,
  ...TWO_FACTOR_ROUTES,
];

const byKey: ReadonlyMap<string, ApiRoute> = new Map(
  API_ROUTES.map((r) => [`${r.method} ${r.path}`, r]),
);

/** The catalog entry of a route, by method and Hono pattern (undefined: not in the catalog). */
export function apiRoute(method: string, path: string): ApiRoute | undefined {
  return byKey.get(`${method.toUpperCase()} ${path}`);
}

/** Whether a scoped token with these scopes may call a route with this access. */
export function scopedTokenMayCall(access: RouteAccess, scopes: readonly string[]): boolean {
  switch (access.kind) {
    case 'public':
    case 'any':
      return true;
    case 'first-party':
      return false;
    case 'scopes':
      return access.scopes.some(
        (scope) =>
          scopes.includes(scope) ||
          (scope.endsWith(':read') && scopes.includes(scope.replace(/:read$/, ':write'))),
      );
  }
}
