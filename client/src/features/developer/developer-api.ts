import { z } from 'zod';
import {
  deferred,
  apiPaths,
  authorizeAnswerSchema,
  authorizePreviewSchema,
  clientCreatedSchema,
  currentUserSchema,
  oauthClientViewSchema,
  personalTokenCreatedSchema,
  scopeViewSchema,
  tokenWithClientSchema,
  type AuthorizeDecision,
  type ClientCreate,
  type ClientUpdate,
  type PersonalTokenCreate,
} from '@plant/shared-schema';
import { callApi } from '../../session/api';

/*
 * The developer area's calls (spec 000 §7). They answer in Laravel Passport's shapes, without
 * the app's `{ data }` envelope, and they are not synced models: every screen here needs the
 * network. Calls are quiet: each screen shows its own failures (spec 000 §5).
 */

const plain = { envelope: false, quiet: true } as const;
/** A delete answers 204 without a body: the worker's `null`. */
const noContent = /* @__PURE__ */ deferred(() => z.null());

export const developerApi = {
  /** The signed-in user as the server knows it now (its active roles name a token's role). */
  currentUser: () => callApi('GET', apiPaths.user(), currentUserSchema, { quiet: true }),
  scopes: () => callApi('GET', apiPaths.oauthScopes(), z.array(scopeViewSchema), plain),
  personalTokens: () =>
    callApi('GET', apiPaths.personalAccessTokens(), z.array(tokenWithClientSchema), plain),
  createPersonalToken: (body: PersonalTokenCreate) =>
    callApi('POST', apiPaths.personalAccessTokens(), personalTokenCreatedSchema, {
      ...plain,
      body,
    }),
  revokePersonalToken: (id: string) =>
    callApi('DELETE', apiPaths.personalAccessToken(id), noContent, plain),
  clients: () => callApi('GET', apiPaths.oauthClients(), z.array(oauthClientViewSchema), plain),
  createClient: (body: ClientCreate) =>
    callApi('POST', apiPaths.oauthClients(), clientCreatedSchema, { ...plain, body }),
  updateClient: (id: string, body: ClientUpdate) =>
    callApi('PUT', apiPaths.oauthClient(id), oauthClientViewSchema, { ...plain, body }),
  deleteClient: (id: string) => callApi('DELETE', apiPaths.oauthClient(id), noContent, plain),
  /** A new secret for a confidential client (shown once); the old one stops working. */
  newClientSecret: (id: string) =>
    callApi('POST', apiPaths.oauthClientSecret(id), clientCreatedSchema, plain),
  appTokens: () => callApi('GET', apiPaths.oauthTokens(), z.array(tokenWithClientSchema), plain),
  revokeAppToken: (id: string) => callApi('DELETE', apiPaths.oauthToken(id), noContent, plain),
  authorizePreview: (query: string) =>
    callApi('GET', apiPaths.oauthAuthorize(query), authorizePreviewSchema, plain),
  authorizeDecision: (body: AuthorizeDecision) =>
    callApi('POST', apiPaths.oauthAuthorize(), authorizeAnswerSchema, { ...plain, body }),
};
