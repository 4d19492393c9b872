import { msg } from '@lingui/core/macro';
import { listArea, type AreaDefinition } from '../../routes/area-routes';
import { lazyPage } from '../../routes/lazy';
import { REPORTS_REQUIREMENT, reportPaths } from './report-paths';

const ReportsListPage = lazyPage(() => import('./reports-list-page'), 'ReportsListPage');
const ReportPage = lazyPage(() => import('./report-page'), 'ReportPage');

/**
 * Issue 31: the account's reports (/app/reports/list) and one report (/app/reports/{reportid});
 * an asset's report is the asset's `report/{reportid}` (devices' routes, the same page).
 */
export const reportsArea: AreaDefinition = {
  app: (app) => [
    listArea(app, 'reports', msg`Reports`, {
      requirement: REPORTS_REQUIREMENT,
      list: () => <ReportsListPage />,
      item: { param: '$reportid', title: msg`Report`, component: () => <ReportPage /> },
    }),
  ],
  menu: [
    {
      group: 'operations',
      position: 65,
      entry: {
        key: 'reports',
        label: msg`Reports`,
        icon: 'report',
        to: reportPaths.list(),
        section: '/app/reports',
        requirement: REPORTS_REQUIREMENT,
      },
    },
  ],
};
