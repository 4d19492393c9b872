import { msg } from '@lingui/core/macro';
import { area, type AreaDefinition } from '../../routes/area-routes';
import { lazyPage } from '../../routes/lazy';
import { servicePaths } from './paths';

const ActiveServicePage = lazyPage(() => import('./service-list-page'), 'ActiveServicePage');
const PastServicePage = lazyPage(() => import('./service-list-page'), 'PastServicePage');
const ServiceRequestPage = lazyPage(() => import('./service-request-page'), 'ServiceRequestPage');

const REQUIREMENT = { permission: 'servicerequest::view' } as const;

/**
 * Service requests (issue 34 item 2, spec 000 §2): the active ones, the past ones, one request
 * with its machine's context and its calls.
 */
export const serviceArea: AreaDefinition = {
  app: (app) => [
    area(app, 'service', msg`Service requests`, {
      requirement: REQUIREMENT,
      component: () => <ActiveServicePage />,
      children: (p) => [
        area(p, 'history', msg`Past service requests`, {
          component: () => <PastServicePage />,
        }),
        area(p, '$id/details', msg`Service request`, {
          component: () => <ServiceRequestPage />,
        }),
      ],
    }),
  ],
  menu: [
    {
      group: 'service',
      position: 10,
      entry: () => ({
        key: 'service',
        label: msg`Service requests`,
        icon: 'service',
        to: servicePaths.active(),
        section: '/app/service',
        requirement: REQUIREMENT,
      }),
    },
    {
      group: 'service',
      position: 20,
      entry: () => ({
        key: 'serviceHistory',
        label: msg`Past service requests`,
        icon: 'history',
        to: servicePaths.history(),
        section: '/app/service/history',
        requirement: REQUIREMENT,
      }),
    },
  ],
};
