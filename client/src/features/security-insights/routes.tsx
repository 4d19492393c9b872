import { msg } from '@lingui/core/macro';
import { ROUTE_REQUIREMENTS } from '@plant/shared-schema';
import { area, forward, type AreaDefinition } from '../../routes/area-routes';

/** Security insights (a later issue builds them): the overview and the threats. */
export const securityInsightsArea: AreaDefinition = {
  app: (app) => [
    area(app, 'security-insights', msg`Security insights`, {
      children: (p) => [
        forward(p, '/', '/app/security-insights/overview'),
        area(p, 'overview', msg`Overview`, { requirement: ROUTE_REQUIREMENTS.securityInsights }),
        area(p, 'threat-overview', msg`Threat overview`, {
          requirement: ROUTE_REQUIREMENTS.securityInsights,
        }),
      ],
    }),
  ],
  menu: [
    {
      group: 'administration',
      placeholder: true,
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
