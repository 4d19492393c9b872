import { msg } from '@lingui/core/macro';
import { ROUTE_REQUIREMENTS } from '@plant/shared-schema';
import { area, forward, type AreaDefinition } from '../../routes/area-routes';
import { lazyPage } from '../../routes/lazy';

const OverviewPage = lazyPage(() => import('./overview-page'), 'OverviewPage');
const ThreatOverviewPage = lazyPage(() => import('./threats-page'), 'ThreatOverviewPage');

/**
 * Security insights (issue 38 item 1): the overview of the account's checks and the threat
 * overview, each a lazy page with a catalogue of its own.
 */
export const securityInsightsArea: AreaDefinition = {
  app: (app) => [
    area(app, 'security-insights', msg`Security insights`, {
      children: (p) => [
        forward(p, '/', '/app/security-insights/overview'),
        area(p, 'overview', msg`Overview`, {
          requirement: ROUTE_REQUIREMENTS.securityInsights,
          component: () => <OverviewPage />,
        }),
        area(p, 'threat-overview', msg`Threat overview`, {
          requirement: ROUTE_REQUIREMENTS.securityInsights,
          component: () => <ThreatOverviewPage />,
        }),
      ],
    }),
  ],
  menu: [
    {
      group: 'administration',
      position: 30,
      entry: {
        key: 'securityInsights',
        label: msg`Security insights`,
        icon: 'shield',
        to: '/app/security-insights/overview',
        section: '/app/security-insights',
        requirement: ROUTE_REQUIREMENTS.securityInsights,
      },
    },
  ],
};
