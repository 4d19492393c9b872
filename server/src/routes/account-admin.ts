import { Hono } from 'hono';
import { accountParamsSchema, subaccountRequestSchema } from '@plant/shared-schema';
import { requireAuth } from '../http/auth';
import type { AppEnv } from '../http/context';
import { validBody, validParams } from '../http/validate';
import type { Services } from '../services';

/**
 * Accounts the admin manages (spec 000 §3): subaccounts and details. Renames, moves,
 * (de)activation, the theme and the host are writes of the synced `account` model: PUT accounts/{id} is the generic route.
 */
export function accountAdminRoutes(services: Services) {
  const app = new Hono<AppEnv>();
  const auth = requireAuth(services);
  const accounts = services.accountAdmin;

  app.post('/account/subaccounts', auth, async (c) => {
    const req = await validBody(c, subaccountRequestSchema);
    return c.json({ data: await accounts.create(c.get('session'), req) }, 201);
  });

  // The words every member of the active account sees (issue 36): its translations and those
  // of the accounts above it, the nearest first. Every member reads them (a technician too).
  app.get('/translations/inherited', auth, async (c) =>
    c.json({ data: await services.accounts.inheritedTexts(c.get('session')) }),
  );

  app.get('/accounts/:id', auth, async (c) => {
    const { id } = validParams(c, accountParamsSchema);
    return c.json({ data: await accounts.get(c.get('session'), id) });
  });

  return app;
}
