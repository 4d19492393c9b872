import { z } from 'zod';
import { deferred } from '../../deferred';
import { idField } from '../../api/fields';
import { accountTreeSchema } from '../../api/account-tree';
import { notificationTriggerSchema } from '../../api/alarms';
import {
  passwordForgotRequestSchema,
  passwordResetAnswerSchema,
  passwordResetRequestSchema,
} from '../../api/password-reset';
import { pushSubscriptionSchema } from '../../api/push-subscription';
import { registerRequestSchema } from '../../api/register';
import { requestFailedSchema } from '../../api/request-failed';
import { pushKeySchema, pushUnsubscribeSchema } from '../../api/subscriptions';
import { tokenRequestSchema, tokenResponseSchema } from '../../api/token-request';
import {
  accountViewSchema,
  currentUserSchema,
  setActiveAccountResponseSchema,
  userPublicSchema,
} from '../../api/user';
import {
  brokerCredentialsSchema,
  graphAnswerSchema,
  mqttlogsAnswerSchema,
  snapshotPageSchema,
} from '../../protocol/sync-reads';
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
} from '../api';
import { ANY_TOKEN, FIRST_PARTY, PUBLIC, needs, type ApiRoute } from '../route-access';
import { idParams, data, signedInSchema } from './shared';

// Parameters and queries that the routes check with schemas of their own (server/src/routes),
// here as a caller sends them.
const setActiveParams = /* @__PURE__ */ deferred(() =>
  z.object({ id: idField, accountid: idField }),
);
const graphParams = /* @__PURE__ */ deferred(() =>
  z.object({ type: z.string().max(64), id: z.string().max(64) }),
);
const browserQuery = /* @__PURE__ */ deferred(() =>
  z.object({ browser_id: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/) }),
);
const styleQuery = /* @__PURE__ */ deferred(() => z.object({ account: idField.optional() }));
const mqttlogsQuery = /* @__PURE__ */ deferred(() =>
  z.object({ from: z.string().regex(/^\d{1,15}$/) }),
);
const snapshotQuery = /* @__PURE__ */ deferred(() =>
  z.object({
    cursor: z.string().max(500).optional(),
    limit: z
      .string()
      .regex(/^\d{1,15}$/)
      .optional(),
    first_type: z.string().min(1).max(64).optional(),
    first_parent: z.string().max(300).optional(),
  }),
);

/** Sign-in, OAuth, the signed-in user, web push and the sync reads. */
export const SESSION_ROUTES: readonly ApiRoute[] = [
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
    summary:
      "Sets a new password with the mailed link's token; revokes the user's tokens and the secrets of its client-credentials clients (named in the answer).",
    body: passwordResetRequestSchema,
    response: passwordResetAnswerSchema,
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
    method: 'POST',
    path: '/oauth/clients/:id/secret',
    access: FIRST_PARTY,
    tag: 'OAuth',
    summary: 'A new secret for a confidential client, shown this once; the old one stops working.',
    params: idParams,
    response: clientCreatedSchema,
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
];
