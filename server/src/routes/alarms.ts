import { Hono } from 'hono';
import { z } from 'zod';
import { alarmHistoryQuerySchema, alarmSettingsSchema, idField } from '@plant/shared-schema';
import { requireAuth } from '../http/auth';
import type { AppEnv } from '../http/context';
import { validBody, validParams, validQuery } from '../http/validate';
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

  app.get('/account/alarm-settings', auth, async (c) =>
    c.json({ data: await services.alarms.settings(c.get('session')) }),
  );
  app.put('/account/alarm-settings', auth, async (c) => {
    const body = await validBody(c, alarmSettingsSchema);
    return c.json({ data: await services.alarms.setSettings(c.get('session'), body) });
  });

  return app;
}
