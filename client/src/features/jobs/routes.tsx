import { msg } from '@lingui/core/macro';
import { listArea, type AreaDefinition } from '../../routes/area-routes';
import { lazyPage } from '../../routes/lazy';
import { JOBS_REQUIREMENT } from '../themes/paths';

const JobsListPage = lazyPage(() => import('./jobs-list-page'), 'JobsListPage');
const JobPage = lazyPage(() => import('./job-page'), 'JobPage');

/**
 * The jobs of the public pages (issue 36 item 3): written by the top account, published on /jobs.
 * Reached from the themes' screens (no menu entry of their own: spec 000 §2's menu has none).
 */
export const jobsArea: AreaDefinition = {
  app: (app) => [
    listArea(app, 'jobs', msg`Jobs`, {
      requirement: JOBS_REQUIREMENT,
      list: () => <JobsListPage />,
      item: { param: '$jobid', title: msg`Job`, component: () => <JobPage /> },
    }),
  ],
};
