import { Hono } from 'hono';
import { requestFailedSchema } from '@plant/shared-schema';
import { bearerToken } from '../http/auth';
import { clientAddress, type AppEnv } from '../http/context';
import { validBody } from '../http/validate';
import type { Services } from '../services';

/** What browsers report to the server: failed requests (web push: routes/subscriptions.ts). */
export function clientReportRoutes(services: Services) {
  const app = new Hono<AppEnv>();

  // Signed out clients report too (a failed sign-in page load): the token is optional here.
  app.post('/requestFailed', async (c) => {
    const report = await validBody(c, requestFailedSchema);
    const token = bearerToken(c);
    const auth = token === undefined ? undefined : await services.auth.authenticate(token);
    await services.clientReports.requestFailed(report, {
      userId: auth?.userId ?? null,
      address: clientAddress(c),
    });
    return c.json({ success: true }, 201);
  });

  return app;
}
