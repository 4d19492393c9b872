import { msg } from '@lingui/core/macro';
import { ROUTE_REQUIREMENTS } from '@plant/shared-schema';
import { area, forward, type AreaDefinition } from '../../routes/area-routes';
import { lazyPage } from '../../routes/lazy';

const GatewaysListPage = lazyPage(() => import('./gateways-list-page'), 'GatewaysListPage');
const GatewayDetailsPage = lazyPage(() => import('./gateway-details-page'), 'GatewayDetailsPage');
const TerminalPage = lazyPage(() => import('../terminal/terminal-page'), 'TerminalPage');
const LogsPage = lazyPage(() => import('../gateway-logs/logs-page'), 'LogsPage');

/** The gateways: the list, and one gateway's details, terminal and logs. */
export const gatewaysArea: AreaDefinition = {
  app: (app) => [
    area(app, 'gateways', msg`Gateways`, {
      requirement: ROUTE_REQUIREMENTS.gateways,
      children: (p) => [
        forward(p, '/', '/app/gateways/list'),
        area(p, 'list', msg`Gateways`, { component: () => <GatewaysListPage /> }),
        area(p, '$id/details', msg`Gateway`, { component: () => <GatewayDetailsPage /> }),
        area(p, '$id/terminal', msg`Terminal`, {
          requirement: ROUTE_REQUIREMENTS.gatewayTerminal,
          component: () => <TerminalPage />,
        }),
        area(p, '$id/logs', msg`Gateway logs`, { component: () => <LogsPage /> }),
      ],
    }),
  ],
  menu: [
    {
      group: 'operations',
      position: 50,
      entry: {
        key: 'gateways',
        label: msg`Gateways`,
        icon: 'gateway',
        to: '/app/gateways/list',
        section: '/app/gateways',
        requirement: ROUTE_REQUIREMENTS.gateways,
      },
    },
  ],
};
