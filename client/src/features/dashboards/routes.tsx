import { msg } from '@lingui/core/macro';
import { listArea, type AreaDefinition } from '../../routes/area-routes';
import { lazyPage } from '../../routes/lazy';

const DashboardPage = lazyPage(() => import('./dashboard-page'), 'DashboardPage');

/** Dashboards (a later issue builds them): the list and one dashboard. */
export const dashboardsArea: AreaDefinition = {
  app: (app) => [
    listArea(app, 'dashboards', msg`Dashboards`, {
      item: {
        param: '$dashboardid',
        title: msg`Dashboard`,
        component: () => <DashboardPage />,
      },
    }),
  ],
  menu: [
    {
      group: 'operations',
      position: 60,
      entry: {
        key: 'dashboards',
        label: msg`Dashboards`,
        icon: 'dashboard',
        to: '/app/dashboards/list',
        section: '/app/dashboards',
      },
    },
  ],
};
