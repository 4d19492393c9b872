import type { Hono } from 'hono';
import type { PushKey } from '@plant/shared-schema';
import type { FileService } from '../files/file.service';
import type { ValuesService } from '../gateways/values.service';
import type { AppEnv } from '../http/context';
import type { Logger } from '../logger';
import type { RecipientInvites } from '../notify/recipient-invites';
import type { Services } from '../services';
import type { ReportService } from '../reports/report.service';
import type { BookletService } from '../booklet/booklet.service';
import { accountAdminRoutes } from './account-admin';
import { alarmRecipientRoutes } from './alarm-recipients';
import { alarmRoutes } from './alarms';
import { articleRoutes } from './articles';
import { releaseRoutes } from './releases';
import { authRoutes } from './auth';
import { bookletRoutes } from './booklet';
import { clientReportRoutes } from './client-reports';
import { fileRoutes } from './files';
import { gatewayRoutes } from './gateways';
import { integrationRoutes } from './integrations';
import { invitationRoutes } from './invitations';
import { memberRoutes } from './members';
import { modelRoutes } from './models';
import { oauthRoutes } from './oauth';
import { reportRoutes } from './reports';
import { openapiRoutes } from './openapi';
import { roleRoutes } from './roles';
import { serviceCallRoutes } from './service-calls';
import { subscriptionRoutes } from './subscriptions';
import { syncRoutes } from './sync';
import { securityInsightRoutes } from './security-insights';
import { twoFactorRoutes } from './two-factor';
import { userRoutes } from './user';
import { valueRoutes } from './values';

/** What the API's route modules are built from: the app's services and parts (createApp's). */
export interface ApiDeps {
  readonly services: Services;
  readonly log: Logger;
  readonly values: ValuesService;
  readonly files: FileService;
  /** Web push: the VAPID public key browsers subscribe with. */
  readonly push: PushKey;
  /** Recipient invitations of the alarm dispatcher; without them their routes are not mounted. */
  readonly alarmRecipients: RecipientInvites | undefined;
  /** Reports' runs and files (issue 31); without them their routes are not mounted. */
  readonly reports: ReportService | undefined;
  /** The service booklet's PDF (issue 37 item 3); without it its route is not mounted. */
  readonly booklet?: BookletService | undefined;
}

/** One area's sub-app under the API base, or null when this process does not serve it. */
export type ApiRouteModule = (deps: ApiDeps) => Hono<AppEnv> | null;

/**
 * Every area of the API, mounted at API_BASE in this order (one line per area: a new area is its
 * `routes/<area>.ts` and a line here). Order matters where paths overlap: Hono answers with the
 * first route that matches.
 */
export const API_ROUTE_MODULES: readonly ApiRouteModule[] = [
  ({ services }) => authRoutes(services),
  ({ services }) => oauthRoutes(services),
  ({ services }) => clientReportRoutes(services),
  ({ services, push }) => subscriptionRoutes(services, push),
  ({ services }) => userRoutes(services),
  ({ services }) => syncRoutes(services),
  ({ services }) => roleRoutes(services),
  ({ services }) => invitationRoutes(services),
  ({ services }) => memberRoutes(services),
  ({ services }) => accountAdminRoutes(services),
  ({ services, values }) => gatewayRoutes(services, values),
  ({ services, values }) => valueRoutes(services, values),
  ({ services, files }) => fileRoutes(services, files),
  ({ services }) => articleRoutes(services),
  ({ services }) => releaseRoutes(services),
  ({ alarmRecipients }) =>
    alarmRecipients === undefined ? null : alarmRecipientRoutes(alarmRecipients),
  ({ services }) => alarmRoutes(services),
  ({ services, reports }) => (reports === undefined ? null : reportRoutes(services, reports)),
  ({ services }) => serviceCallRoutes(services),
  ({ services }) => integrationRoutes(services),
  ({ services }) => twoFactorRoutes(services),
  ({ services }) => securityInsightRoutes(services),
  ({ services, booklet }) => (booklet === undefined ? null : bookletRoutes(services, booklet)),
  () => openapiRoutes(),
  // Last: its /:collection paths must not shadow the fixed paths above.
  ({ services, log }) => modelRoutes(services, log),
];
