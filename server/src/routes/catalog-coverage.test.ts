import { describe, expect, it } from 'vitest';
import { API_BASE, API_ROUTES, apiRoute } from '@plant/shared-schema';
import { createApp } from '../app';
import { createLogger } from '../logger';

/**
 * A stand-in for every service the route factories are given: building the app only wires
 * handlers, and no handler runs here. Any property is the stand-in again, and so is a call.
 */
function standIn<T>(): T {
  const proxy: object = new Proxy(function standInFn() {}, {
    get: (_target, key) => (key === 'then' ? undefined : proxy),
    apply: () => proxy,
  });
  return proxy as T;
}

/** The API's routes as the app registers them: method and Hono pattern under API_BASE. */
function registeredRoutes(): string[] {
  type Args = Parameters<typeof createApp>;
  const app = createApp(
    standIn<Args[0]>(),
    createLogger('error'),
    '/nonexistent-client-dir',
    standIn<Args[3]>(),
    standIn<Args[4]>(),
    { publicKey: '', subscribeTimeoutMs: 20_000 },
    [],
    undefined,
    // The alarm recipients' routes are mounted only when given: the server always gives them.
    standIn<NonNullable<Args[8]>>(),
    // So are the reports' (issue 31).
    standIn<NonNullable<Args[9]>>(),
    undefined,
    undefined,
    // And the service booklet's PDF (issue 37).
    standIn<NonNullable<Args[12]>>(),
  );
  const keys = app.routes
    // Middleware (app.use, the body limits on `${API_BASE}/*`) is not a route of its own.
    .filter((r) => r.method !== 'ALL' && !r.path.includes('*'))
    .filter((r) => r.path.startsWith(`${API_BASE}/`))
    .map((r) => `${r.method} ${r.path.slice(API_BASE.length)}`);
  // A route with middleware in front (requireAuth) is one entry per handler.
  return [...new Set(keys)].sort();
}

describe('the route catalog against the app', () => {
  const registered = registeredRoutes();

  it('finds the API routes (the stand-ins built the whole app)', () => {
    expect(registered).toContain('POST /oauth/token');
    expect(registered).toContain('PUT /:collection/:id');
    expect(registered).toContain('GET /alarm-recipients/confirm');
    expect(registered.length).toBeGreaterThan(60);
  });

  it('has an entry for every route the app registers under the API base', () => {
    const missing = registered.filter((key) => {
      const [method = '', path = ''] = key.split(' ');
      return apiRoute(method, path) === undefined;
    });
    expect(missing).toEqual([]);
  });

  it('names no route the app does not register', () => {
    const known = new Set(registered);
    const stray = API_ROUTES.map((r) => `${r.method} ${r.path}`).filter((key) => !known.has(key));
    expect(stray).toEqual([]);
  });
});
