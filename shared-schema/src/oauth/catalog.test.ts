import { describe, expect, it } from 'vitest';
import { API_ROUTES, apiRoute, scopedTokenMayCall } from './catalog';
import { isScopeId } from './scopes';

describe('the route catalog', () => {
  it('names each route once, by method and Hono pattern', () => {
    const keys = API_ROUTES.map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const route of API_ROUTES) {
      expect(route.path).toMatch(/^\/[^?#\s]*$/);
      expect(route.path).not.toMatch(/\/api\/v1/);
      expect(route.summary.trim()).not.toBe('');
      expect(route.tag.trim()).not.toBe('');
    }
  });

  it('asks only for scopes that exist', () => {
    for (const route of API_ROUTES) {
      if (route.access.kind !== 'scopes') continue;
      expect(route.access.scopes.length).toBeGreaterThan(0);
      for (const scope of route.access.scopes) expect(isScopeId(scope)).toBe(true);
    }
  });

  it('documents every path parameter of a pattern and no other', () => {
    for (const route of API_ROUTES) {
      const named = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]).sort();
      const schema = route.params as unknown as { shape?: Record<string, unknown> } | undefined;
      const documented = Object.keys(schema?.shape ?? {}).sort();
      expect({ route: route.path, params: documented }).toEqual({
        route: route.path,
        params: named,
      });
    }
  });

  it('finds a route by the method as requests carry it and the pattern', () => {
    expect(apiRoute('get', '/datastreams/:id/values')?.access).toEqual({
      kind: 'scopes',
      scopes: ['datastreams:read'],
    });
    expect(apiRoute('DELETE', '/oauth/clients/:id')?.access.kind).toBe('first-party');
    expect(apiRoute('GET', '/datastreams/abc/values')).toBeUndefined();
    expect(apiRoute('PATCH', '/:collection/:id')).toBeUndefined();
  });

  it('lets a scoped token call its areas only, write including read', () => {
    const values = apiRoute('GET', '/datastreams/:id/values')?.access;
    const tryCode = apiRoute('POST', '/datastreams/:id/preprocessing/try')?.access;
    const clients = apiRoute('GET', '/oauth/clients')?.access;
    const models = apiRoute('PUT', '/:collection/:id')?.access;
    if (!values || !tryCode || !clients || !models) throw new Error('catalog entries missing');
    expect(scopedTokenMayCall(values, ['datastreams:read'])).toBe(true);
    expect(scopedTokenMayCall(values, ['datastreams:write'])).toBe(true);
    expect(scopedTokenMayCall(values, ['assets:write'])).toBe(false);
    expect(scopedTokenMayCall(tryCode, ['datastreams:read'])).toBe(false);
    expect(scopedTokenMayCall(clients, ['account:write', 'assets:write'])).toBe(false);
    expect(scopedTokenMayCall(models, [])).toBe(true);
  });

  it('keeps the management of tokens and clients, and the consent, first-party', () => {
    const oauth = API_ROUTES.filter(
      (r) =>
        r.path.startsWith('/oauth/') && r.path !== '/oauth/token' && r.path !== '/oauth/scopes',
    );
    expect(oauth.length).toBeGreaterThanOrEqual(11);
    for (const route of oauth)
      expect([route.method, route.path, route.access.kind]).toEqual([
        route.method,
        route.path,
        'first-party',
      ]);
  });
});
