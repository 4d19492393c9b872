import type { z } from 'zod';
import type { ScopeId } from './scopes';

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
export type RouteAccess =
  | { readonly kind: 'public' }
  | { readonly kind: 'first-party' }
  | { readonly kind: 'any' }
  | { readonly kind: 'scopes'; readonly scopes: readonly ScopeId[] };

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

export interface ApiRoute {
  readonly method: HttpMethod;
  /** Hono's pattern under API_BASE: `/oauth/clients/:id`. */
  readonly path: string;
  readonly access: RouteAccess;
  /** One line for the reference. */
  readonly summary: string;
  /** The reference's group (OpenAPI tag). */
  readonly tag: string;
  readonly params?: z.ZodType;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  /** The answer's shape on success (the envelope included where the route uses one). */
  readonly response?: z.ZodType;
  /** Status of the success answer (200 when not given). */
  readonly status?: number;
}

export const PUBLIC: RouteAccess = { kind: 'public' };
export const FIRST_PARTY: RouteAccess = { kind: 'first-party' };
export const ANY_TOKEN: RouteAccess = { kind: 'any' };
export const needs = (...scopes: ScopeId[]): RouteAccess => ({ kind: 'scopes', scopes });

export const API_ROUTES: readonly ApiRoute[] = [];

const byKey = new Map(API_ROUTES.map((r) => [`${r.method} ${r.path}`, r] as const));

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
