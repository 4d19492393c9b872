import type { z } from 'zod';
import type { ScopeId } from './scopes';

/** Who may call a route (see API_ROUTES in catalog.ts for what each kind means). */
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
