import { Hono } from 'hono';
import { z } from 'zod';
import { callStartSchema, can, idField, SERVICE_PERMISSIONS } from '@plant/shared-schema';
import { requireAuth } from '../http/auth';
import type { AppEnv } from '../http/context';
import { validBody, validParams } from '../http/validate';
import type { Services } from '../services';
import { forbidden } from '../services/domain-error';

const idParams = z.object({ id: idField });
const callParams = z.object({ id: idField, callId: idField });

/** Calls of service requests (issue 34 item 3; service/calls.ts). */
export function serviceCallRoutes(services: Services) {
  const app = new Hono<AppEnv>();
  const auth = requireAuth(services);

  app.post('/service_requests/:id/calls', auth, async (c) => {
    const { id } = validParams(c, idParams);
    const session = c.get('session');
    if (!can(session.ctx, SERVICE_PERMISSIONS.view)) throw forbidden();
    const { kind, offer } = await validBody(c, callStartSchema);
    return c.json({ data: await services.calls.start(session, id, kind, offer) }, 201);
  });

  app.post('/service_requests/:id/calls/:callId/end', auth, async (c) => {
    const { id, callId } = validParams(c, callParams);
    const session = c.get('session');
    if (!can(session.ctx, SERVICE_PERMISSIONS.view)) throw forbidden();
    await services.calls.end(session, id, callId);
    return c.json({ success: true });
  });

  app.get('/calls/config', auth, (c) =>
    c.json({ data: { ice_servers: services.calls.iceServers } }),
  );

  return app;
}
