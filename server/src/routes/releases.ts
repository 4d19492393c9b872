import { Hono } from 'hono';
import { z } from 'zod';
import { idField } from '@plant/shared-schema';
import { requireAuth } from '../http/auth';
import { validParams } from '../http/validate';
import type { AppEnv } from '../http/context';
import type { Services } from '../services';

/** Release management beside the generic model routes (issue 35; releases/). */
export function releaseRoutes(services: Services) {
  const app = new Hono<AppEnv>();
  app.get('/releases/key', requireAuth(services), async (c) =>
    c.json({ data: await services.releases.key(c.get('session')) }),
  );
  app.get('/releases/:id/history', requireAuth(services), async (c) => {
    const { id } = validParams(c, z.object({ id: idField }));
    return c.json({ data: await services.releases.history(c.get('session'), id) });
  });
  return app;
}
