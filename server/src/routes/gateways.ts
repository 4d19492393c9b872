import { Hono } from 'hono';
import { linkGatewayQuerySchema } from '@plant/shared-schema';
import { requireAuth } from '../http/auth';
import type { AppEnv } from '../http/context';
import { validQuery } from '../http/validate';
import type { Services } from '../services';

/** Gateway calls beyond the generic model routes. */
export function gatewayRoutes(services: Services) {
  const app = new Hono<AppEnv>();
  const auth = requireAuth(services);

  // A scanned QR code (spec 000 §2 /scan?id=): where to go, and which account to switch to first.
  // gateway::view and the account are checked per account in the service.
  app.get('/linkGateway', auth, async (c) => {
    const { id } = validQuery(c, linkGatewayQuerySchema);
    return c.json({ data: await services.gateways.link(c.get('session'), id) });
  });

  return app;
}
