import { Hono } from 'hono';
import {
  cspReportSchema,
  insightCheckParamsSchema,
  insightDismissSchema,
  threatsQuerySchema,
} from '@plant/shared-schema';
import { requireAuth } from '../http/auth';
import type { AppEnv } from '../http/context';
import { validBody, validParams, validQuery } from '../http/validate';
import type { Services } from '../services';

/**
 * Security insights (issue 38 item 1; insights/): the active account's checks, threats and
 * dismissals, and the app's reports of Content-Security-Policy violations.
 */
export function securityInsightRoutes(services: Services) {
  const app = new Hono<AppEnv>();
  const auth = requireAuth(services);

  app.get('/security-insights', auth, async (c) =>
    c.json({ data: await services.insights.overview(c.get('session')) }),
  );
  app.get('/security-insights/threats', auth, async (c) => {
    const { days } = validQuery(c, threatsQuerySchema);
    return c.json({ data: await services.insights.threats(c.get('session'), days) });
  });
  app.post('/security-insights/checks/:id/dismissal', auth, async (c) => {
    const { id } = validParams(c, insightCheckParamsSchema);
    const body = await validBody(c, insightDismissSchema);
    return c.json({ data: await services.insights.dismiss(c.get('session'), id, body) });
  });
  app.delete('/security-insights/checks/:id/dismissal', auth, async (c) => {
    const { id } = validParams(c, insightCheckParamsSchema);
    await services.insights.restore(c.get('session'), id);
    return c.body(null, 204);
  });

  // Counted for the active account only: a report names nothing the server trusts but its kind.
  app.post('/csp-reports', auth, async (c) => {
    const report = await validBody(c, cspReportSchema);
    const accountId = c.get('session').activeAccount?.id;
    if (accountId !== undefined) services.securityEvents.cspReport(accountId, report.directive);
    return c.body(null, 204);
  });

  return app;
}
