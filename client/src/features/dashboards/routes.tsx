import { msg } from '@lingui/core/macro';
import { listArea, type AreaDefinition } from '../../routes/area-routes';
import { lazyPage } from '../../routes/lazy';

const DashboardsListPage = lazyPage(() => import('./dashboards-list-page'), 'DashboardsListPage');
/** Also the asset's and the template's `dashboard/{dashboardid}` (their routes name it). */
export const DashboardPage = lazyPage(() => import('./dashboard-page'), 'DashboardPage');

/** Dashboards (issue 31): the list and one dashboard. */
export const dashboardsArea: AreaDefinition = {
  app: (app) => [
    listArea(app, 'dashboards', msg`Dashboards`, {
      list: () => <DashboardsListPage />,
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
