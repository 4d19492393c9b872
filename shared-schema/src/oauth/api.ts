import { z } from 'zod';
import { deferred } from '../deferred';
import { SCOPE_IDS, type ScopeId } from './scopes';

/**
 * The developer area's calls (spec 000 §7), in the JSON shapes of Laravel Passport's JSON API,
 * which the spec mirrors: a client written against Passport's documentation works unchanged.
 * Our additions (a token's role and expiry, a client's role for client credentials) are optional
 * fields a Passport client never sends and may ignore in the answers.
 */

/** The longest a personal access token may live, and what it gets when no expiry is given. */
export const PERSONAL_TOKEN_MAX_DAYS = 365;
/** An authorization code is single-use and lives this long (RFC 6749 §4.1.2 suggests 10 min). */
export const AUTH_CODE_TTL_S = 600;
/** Access tokens of third-party applications, and the refresh tokens that renew them. */
export const APP_ACCESS_TOKEN_TTL_S = 3600;
export const REFRESH_TOKEN_TTL_S = 30 * 24 * 3600;

export const OAUTH_TEXTS = {
  nameRequired: 'The name field is required.',
  nameTooLong: 'The name may not be greater than 191 characters.',
  unknownScope: 'The scopes contain a scope that does not exist.',
  redirectRequired: 'The redirect field is required.',
  redirectInvalid:
    'The redirect must be an absolute https address (http only on this computer: 127.0.0.1, [::1] or localhost) without a fragment.',
  expiryInvalid: 'The expiry must be a date in the coming year.',
  roleInvalid: 'The role must be one of your roles.',
  publicHasNoSecret: 'A public client has no secret.',
} as const;

const nameField = /* @__PURE__ */ deferred(() =>
  z
    .string({ error: OAUTH_TEXTS.nameRequired })
    .trim()
    .min(1, OAUTH_TEXTS.nameRequired)
    .max(191, OAUTH_TEXTS.nameTooLong),
);

export const scopeListField = /* @__PURE__ */ deferred(() =>
  z
    .array(z.string().max(64), { error: OAUTH_TEXTS.unknownScope })
    .max(SCOPE_IDS.length, OAUTH_TEXTS.unknownScope)
    .refine((list) => list.every((s) => (SCOPE_IDS as readonly string[]).includes(s)), {
      message: OAUTH_TEXTS.unknownScope,
    })
    .transform((list) => [...new Set(list)] as ScopeId[]),
);

/** Loopback hosts, where http is allowed for redirects (RFC 8252 §7.3 native and dev apps). */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** A client's redirect address: absolute, https (http on loopback), no fragment (RFC 6749 §3.1.2). */
export function redirectProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return OAUTH_TEXTS.redirectInvalid;
  }
  if (url.hash !== '' || value.includes('#')) return OAUTH_TEXTS.redirectInvalid;
  if (url.username !== '' || url.password !== '') return OAUTH_TEXTS.redirectInvalid;
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return undefined;
  return OAUTH_TEXTS.redirectInvalid;
}

const redirectField = /* @__PURE__ */ deferred(() =>
  z
    .string({ error: OAUTH_TEXTS.redirectRequired })
    .trim()
    .min(1, OAUTH_TEXTS.redirectRequired)
    .max(2000, OAUTH_TEXTS.redirectInvalid)
    .superRefine((value, ctx) => {
      const problem = redirectProblem(value);
      if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
    }),
);

const idField = /* @__PURE__ */ deferred(() => z.string().min(1).max(64));

// --- Personal access tokens ---------------------------------------------------------------

/** POST oauth/personal-access-tokens. Passport sends `{ name, scopes }`; the rest is ours. */
export const personalTokenCreateSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    name: nameField,
    scopes: scopeListField.default([]),
    /** A role of the user's active account; the user's active role when not given. */
    role_id: idField.optional(),
    /** ISO date-time, at most a year ahead; a year when not given. */
    expires_at: z.iso.datetime({ offset: true, error: OAUTH_TEXTS.expiryInvalid }).optional(),
  }),
);
export type PersonalTokenCreate = z.input<typeof personalTokenCreateSchema>;

/** A client as Passport shows it (the secret never, except once at creation). */
export const oauthClientViewSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    id: z.string(),
    user_id: z.string().nullable(),
    name: z.string(),
    redirect: z.string(),
    personal_access_client: z.boolean(),
    password_client: z.boolean(),
    revoked: z.boolean(),
    created_at: z.string(),
    updated_at: z.string(),
    /** Ours: public clients (confidential false) have no secret and must use PKCE. */
    confidential: z.boolean(),
    /** Ours: the role a client-credentials token acts with (null: no client credentials). */
    role_id: z.string().nullable(),
    /**
     * Ours: a confidential client whose secret was ended (its owner's password was reset): it
     * mints no token until the owner makes it a new secret (POST oauth/clients/{id}/secret).
     */
    needs_new_secret: z.boolean(),
  }),
);
export type OAuthClientView = z.infer<typeof oauthClientViewSchema>;

/** A token as Passport's Token model serialises (`scopes` a list of scope ids). */
export const accessTokenViewSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    id: z.string(),
    user_id: z.string().nullable(),
    client_id: z.string(),
    name: z.string().nullable(),
    scopes: z.array(z.string()),
    revoked: z.boolean(),
    created_at: z.string(),
    updated_at: z.string(),
    expires_at: z.string(),
    /** Ours: the role the token acts with. */
    role_id: z.string().nullable(),
  }),
);
export type AccessTokenView = z.infer<typeof accessTokenViewSchema>;

/** GET oauth/personal-access-tokens and GET oauth/tokens: tokens with their client. */
export const tokenWithClientSchema = /* @__PURE__ */ deferred(() =>
  accessTokenViewSchema.extend({
    client: oauthClientViewSchema,
  }),
);
export type TokenWithClient = z.infer<typeof tokenWithClientSchema>;

/** POST oauth/personal-access-tokens answer: the token, shown this once, and its record. */
export const personalTokenCreatedSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    accessToken: z.string(),
    token: accessTokenViewSchema,
  }),
);
export type PersonalTokenCreated = z.infer<typeof personalTokenCreatedSchema>;

/** GET oauth/scopes. */
export const scopeViewSchema = /* @__PURE__ */ deferred(() =>
  z.object({ id: z.string(), description: z.string() }),
);
export type ScopeView = z.infer<typeof scopeViewSchema>;

// --- Clients --------------------------------------------------------------------------------

/** POST oauth/clients. */
export const clientCreateSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    name: nameField,
    redirect: redirectField,
    confidential: z
      .boolean({ error: 'The confidential field must be true or false.' })
      .default(true),
    /** Ours: a role of the active account, for the client-credentials grant (confidential only). */
    role_id: idField.optional(),
  }),
);
export type ClientCreate = z.input<typeof clientCreateSchema>;

/** PUT oauth/clients/{id}. */
export const clientUpdateSchema = /* @__PURE__ */ deferred(() =>
  z.object({ name: nameField, redirect: redirectField }),
);
export type ClientUpdate = z.input<typeof clientUpdateSchema>;

/** POST oauth/clients answer: the client with its secret in plain text, this once (null: public). */
export const clientCreatedSchema = /* @__PURE__ */ deferred(() =>
  oauthClientViewSchema.extend({
    secret: z.string().nullable(),
    plainSecret: z.string().nullable(),
  }),
);
export type ClientCreated = z.infer<typeof clientCreatedSchema>;

// --- Authorization (the consent screen's calls) -----------------------------------------------

/** The query of /oauth/authorize (RFC 6749 §4.1.1 with RFC 7636's PKCE). */
export const authorizeQuerySchema = /* @__PURE__ */ deferred(() =>
  z.object({
    response_type: z.string().max(32),
    client_id: z.string().max(64),
    redirect_uri: z.string().max(2000).optional(),
    scope: z.string().max(1000).optional(),
    state: z.string().max(1000).optional(),
    code_challenge: z.string().max(128).optional(),
    code_challenge_method: z.string().max(16).optional(),
  }),
);
export type AuthorizeQuery = z.infer<typeof authorizeQuerySchema>;

/** GET oauth/authorize: what the consent screen shows. */
export const authorizePreviewSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    client: z.object({ id: z.string(), name: z.string() }),
    scopes: z.array(scopeViewSchema),
    /** The role the application will act with: the user's active role. */
    role: z.object({ id: z.string(), name: z.string() }),
    redirect_uri: z.string(),
  }),
);
export type AuthorizePreview = z.infer<typeof authorizePreviewSchema>;

/** POST oauth/authorize: the user's answer, with the request it answers. */
export const authorizeDecisionSchema = /* @__PURE__ */ deferred(() =>
  authorizeQuerySchema.extend({ approve: z.boolean() }),
);
export type AuthorizeDecision = z.infer<typeof authorizeDecisionSchema>;

/** Where the browser goes next: the client's redirect with `code` or `error`, and `state`. */
export const authorizeAnswerSchema = /* @__PURE__ */ deferred(() =>
  z.object({ redirect: z.string() }),
);
export type AuthorizeAnswer = z.infer<typeof authorizeAnswerSchema>;

// --- The token endpoint's other grants ------------------------------------------------------

export const authorizationCodeGrantSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    grant_type: z.literal('authorization_code'),
    client_id: z.string().min(1).max(64),
    client_secret: z.string().max(256).optional(),
    code: z.string().min(1).max(256),
    redirect_uri: z.string().max(2000).optional(),
    code_verifier: z.string().max(256).optional(),
  }),
);

export const refreshTokenGrantSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    grant_type: z.literal('refresh_token'),
    client_id: z.string().min(1).max(64),
    client_secret: z.string().max(256).optional(),
    refresh_token: z.string().min(1).max(256),
    scope: z.string().max(1000).optional(),
  }),
);

export const clientCredentialsGrantSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    grant_type: z.literal('client_credentials'),
    client_id: z.string().min(1).max(64),
    client_secret: z.string().max(256).optional(),
    scope: z.string().max(1000).optional(),
  }),
);

/** An answer of the token endpoint that may carry a refresh token. */
export const grantedTokenSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    token_type: z.literal('Bearer'),
    expires_in: z.number().int().positive(),
    access_token: z.string(),
    refresh_token: z.string().optional(),
    scope: z.string().optional(),
  }),
);
export type GrantedToken = z.infer<typeof grantedTokenSchema>;
