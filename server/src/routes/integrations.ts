import { Hono } from 'hono';
import { z } from 'zod';
import { idField, webhookDeliveriesQuerySchema } from '@plant/shared-schema';
import { requireAuth } from '../http/auth';
import type { AppEnv } from '../http/context';
import { validParams, validQuery } from '../http/validate';
import type { Services } from '../services';

const params = z.object({ id: idField });

/** Webhook integrations beside the generic model routes (issue 37 item 6; integrations/). */
export function integrationRoutes(services: Services) {
  const app = new Hono<AppEnv>();
  app.get('/integrations/:id/deliveries', requireAuth(services), async (c) => {
    const { id } = validParams(c, params);
    const { asset_id } = validQuery(c, webhookDeliveriesQuerySchema);
    return c.json({
      data: await services.integrations.deliveries(c.get('session'), id, asset_id),
    });
  });
  app.get('/integrations/:id/secret', requireAuth(services), async (c) => {
    const { id } = validParams(c, params);
    return c.json({ data: await services.integrations.secret(c.get('session'), id) });
  });
  app.post('/integrations/:id/secret', requireAuth(services), async (c) => {
    const { id } = validParams(c, params);
    return c.json({ data: await services.integrations.rotate(c.get('session'), id) });
  });
  return app;
}
