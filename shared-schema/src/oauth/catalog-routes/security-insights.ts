import {
  cspReportSchema,
  insightCheckParamsSchema,
  insightDismissalSchema,
  insightDismissSchema,
  securityInsightsSchema,
  securityThreatsSchema,
  threatsQuerySchema,
} from '../../api/security-insights';
import { FIRST_PARTY, needs, type ApiRoute } from '../route-access';
import { data } from './shared';

/** Security insights (issue 38 item 1): the active account's checks, threats and dismissals. */
export const SECURITY_INSIGHT_ROUTES: readonly ApiRoute[] = [
  {
    method: 'GET',
    path: '/security-insights',
    access: needs('insights:read'),
    tag: 'Security insights',
    summary:
      "The active account's security checks (security-insights::view): each passing, failing or dismissed, with its count and the failing items the caller may see, and the 90-day trend.",
    response: data(securityInsightsSchema),
  },
  {
    method: 'GET',
    path: '/security-insights/threats',
    access: needs('insights:read'),
    tag: 'Security insights',
    summary:
      'Failed sign-ins, rate-limit hits, broker refusals and CSP reports of the active account per day, with the addresses, users and clients counted most (security-insights::view).',
    query: threatsQuerySchema,
    response: data(securityThreatsSchema),
  },
  {
    method: 'POST',
    path: '/security-insights/checks/:id/dismissal',
    access: needs('insights:write'),
    tag: 'Security insights',
    summary:
      'Dismisses a check with a reason until a date (security-insights::view and account::edit); it shows as failing again from then, if it still fails.',
    params: insightCheckParamsSchema,
    body: insightDismissSchema,
    response: data(insightDismissalSchema),
  },
  {
    method: 'DELETE',
    path: '/security-insights/checks/:id/dismissal',
    access: needs('insights:write'),
    tag: 'Security insights',
    summary: "Takes a check's dismissal back (security-insights::view and account::edit).",
    params: insightCheckParamsSchema,
    status: 204,
  },
  {
    method: 'POST',
    path: '/csp-reports',
    access: FIRST_PARTY,
    tag: 'Security insights',
    summary:
      "A Content-Security-Policy violation the app saw, counted for the active account's threat overview.",
    body: cspReportSchema,
    status: 204,
  },
];
