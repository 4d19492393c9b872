import { Hono } from 'hono';
import { requireAuth } from '../http/auth';
import type { AppEnv } from '../http/context';
import type { Services } from '../services';

/** Release management beside the generic model routes (issue 35; releases/). */
export function releaseRoutes(services: Services) {
  const app = new Hono<AppEnv>();
  app.get('/releases/key', requireAuth(services), async (c) =>
    c.json({ data: await services.releases.key(c.get('session')) }),
  );
  return app;
}
