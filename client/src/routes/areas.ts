import { accountsArea } from '../features/accounts/routes';
import { alarmsArea } from '../features/alarms/routes';
import { apiReferenceArea } from '../features/api-reference/routes';
import { boardsArea } from '../features/boards/routes';
import { dashboardsArea } from '../features/dashboards/routes';
import { developerArea } from '../features/developer/routes';
import { devicesArea } from '../features/devices/routes';
import { feedbackArea } from '../features/feedback/routes';
import { firmwareArea } from '../features/firmware/routes';
import { gatewaysArea } from '../features/gateway-pages/routes';
import { helpcenterArea } from '../features/helpcenter/routes';
import { homeArea } from '../features/home/routes';
import { integrationArea } from '../features/integration/routes';
import { jobsArea } from '../features/jobs/routes';
import { qrArea } from '../features/qr/routes';
import { reportArea } from '../features/report/routes';
import { reportsArea } from '../features/reports/routes';
import { securityInsightsArea } from '../features/security-insights/routes';
import { serviceArea } from '../features/service/routes';
import { singleArea } from '../features/single/routes';
import { tasksArea } from '../features/tasks/routes';
import { templatesArea } from '../features/templates/routes';
import { themesArea } from '../features/themes/routes';
import { translationsArea } from '../features/translations/routes';
import { userArea } from '../features/user/routes';
import { usersArea } from '../features/users/routes';
import { versionsArea } from '../features/versions/routes';
import type { AreaDefinition } from './area-routes';

/**
 * Every area of the product: the route tree adds their routes in this order, and the side menu
 * gathers their entries from here (each entry says its own group and place). A new area is its
 * folder's `routes.tsx` and one line here; areas.test.ts fails for a `routes.tsx` not listed.
 */
export const AREAS: readonly AreaDefinition[] = [
  userArea,
  accountsArea,
  firmwareArea,
  integrationArea,
  feedbackArea,
  boardsArea,
  usersArea,
  templatesArea,
  homeArea,
  devicesArea,
  alarmsArea,
  developerArea,
  helpcenterArea,
  serviceArea,
  tasksArea,
  securityInsightsArea,
  versionsArea,
  gatewaysArea,
  dashboardsArea,
  reportsArea,
  translationsArea,
  themesArea,
  jobsArea,
  reportArea,
  singleArea,
  apiReferenceArea,
  qrArea,
];
