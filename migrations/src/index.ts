import type { Migration } from 'kysely';
import * as shell from './20261122000000-shell';
import * as accessVersion from './20261122000100-access-version';
import * as models from './20261122000200-models-and-change-log';
import * as browserCredentials from './20261122000300-browser-credentials';
import * as mutationOp from './20261122000400-mutation-op';
import * as credentialIndexes from './20261122000500-browser-credential-indexes';
import * as gatewayData from './20261124000000-gateway-data';
import * as terminalCommands from './20261124000100-terminal-commands';
import * as modelListOrder from './20261124000200-model-list-order';
import * as assetAccess from './20261126000000-asset-access';
import * as invitations from './20261126000100-invitations';
import * as userProfile from './20261126000200-user-profile';
import * as alarms from './20261126000300-alarms';
import * as pushSubscriptions from './20261126000400-push-subscriptions';
import * as pushSubscriptionSession from './20261126000600-push-subscription-session';
import * as oauth from './20261127000000-oauth';
import * as alarmDeliveries from './20261126000500-alarm-deliveries';
import * as mutationWriter from './20261128000000-mutation-writer';
import * as textByteOrder from './20261128000500-text-byte-order';
import * as alarmDeliveryRate from './20261129000100-alarm-delivery-rate';
import * as invitationRevoke from './20261129000200-invitation-revoke';
import * as reportRuns from './20261129003100-report-runs';
import * as articleSearch from './20261130000100-article-search';
import * as ticketNotices from './20261130000200-ticket-notices';
import * as serviceAccess from './20261130000300-service-access';
import * as serviceCalls from './20261130000400-service-calls';
import * as releaseHistory from './20261201000100-release-history';
import * as accountTheme from './20261201000200-account-theme';
import * as webhooks from './20261202006000-webhooks';
import * as twoFactor from './20261203002000-two-factor';
import * as securityInsights from './20261203003000-security-insights';

/**
 * Every migration, by name. Names start with a UTC timestamp so that they sort in the order they
 * must run; kysely's Migrator runs them in that order and records each in kysely_migration.
 * A new migration is one file plus one line here.
 */
export const migrations: Record<string, Migration> = {
  '20261122000000-shell': shell,
  '20261122000100-access-version': accessVersion,
  '20261122000200-models-and-change-log': models,
  '20261122000300-browser-credentials': browserCredentials,
  '20261122000400-mutation-op': mutationOp,
  '20261122000500-browser-credential-indexes': credentialIndexes,
  '20261124000000-gateway-data': gatewayData,
  '20261124000100-terminal-commands': terminalCommands,
  '20261124000200-model-list-order': modelListOrder,
  '20261126000000-asset-access': assetAccess,
  '20261126000100-invitations': invitations,
  '20261126000200-user-profile': userProfile,
  '20261126000300-alarms': alarms,
  '20261126000400-push-subscriptions': pushSubscriptions,
  '20261126000500-alarm-deliveries': alarmDeliveries,
  '20261126000600-push-subscription-session': pushSubscriptionSession,
  '20261127000000-oauth': oauth,
  '20261128000000-mutation-writer': mutationWriter,
  '20261128000500-text-byte-order': textByteOrder,
  '20261129000100-alarm-delivery-rate': alarmDeliveryRate,
  '20261129000200-invitation-revoke': invitationRevoke,
  '20261129003100-report-runs': reportRuns,
  '20261130000100-article-search': articleSearch,
  '20261130000200-ticket-notices': ticketNotices,
  '20261130000300-service-access': serviceAccess,
  '20261130000400-service-calls': serviceCalls,
  '20261201000100-release-history': releaseHistory,
  '20261201000200-account-theme': accountTheme,
  '20261202006000-webhooks': webhooks,
  '20261203002000-two-factor': twoFactor,
  '20261203003000-security-insights': securityInsights,
};
