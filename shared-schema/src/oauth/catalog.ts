import { z } from 'zod';
import { envelopeSchema } from '../api/envelope';
import { idField } from '../api/fields';
import { accountParamsSchema, subaccountRequestSchema } from '../api/account-admin';
import { accountTreeSchema } from '../api/account-tree';
import {
  alarmRecipientAnswerSchema,
  alarmRecipientConfirmQuerySchema,
  alarmRecipientDecisionSchema,
  alarmRecipientPaths,
} from '../api/alarm-recipients';
import {
  alarmEventSchema,
  alarmHistoryQuerySchema,
  alarmSettingsSchema,
  notificationTriggerSchema,
} from '../api/alarms';
import {
  gatewayCredentialListSchema,
  gatewayCredentialsMadeSchema,
} from '../api/gateway-credentials';
import {
  invitationAcceptSchema,
  invitationInfoRequestSchema,
  invitationInfoSchema,
  invitationJoinSchema,
  invitationRequestSchema,
  invitationSentSchema,
} from '../api/invitations';
import { linkGatewayQuerySchema, linkGatewayResultSchema } from '../api/link-gateway';
import { memberParamsSchema, memberRoleParamsSchema, memberSchema } from '../api/members';
import { opcuaBrowseBodySchema, opcuaNodesAnswerSchema, opcuaSearchBodySchema } from '../api/opcua';
import { passwordForgotRequestSchema, passwordResetRequestSchema } from '../api/password-reset';
import {
  notificationSettingsSchema,
  userProfileChangeSchema,
  userProfileSchema,
} from '../api/profile';
import { pushSubscriptionSchema } from '../api/push-subscription';
import { registerRequestSchema } from '../api/register';
import { requestFailedSchema } from '../api/request-failed';
import {
  roleAdminSchema,
  roleAllAssetsSchema,
  roleAssetParamsSchema,
  roleAssetSchema,
  roleFieldParamsSchema,
  roleFieldsSchema,
  roleNameSchema,
  roleParamsSchema,
  rolePermissionsSchema,
} from '../api/roles';
import { pushKeySchema, pushUnsubscribeSchema } from '../api/subscriptions';
import { tokenRequestSchema, tokenResponseSchema } from '../api/token-request';
import {
  accountDesignSchema,
  accountViewSchema,
  currentUserSchema,
  setActiveAccountResponseSchema,
  userPublicSchema,
} from '../api/user';
import { preprocessingTryAnswerSchema, preprocessingTrySchema } from '../models/datastream';
import { uploadChunkQuerySchema, uploadStateSchema } from '../models/file';
import { gatewayLogLineSchema } from '../protocol/gateway';
import {
  brokerCredentialsSchema,
  graphAnswerSchema,
  mqttlogsAnswerSchema,
  snapshotPageSchema,
} from '../protocol/sync-reads';
import { terminalAuditSchema } from '../protocol/terminal';
import {
  latestValuesSchema,
  severalValuesQuerySchema,
  streamValuesSchema,
  valueRetentionSchema,
  valuesCsvQuerySchema,
  valuesQuerySchema,
} from '../protocol/values';
import { batchAnswerSchema, batchRequestSchema } from '../protocol/write';
import {
  authorizationCodeGrantSchema,
  authorizeAnswerSchema,
  authorizeDecisionSchema,
  authorizePreviewSchema,
  authorizeQuerySchema,
  clientCreatedSchema,
  clientCreateSchema,
  clientCredentialsGrantSchema,
  clientUpdateSchema,
  grantedTokenSchema,
  oauthClientViewSchema,
  personalTokenCreatedSchema,
  personalTokenCreateSchema,
  refreshTokenGrantSchema,
  scopeViewSchema,
  tokenWithClientSchema,
} from './api';
import type { ScopeId } from './scopes';

/**
 * Every route of the API (under API_BASE), with who may call it. THE list: the server's auth
 * middleware refuses a scoped token (a personal access token, a third-party application's or a
 * client-credentials token) on a route that is not here, and the API reference (OpenAPI 3.1 at
 * /api/v1/openapi.json, /app/api) is generated from it.
 *
 * `access`:
 * - `public`: no token (sign-in, registration, password reset, invitation links, the reference);
 * - `first-party`: only the app's own sign-in, never a scoped token (managing tokens and clients,
 *   the consent screen, switching the active account, the browser's broker credentials);
 * - `scopes`: a scoped token needs one of these (a write scope includes its read), and the
 *   route's own permission check applies besides, itself narrowed by the token's scopes;
 * - `any`: any signed-in token; what it reads or writes is narrowed by the permission checks
 *   inside (the generic model routes decide per model type, the sync reads filter by it).
 */
export type RouteAccess =
  | { readonly kind: 'public' }
  | { readonly kind: 'first-party' }
  | { readonly kind: 'any' }
  | { readonly kind: 'scopes'; readonly scopes: readonly ScopeId[] };

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

export interface ApiRoute {
  readonly method: HttpMethod;
  /** Hono's pattern under API_BASE: `/oauth/clients/:id`. */
  readonly path: string;
  readonly access: RouteAccess;
  /** One line for the reference. */
  readonly summary: string;
  /** The reference's group (OpenAPI tag). */
  readonly tag: string;
  readonly params?: z.ZodType;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  /** The answer's shape on success (the envelope included where the route uses one). */
  readonly response?: z.ZodType;
  /** Status of the success answer (200 when not given). */
  readonly status?: number;
}

export const PUBLIC: RouteAccess = { kind: 'public' };
export const FIRST_PARTY: RouteAccess = { kind: 'first-party' };
export const ANY_TOKEN: RouteAccess = { kind: 'any' };
export const needs = (...scopes: ScopeId[]): RouteAccess => ({ kind: 'scopes', scopes });

// Parameters and queries the routes validate with schemas of their own (server/src/routes), here
// in the form a caller sends them.
const idParams = z.object({ id: idField });
const collectionParams = z.object({ collection: z.string().max(64) });
const modelParams = z.object({ collection: z.string().max(64), id: z.string().max(64) });
const setActiveParams = z.object({ id: idField, accountid: idField });
const graphParams = z.object({ type: z.string().max(64), id: z.string().max(64) });
const browserQuery = z.object({ browser_id: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/) });
const styleQuery = z.object({ account: idField.optional() });
const mqttlogsQuery = z.object({ from: z.string().regex(/^\d{1,15}$/) });
const snapshotQuery = z.object({
  cursor: z.string().max(500).optional(),
  limit: z
    .string()
    .regex(/^\d{1,15}$/)
    .optional(),
  first_type: z.string().min(1).max(64).optional(),
  first_parent: z.string().max(300).optional(),
});
const alarmHistoryPageSchema = z.object({
  events: z.array(alarmEventSchema),
  before: z.number().nullable(),
});
const signedInSchema = tokenResponseSchema.extend({ user: currentUserSchema });
const modelBody = z.record(z.string(), z.unknown());
const alarmRecipientConfirm = `/${alarmRecipientPaths.confirm()}`;

const data = envelopeSchema;

export const API_ROUTES: readonly ApiRoute[] = [
  // --- Sign-in, registration, password -----------------------------------------------------
  {
    method: 'POST',
    path: '/oauth/token',
    access: PUBLIC,
    tag: 'Sign-in',
    summary:
      'An access token: password grant (first-party client only), authorization code with PKCE, refresh token, client credentials.',
    body: z.union([
      tokenRequestSchema,
      authorizationCodeGrantSchema,
      refreshTokenGrantSchema,
      clientCredentialsGrantSchema,
    ]),
    response: z.union([grantedTokenSchema, tokenResponseSchema]),
  },
  {
    method: 'POST',
    path: '/register',
    access: PUBLIC,
    tag: 'Sign-in',
    summary: 'A new user with an account of its own, signed in.',
    body: registerRequestSchema,
    response: data(signedInSchema),
    status: 201,
  },
  {
    method: 'POST',
    path: '/logout',
    access: ANY_TOKEN,
    tag: 'Sign-in',
    summary: 'Revokes the token the request is made with.',
  },
  {
    method: 'POST',
    path: '/password/forgot',
    access: PUBLIC,
    tag: 'Sign-in',
    summary: 'Mails a link to set a new password (the answer is the same for every address).',
    body: passwordForgotRequestSchema,
  },
  {
    method: 'POST',
    path: '/password/reset',
    access: PUBLIC,
    tag: 'Sign-in',
    summary: "Sets a new password with the mailed link's token; revokes the user's tokens.",
    body: passwordResetRequestSchema,
  },
  {
    method: 'POST',
    path: '/requestFailed',
    access: PUBLIC,
    tag: 'Sign-in',
    summary: 'A report of a request that failed in the browser (the token is optional).',
    body: requestFailedSchema,
    status: 201,
  },

  // --- OAuth: tokens, clients, authorization (first-party only) --------------------------------
  {
    method: 'GET',
    path: '/oauth/scopes',
    access: ANY_TOKEN,
    tag: 'OAuth',
    summary: 'Every scope a token can be given.',
    response: z.array(scopeViewSchema),
  },
  {
    method: 'GET',
    path: '/oauth/personal-access-tokens',
    access: FIRST_PARTY,
    tag: 'OAuth',
    summary: "The user's personal access tokens.",
    response: z.array(tokenWithClientSchema),
  },
  {
    method: 'POST',
    path: '/oauth/personal-access-tokens',
    access: FIRST_PARTY,
    tag: 'OAuth',
    summary:
      'A new personal access token (shown this once) with a name, scopes, a role and an expiry.',
    body: personalTokenCreateSchema,
    response: personalTokenCreatedSchema,
  },
  {
    method: 'DELETE',
    path: '/oauth/personal-access-tokens/:id',
    access: FIRST_PARTY,
    tag: 'OAuth',
    summary: 'Revokes a personal access token.',
    params: idParams,
    status: 204,
  },
  {
    method: 'GET',
    path: '/oauth/clients',
    access: FIRST_PARTY,
    tag: 'OAuth',
    summary: "The user's OAuth clients.",
    response: z.array(oauthClientViewSchema),
  },
  {
    method: 'POST',
    path: '/oauth/clients',
    access: FIRST_PARTY,
    tag: 'OAuth',
    summary: 'A new OAuth client; a confidential one gets a secret, shown this once.',
    body: clientCreateSchema,
    response: clientCreatedSchema,
    status: 201,
  },
  {
    method: 'PUT',
    path: '/oauth/clients/:id',
    access: FIRST_PARTY,
    tag: 'OAuth',
    summary: "Changes a client's name and redirect address.",
    params: idParams,
    body: clientUpdateSchema,
    response: oauthClientViewSchema,
  },
  {
    method: 'DELETE',
    path: '/oauth/clients/:id',
    access: FIRST_PARTY,
    tag: 'OAuth',
    summary: 'Deletes a client and revokes its tokens.',
    params: idParams,
    status: 204,
  },
  {
    method: 'GET',
    path: '/oauth/tokens',
    access: FIRST_PARTY,
    tag: 'OAuth',
    summary: 'The authorized applications: tokens given to third-party clients.',
    response: z.array(tokenWithClientSchema),
  },
  {
    method: 'DELETE',
    path: '/oauth/tokens/:id',
    access: FIRST_PARTY,
    tag: 'OAuth',
    summary: "Revokes an application's token and its refresh tokens.",
    params: idParams,
    status: 204,
  },
  {
    method: 'GET',
    path: '/oauth/authorize',
    access: FIRST_PARTY,
    tag: 'OAuth',
    summary: 'What the consent screen shows for an authorization request.',
    query: authorizeQuerySchema,
    response: authorizePreviewSchema,
  },
  {
    method: 'POST',
    path: '/oauth/authorize',
    access: FIRST_PARTY,
    tag: 'OAuth',
    summary: "The user's answer on the consent screen: where the browser goes next.",
    body: authorizeDecisionSchema,
    response: authorizeAnswerSchema,
  },

  // --- The signed-in user ------------------------------------------------------------------
  {
    method: 'GET',
    path: '/user',
    access: ANY_TOKEN,
    tag: 'User',
    summary: 'The signed-in user: active account, roles, permissions, tags.',
    response: data(currentUserSchema),
  },
  {
    method: 'GET',
    path: '/user/account',
    access: ANY_TOKEN,
    tag: 'User',
    summary: "The user's active account.",
    response: data(accountViewSchema.nullable()),
  },
  {
    method: 'GET',
    path: '/user/accounts',
    access: ANY_TOKEN,
    tag: 'User',
    summary: 'The accounts the user works in and, with account::view, those below them.',
    response: data(accountTreeSchema),
  },
  {
    method: 'POST',
    path: '/user/:id/setActiveAccount/:accountid',
    access: FIRST_PARTY,
    tag: 'User',
    summary: "Switches the user's active account.",
    params: setActiveParams,
    response: data(setActiveAccountResponseSchema),
  },
  {
    method: 'GET',
    path: '/user/browser/mqtt',
    access: FIRST_PARTY,
    tag: 'User',
    summary: "The browser's broker credentials for the active account.",
    query: browserQuery,
    response: data(brokerCredentialsSchema),
  },
  {
    method: 'GET',
    path: '/users/:id',
    access: ANY_TOKEN,
    tag: 'User',
    summary: 'Another user the caller may see.',
    params: idParams,
    response: data(userPublicSchema),
  },
  {
    method: 'GET',
    path: '/style',
    access: ANY_TOKEN,
    tag: 'User',
    summary: "The account's style sheet (text/css).",
    query: styleQuery,
  },
  {
    method: 'GET',
    path: '/user/:id/notificationtrigger',
    access: needs('alarms:read'),
    tag: 'Alarms',
    summary: 'The active alarms the user sees and has not acknowledged, worst first.',
    params: idParams,
    response: data(notificationTriggerSchema),
  },

  // --- Web push (the browser's own) ----------------------------------------------------------
  {
    method: 'GET',
    path: '/push/key',
    access: FIRST_PARTY,
    tag: 'Web push',
    summary: "The server's VAPID public key.",
    response: pushKeySchema,
  },
  {
    method: 'POST',
    path: '/subscriptions',
    access: FIRST_PARTY,
    tag: 'Web push',
    summary: "Subscribes this browser to the user's notifications.",
    body: pushSubscriptionSchema,
    status: 201,
  },
  {
    method: 'DELETE',
    path: '/subscriptions',
    access: FIRST_PARTY,
    tag: 'Web push',
    summary: "Ends this browser's subscription.",
    body: pushUnsubscribeSchema,
  },

  // --- Sync ----------------------------------------------------------------------------------
  {
    method: 'GET',
    path: '/account/mqttlogs',
    access: ANY_TOKEN,
    tag: 'Sync',
    summary: 'Model updates after a time, of the types the caller may view.',
    query: mqttlogsQuery,
    response: mqttlogsAnswerSchema,
  },
  {
    method: 'GET',
    path: '/sync/snapshot',
    access: ANY_TOKEN,
    tag: 'Sync',
    summary: "One page of the active account's models the caller may view, in id order.",
    query: snapshotQuery,
    response: data(snapshotPageSchema),
  },
  {
    method: 'GET',
    path: '/graph/:type/:id',
    access: ANY_TOKEN,
    tag: 'Sync',
    summary: 'A model and everything under it that the caller may view.',
    params: graphParams,
    response: data(graphAnswerSchema),
  },

  // --- Roles ---------------------------------------------------------------------------------
  {
    method: 'GET',
    path: '/account/roles',
    access: needs('account:read'),
    tag: 'Roles',
    summary: "The active account's roles.",
    response: data(z.array(roleAdminSchema)),
  },
  {
    method: 'POST',
    path: '/account/roles',
    access: needs('account:write'),
    tag: 'Roles',
    summary: 'A new role.',
    body: roleNameSchema,
    response: data(roleAdminSchema),
    status: 201,
  },
  {
    method: 'PUT',
    path: '/account/roles/:id',
    access: needs('account:write'),
    tag: 'Roles',
    summary: 'Renames a role.',
    params: roleParamsSchema,
    body: roleNameSchema,
    response: data(roleAdminSchema),
  },
  {
    method: 'DELETE',
    path: '/account/roles/:id',
    access: needs('account:write'),
    tag: 'Roles',
    summary: 'Deletes a role without members.',
    params: roleParamsSchema,
    status: 204,
  },
  {
    method: 'PUT',
    path: '/account/roles/:id/permissions',
    access: needs('account:write'),
    tag: 'Roles',
    summary: "Sets a role's permissions.",
    params: roleParamsSchema,
    body: rolePermissionsSchema,
    response: data(roleAdminSchema),
  },
  {
    method: 'PUT',
    path: '/account/roles/:id/access',
    access: needs('account:write'),
    tag: 'Roles',
    summary: 'Gives a role every asset of the account, or only those given to it.',
    params: roleParamsSchema,
    body: roleAllAssetsSchema,
    response: data(roleAdminSchema),
  },
  {
    method: 'PUT',
    path: '/account/roles/:id/assets/:assetId',
    access: needs('account:write'),
    tag: 'Roles',
    summary: 'Gives a role an asset, with or without edit rights.',
    params: roleAssetParamsSchema,
    body: roleAssetSchema,
    response: data(roleAdminSchema),
  },
  {
    method: 'DELETE',
    path: '/account/roles/:id/assets/:assetId',
    access: needs('account:write'),
    tag: 'Roles',
    summary: 'Takes an asset from a role.',
    params: roleAssetParamsSchema,
    response: data(roleAdminSchema),
  },
  {
    method: 'PUT',
    path: '/account/roles/:id/fields/:type',
    access: needs('account:write'),
    tag: 'Roles',
    summary: 'The fields of a type a role shows (null: all).',
    params: roleFieldParamsSchema,
    body: roleFieldsSchema,
    response: data(roleAdminSchema),
  },

  // --- Members and invitations ---------------------------------------------------------------
  {
    method: 'GET',
    path: '/account/users',
    access: needs('account:read'),
    tag: 'Members',
    summary: "The active account's members with their roles.",
    response: data(z.array(memberSchema)),
  },
  {
    method: 'DELETE',
    path: '/account/users/:id',
    access: needs('account:write'),
    tag: 'Members',
    summary: 'Removes a member from the active account.',
    params: memberParamsSchema,
    status: 204,
  },
  {
    method: 'PUT',
    path: '/account/users/:id/roles/:roleId',
    access: needs('account:write'),
    tag: 'Members',
    summary: 'Gives a member a role.',
    params: memberRoleParamsSchema,
    response: data(memberSchema),
  },
  {
    method: 'DELETE',
    path: '/account/users/:id/roles/:roleId',
    access: needs('account:write'),
    tag: 'Members',
    summary: 'Takes a role from a member (one role stays).',
    params: memberRoleParamsSchema,
    response: data(memberSchema),
  },
  {
    method: 'POST',
    path: '/account/users/:id/password-reset',
    access: needs('account:write'),
    tag: 'Members',
    summary: 'Mails a member a link to set a new password.',
    params: memberParamsSchema,
  },
  {
    method: 'GET',
    path: '/users/:id/profile',
    access: needs('account:read'),
    tag: 'Members',
    summary: "A user's details: oneself, or a member with user::view.",
    params: memberParamsSchema,
    response: data(userProfileSchema),
  },
  {
    method: 'PUT',
    path: '/users/:id/profile',
    access: needs('account:write'),
    tag: 'Members',
    summary: "Changes a user's details: oneself, or a member with user::edit.",
    params: memberParamsSchema,
    body: userProfileChangeSchema,
    response: data(userProfileSchema),
  },
  {
    method: 'GET',
    path: '/users/:id/notifications',
    access: needs('account:read'),
    tag: 'Members',
    summary: "A user's notification channels and window.",
    params: memberParamsSchema,
    response: data(notificationSettingsSchema),
  },
  {
    method: 'PUT',
    path: '/users/:id/notifications',
    access: needs('account:write'),
    tag: 'Members',
    summary: "Sets a user's notification channels and window.",
    params: memberParamsSchema,
    body: notificationSettingsSchema,
    response: data(notificationSettingsSchema),
  },
  {
    method: 'POST',
    path: '/account/invitations',
    access: FIRST_PARTY,
    tag: 'Members',
    summary: 'Invites a person into the active account by e-mail.',
    body: invitationRequestSchema,
    response: data(invitationSentSchema),
    status: 201,
  },
  {
    method: 'POST',
    path: '/invitations/info',
    access: PUBLIC,
    tag: 'Members',
    summary: "What an invitation link is for (the link's token in the body).",
    body: invitationInfoRequestSchema,
    response: data(invitationInfoSchema),
  },
  {
    method: 'POST',
    path: '/invitations/accept',
    access: PUBLIC,
    tag: 'Members',
    summary: 'Answers an invitation: a new person joins, an existing user accepts; signs in.',
    body: z.union([invitationJoinSchema, invitationAcceptSchema]),
    response: data(signedInSchema),
  },

  // --- Accounts ------------------------------------------------------------------------------
  {
    method: 'POST',
    path: '/account/subaccounts',
    access: FIRST_PARTY,
    tag: 'Accounts',
    summary: 'A new account under the active one (or the one given).',
    body: subaccountRequestSchema,
    response: data(accountViewSchema),
    status: 201,
  },
  {
    method: 'GET',
    path: '/accounts/:id',
    access: needs('account:read'),
    tag: 'Accounts',
    summary: 'An account the caller manages or works in.',
    params: accountParamsSchema,
    response: data(accountViewSchema),
  },
  {
    method: 'PUT',
    path: '/accounts/:id/design',
    access: needs('account:write'),
    tag: 'Accounts',
    summary: "Sets an account's colours.",
    params: accountParamsSchema,
    body: accountDesignSchema,
    response: data(accountViewSchema),
  },
  {
    method: 'GET',
    path: '/account/value-retention',
    access: needs('datastreams:read'),
    tag: 'Accounts',
    summary: 'How long the active account keeps machine values.',
    response: data(valueRetentionSchema),
  },
  {
    method: 'PUT',
    path: '/account/value-retention',
    access: needs('account:write'),
    tag: 'Accounts',
    summary: 'Sets how long the active account keeps machine values.',
    body: valueRetentionSchema,
    response: data(valueRetentionSchema),
  },
  {
    method: 'GET',
    path: '/account/alarm-settings',
    access: needs('alarms:read'),
    tag: 'Alarms',
    summary: "The active account's alarm settings.",
    response: data(alarmSettingsSchema),
  },
  {
    method: 'PUT',
    path: '/account/alarm-settings',
    access: needs('account:write'),
    tag: 'Alarms',
    summary: "Sets the active account's alarm settings.",
    body: alarmSettingsSchema,
    response: data(alarmSettingsSchema),
  },

  // --- Gateways ------------------------------------------------------------------------------
  {
    method: 'GET',
    path: '/linkGateway',
    access: needs('gateways:read'),
    tag: 'Gateways',
    summary: 'A scanned gateway code: where to go, and the account to switch to first.',
    query: linkGatewayQuerySchema,
    response: data(linkGatewayResultSchema),
  },
  {
    method: 'POST',
    path: '/gateways/:id/credentials',
    access: needs('gateways:write'),
    tag: 'Gateways',
    summary: "New broker credentials for the gateway's agent (shown this once; the old ones end).",
    params: idParams,
    response: data(gatewayCredentialsMadeSchema),
    status: 201,
  },
  {
    method: 'GET',
    path: '/gateways/:id/credentials',
    access: needs('gateways:read'),
    tag: 'Gateways',
    summary: "The gateway's live broker credentials, without secrets.",
    params: idParams,
    response: data(gatewayCredentialListSchema),
  },
  {
    method: 'DELETE',
    path: '/gateways/:id/credentials',
    access: needs('gateways:write'),
    tag: 'Gateways',
    summary: "Revokes the gateway's broker credentials.",
    params: idParams,
  },
  {
    method: 'GET',
    path: '/gateways/:id/logs',
    access: needs('gateways:read'),
    tag: 'Gateways',
    summary: "The agent's recent log lines.",
    params: idParams,
    response: data(z.array(gatewayLogLineSchema)),
  },
  {
    method: 'GET',
    path: '/gateways/:id/terminal',
    access: needs('gateways:read'),
    tag: 'Gateways',
    summary: "The gateway's terminal commands and their answers, newest first.",
    params: idParams,
    response: data(terminalAuditSchema),
  },
  {
    method: 'POST',
    path: '/gateways/:id/opcua/browse',
    access: needs('gateways:write'),
    tag: 'Gateways',
    summary: "The children of a node of an OPC UA connection's address space, through the agent.",
    params: idParams,
    body: opcuaBrowseBodySchema,
    response: data(opcuaNodesAnswerSchema),
  },
  {
    method: 'POST',
    path: '/gateways/:id/opcua/search',
    access: needs('gateways:write'),
    tag: 'Gateways',
    summary: 'Variables of an OPC UA connection whose name contains the text, through the agent.',
    params: idParams,
    body: opcuaSearchBodySchema,
    response: data(opcuaNodesAnswerSchema),
  },

  // --- Machine values ------------------------------------------------------------------------
  {
    method: 'GET',
    path: '/datastreams/values',
    access: needs('datastreams:read'),
    tag: 'Values',
    summary: 'Several streams over one range, downsampled to about `points` each.',
    query: severalValuesQuerySchema,
    response: data(z.array(streamValuesSchema)),
  },
  {
    method: 'GET',
    path: '/datastreams/:id/values',
    access: needs('datastreams:read'),
    tag: 'Values',
    summary: "A stream's values over a range, downsampled to about `points`.",
    params: idParams,
    query: valuesQuerySchema,
    response: data(streamValuesSchema),
  },
  {
    method: 'GET',
    path: '/datastreams/:id/values.csv',
    access: needs('datastreams:read'),
    tag: 'Values',
    summary: "A stream's raw values over a range as CSV (text/csv).",
    params: idParams,
    query: valuesCsvQuerySchema,
  },
  {
    method: 'POST',
    path: '/datastreams/:id/preprocessing/try',
    access: needs('datastreams:write'),
    tag: 'Values',
    summary: "Runs pre-processing code on the stream's latest value (or one given).",
    params: idParams,
    body: preprocessingTrySchema,
    response: data(preprocessingTryAnswerSchema),
  },
  {
    method: 'GET',
    path: '/assets/:id/values/latest',
    access: needs('datastreams:read'),
    tag: 'Values',
    summary: "The last value of each of an asset's streams.",
    params: idParams,
    response: data(latestValuesSchema),
  },

  // --- Files ---------------------------------------------------------------------------------
  {
    method: 'GET',
    path: '/files/:id/upload',
    access: needs('assets:read'),
    tag: 'Files',
    summary: "Where a file's upload stands.",
    params: idParams,
    response: data(uploadStateSchema),
  },
  {
    method: 'PUT',
    path: '/files/:id/upload',
    access: needs('assets:write'),
    tag: 'Files',
    summary: "A file's next chunk (the raw bytes as the body) at `offset`.",
    params: idParams,
    query: uploadChunkQuerySchema,
    response: data(uploadStateSchema),
  },
  {
    method: 'GET',
    path: '/files/:id/content',
    access: needs('assets:read'),
    tag: 'Files',
    summary: "A file's bytes.",
    params: idParams,
  },
  {
    method: 'GET',
    path: '/files/:id/thumbnail',
    access: needs('assets:read'),
    tag: 'Files',
    summary: 'A small WebP of an image file.',
    params: idParams,
  },

  // --- Alarms --------------------------------------------------------------------------------
  {
    method: 'GET',
    path: '/alarms/:id/history',
    access: needs('alarms:read'),
    tag: 'Alarms',
    summary: "One alarm's raises, clears and acknowledgements, newest first.",
    params: idParams,
    query: alarmHistoryQuerySchema.omit({ asset_id: true }),
    response: data(alarmHistoryPageSchema),
  },
  {
    method: 'GET',
    path: '/alarm-history',
    access: needs('alarms:read'),
    tag: 'Alarms',
    summary: "The active account's alarm history (of one asset with `asset_id`), newest first.",
    query: alarmHistoryQuerySchema,
    response: data(alarmHistoryPageSchema),
  },
  {
    method: 'GET',
    path: alarmRecipientConfirm,
    access: PUBLIC,
    tag: 'Alarms',
    summary: "The mailed recipient invitation's page (text/html) with Confirm and Decline.",
    query: alarmRecipientConfirmQuerySchema,
  },
  {
    method: 'POST',
    path: alarmRecipientConfirm,
    access: PUBLIC,
    tag: 'Alarms',
    summary: "A recipient's answer to an invitation (JSON, or the page's form).",
    body: alarmRecipientDecisionSchema,
    response: data(alarmRecipientAnswerSchema),
  },

  // --- Models (the generic write routes of the registry's models) ----------------------------
  {
    method: 'POST',
    path: '/:collection',
    access: ANY_TOKEN,
    tag: 'Models',
    summary:
      "Creates a model of the collection, or several (a list of { batch_id, data }); the type's create permission applies.",
    params: collectionParams,
    body: z.union([modelBody, batchRequestSchema]),
  },
  {
    method: 'PUT',
    path: '/:collection',
    access: ANY_TOKEN,
    tag: 'Models',
    summary: 'Updates several models of the collection (each item names its id).',
    params: collectionParams,
    body: batchRequestSchema,
    response: batchAnswerSchema,
  },
  {
    method: 'DELETE',
    path: '/:collection',
    access: ANY_TOKEN,
    tag: 'Models',
    summary: 'Deletes several models of the collection (each item names its id).',
    params: collectionParams,
    body: batchRequestSchema,
    response: batchAnswerSchema,
  },
  {
    method: 'PUT',
    path: '/:collection/:id',
    access: ANY_TOKEN,
    tag: 'Models',
    summary:
      "Updates a model's attributes; the type's edit permission and the asset's access apply.",
    params: modelParams,
    body: modelBody,
  },
  {
    method: 'DELETE',
    path: '/:collection/:id',
    access: ANY_TOKEN,
    tag: 'Models',
    summary: 'Deletes a model and everything under it.',
    params: modelParams,
    body: modelBody,
  },

  // --- This reference ------------------------------------------------------------------------
  {
    method: 'GET',
    path: '/openapi.json',
    access: PUBLIC,
    tag: 'Reference',
    summary: 'This API reference as an OpenAPI 3.1 document.',
  },
];

const byKey: ReadonlyMap<string, ApiRoute> = new Map(
  API_ROUTES.map((r) => [`${r.method} ${r.path}`, r]),
);

/** The catalog entry of a route, by method and Hono pattern (undefined: not in the catalog). */
export function apiRoute(method: string, path: string): ApiRoute | undefined {
  return byKey.get(`${method.toUpperCase()} ${path}`);
}

/** Whether a scoped token with these scopes may call a route with this access. */
export function scopedTokenMayCall(access: RouteAccess, scopes: readonly string[]): boolean {
  switch (access.kind) {
    case 'public':
    case 'any':
      return true;
    case 'first-party':
      return false;
    case 'scopes':
      return access.scopes.some(
        (scope) =>
          scopes.includes(scope) ||
          (scope.endsWith(':read') && scopes.includes(scope.replace(/:read$/, ':write'))),
      );
  }
}
