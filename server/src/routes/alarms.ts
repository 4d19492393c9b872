import { Hono } from 'hono';
import { z } from 'zod';
import { alarmHistoryQuerySchema, idField } from '@plant/shared-schema';
import { requireAuth } from '../http/auth';
import type { AppEnv } from '../http/context';
import { validParams, validQuery } from '../http/validate';
import type { Services } from '../services';

const idParams = z.object({ id: idField });

/** Alarm history and GET user/{id}/notificationtrigger (issue 17; alarms/alarm.service.ts). */
export function alarmRoutes(services: Services) {
  const app = new Hono<AppEnv>();
  const auth = requireAuth(services);

  app.get('/alarms/:id/history', auth, async (c) => {
    const { id } = validParams(c, idParams);
    const q = validQuery(c, alarmHistoryQuerySchema.omit({ asset_id: true }));
    return c.json({ data: await services.alarms.alarmHistory(c.get('session'), id, q) });
  });

  app.get('/alarm-history', auth, async (c) => {
    const q = validQuery(c, alarmHistoryQuerySchema);
    return c.json({ data: await services.alarms.accountHistory(c.get('session'), q) });
  });

  app.get('/user/:id/notificationtrigger', auth, async (c) => {
    const { id } = validParams(c, idParams);
    return c.json({ data: await services.alarms.trigger(c.get('session'), id) });
  });

  return app;
}
