import { Hono } from 'hono';
import { openApiDocument } from '@plant/shared-schema';
import type { AppEnv } from '../http/context';

/**
 * GET openapi.json: the API reference (OpenAPI 3.1, made from the route catalog), public like a
 * product's documentation. Made once, at the first request: the catalog does not change while
 * the process runs.
 */
export function openapiRoutes() {
  const app = new Hono<AppEnv>();
  let json: string | undefined;

  app.get('/openapi.json', (c) => {
    json ??= JSON.stringify(openApiDocument());
    c.header('Cache-Control', 'public, no-cache');
    return c.body(json, 200, { 'Content-Type': 'application/json; charset=utf-8' });
  });

  return app;
}
