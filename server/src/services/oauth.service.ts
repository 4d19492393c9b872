import { createHash } from 'node:crypto';
import {
  APP_ACCESS_TOKEN_TTL_S,
  AUTH_CODE_TTL_S,
  isScopeId,
  mayUseApp,
  OAUTH_TEXTS,
  PERSONAL_TOKEN_MAX_DAYS,
  REFRESH_TOKEN_TTL_S,
  SCOPES,
  uuidv7,
  type AccessTokenView,
  type AuthorizeDecision,
  type AuthorizePreview,
  type AuthorizeQuery,
  type ClientCreated,
  type GrantedToken,
  type OAuthClientView,
  type PersonalTokenCreated,
  type ScopeId,
  type ScopeView,
  type TokenWithClient,
  type authorizationCodeGrantSchema,
  type clientCreateSchema,
  type clientCredentialsGrantSchema,
  type clientUpdateSchema,
  type personalTokenCreateSchema,
  type refreshTokenGrantSchema,
} from '@plant/shared-schema';
import type { z } from 'zod';
import { lockInTransaction, type Db } from '../db/database';
import { isoAt, type Clock } from '../lib/clock';
import { newToken, sha256 } from '../lib/secrets';
import { OAuthRepository, type ClientRow, type TokenRow } from '../repositories/oauth.repository';
import { TokenRepository } from '../repositories/token.repository';
import { OAuthError, parseScopes, secretMatches } from './auth.service';
import { invalidInput, notFound } from './domain-error';
import type { Session } from './user.service';
import type { RoleRow } from '../repositories/user.repository';

const DAY_MS = 24 * 3600_000;
/** A date picked as "a year from today" may land a day past 365 days from this moment. */
const EXPIRY_SLACK_MS = DAY_MS;
/** RFC 7636 §4.1: 43 to 128 unreserved characters; the S256 challenge is 43 base64url ones. */
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;
const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

const invalidClient = () => new OAuthError(401, 'invalid_client', 'Client authentication failed');
const invalidGrant = (message: string) => new OAuthError(400, 'invalid_grant', message);

/**
 * The developer area (issue 18, spec 000 §7 in Laravel Passport's shapes): personal access
 * tokens, OAuth clients, the applications a user authorized, the consent screen's calls and the
 * token endpoint's grants for third parties (authorization code with PKCE, rotating refresh
 * tokens with reuse detection, client credentials). Every token made here is scoped: it acts with
 * one role of its user, narrowed by its scopes (UserService.session).
 */
export class OAuthService {
  private readonly repo: OAuthRepository;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly personalClientId: string,
  ) {
    this.repo = new OAuthRepository(db);
  }

  /**
   * Work on one grant (a code's exchange, a family's rotation or revocation) in a transaction,
   * alone: on Postgres under an advisory lock named by the grant, so that of two uses at once the
   * second sees the first's outcome, tokens included (SQLite runs one writer at a time anyway).
   * The work answers its refusal rather than throwing it, so that what it revoked stays revoked.
   */
  private async alone<T>(
    grant: string,
    work: (repo: OAuthRepository) => Promise<T | OAuthError>,
  ): Promise<T> {
    const outcome = await this.db.transaction().execute(async (trx) => {
      await lockInTransaction(trx, `oauth-grant:${grant}`);
      return work(new OAuthRepository(trx));
    });
    if (outcome instanceof OAuthError) throw outcome;
    return outcome;
  }

  scopes(): ScopeView[] {
    return SCOPES.map((s) => ({ id: s.id, description: s.description }));
  }

  // --- Personal access tokens ---------------------------------------------------------------

  async personalTokens(session: Session): Promise<TokenWithClient[]> {
    const rows = await this.repo.liveTokensOf(
      session.user.id,
      this.personalClientId,
      this.nowIso(),
    );
    const client = await this.repo.client(this.personalClientId);
    if (client === undefined) return [];
    return rows.map((row) => ({ ...tokenView(row), client: clientView(client) }));
  }

  async createPersonalToken(
    session: Session,
    req: z.output<typeof personalTokenCreateSchema>,
  ): Promise<PersonalTokenCreated> {
    const role = this.tokenRole(session, req.role_id);
    const now = this.clock.now();
    let expiresAt = now + PERSONAL_TOKEN_MAX_DAYS * DAY_MS;
    if (req.expires_at !== undefined) {
      const asked = Date.parse(req.expires_at);
      if (!(asked > now) || asked > expiresAt + EXPIRY_SLACK_MS) {
        throw invalidInput({ expires_at: [OAUTH_TEXTS.expiryInvalid] });
      }
      expiresAt = asked;
    }
    const token = newToken();
    const row: TokenRow = {
      id: uuidv7(now),
      user_id: session.user.id,
      client_id: this.personalClientId,
      token_hash: sha256(token),
      name: req.name,
      scopes: JSON.stringify(req.scopes),
      created_at: isoAt(now),
      updated_at: isoAt(now),
      expires_at: isoAt(expiresAt),
      revoked_at: null,
      role_id: role.id,
      scoped: 1,
      family_id: null,
    };
    await this.repo.insertToken(row);
    return { accessToken: token, token: tokenView(row) };
  }

  async revokePersonalToken(session: Session, id: string): Promise<void> {
    const row = await this.repo.ownToken(session.user.id, id);
    if (row?.client_id !== this.personalClientId) throw notFound('Token');
    await this.repo.revokeToken(row.id, this.nowIso());
  }

  // --- Clients ----------------------------------------------------------------------------------

  async clients(session: Session): Promise<OAuthClientView[]> {
    return (await this.repo.clientsOf(session.user.id)).map(clientView);
  }

  async createClient(
    session: Session,
    req: z.output<typeof clientCreateSchema>,
  ): Promise<ClientCreated> {
    let roleId: string | null = null;
    if (req.role_id !== undefined) {
      // Client credentials act without a user present: only a client that keeps a secret.
      if (!req.confidential) {
        throw invalidInput({ role_id: ['Only a confidential client can act with a role.'] });
      }
      roleId = this.tokenRole(session, req.role_id).id;
    }
    const secret = req.confidential ? newToken() : null;
    const at = this.nowIso();
    const row: ClientRow = {
      id: uuidv7(this.clock.now()),
      name: req.name,
      secret_hash: secret === null ? null : sha256(secret),
      redirect: req.redirect,
      first_party: 0,
      password_client: 0,
      revoked: 0,
      created_at: at,
      user_id: session.user.id,
      confidential: req.confidential ? 1 : 0,
      personal_access: 0,
      role_id: roleId,
      updated_at: at,
    };
    await this.repo.insertClient(row);
    return { ...clientView(row), secret, plainSecret: secret };
  }

  async updateClient(
    session: Session,
    id: string,
    req: z.output<typeof clientUpdateSchema>,
  ): Promise<OAuthClientView> {
    const row = await this.repo.ownClient(session.user.id, id);
    if (row === undefined) throw notFound('Client');
    const at = this.nowIso();
    await this.repo.updateClient(id, req.name, req.redirect, at);
    return clientView({ ...row, name: req.name, redirect: req.redirect, updated_at: at });
  }

  /**
   * A new secret for one of the user's confidential clients, shown this once: after a password
   * reset ended its secret, or to rotate one. The old secret stops working.
   */
  async newClientSecret(session: Session, id: string): Promise<ClientCreated> {
    const row = await this.repo.ownClient(session.user.id, id);
    if (row === undefined) throw notFound('Client');
    if (row.confidential !== 1) throw invalidInput({ id: [OAUTH_TEXTS.publicHasNoSecret] });
    const secret = newToken();
    const at = this.nowIso();
    await this.repo.setSecret(id, sha256(secret), at);
    return {
      ...clientView({ ...row, secret_hash: sha256(secret), updated_at: at }),
      secret,
      plainSecret: secret,
    };
  }

  async deleteClient(session: Session, id: string): Promise<void> {
    const row = await this.repo.ownClient(session.user.id, id);
    if (row === undefined) throw notFound('Client');
    await this.repo.revokeClient(id, this.nowIso());
  }

  // --- Authorized applications -------------------------------------------------------------------

  async applicationTokens(session: Session): Promise<TokenWithClient[]> {
    const rows = await this.repo.applicationTokensOf(session.user.id, this.nowIso());
    const clients = new Map<string, ClientRow>();
    const answer: TokenWithClient[] = [];
    for (const row of rows) {
      let client = clients.get(row.client_id);
      if (client === undefined) {
        client = await this.repo.client(row.client_id);
        if (client === undefined) continue;
        clients.set(client.id, client);
      }
      answer.push({ ...tokenView(row), client: clientView(client) });
    }
    return answer;
  }

  /** Revokes an application's access: its token and every token of the grant's family. */
  async revokeApplicationToken(session: Session, id: string): Promise<void> {
    const row = await this.repo.ownToken(session.user.id, id);
    const familyId = row?.family_id ?? null;
    if (familyId === null) throw notFound('Token');
    await this.alone(`family:${familyId}`, (repo) => repo.revokeFamily(familyId, this.nowIso()));
  }

  // --- The consent screen ----------------------------------------------------------------------

  async authorizePreview(session: Session, query: AuthorizeQuery): Promise<AuthorizePreview> {
    const request = await this.authorizationRequest(session, query);
    return {
      client: { id: request.client.id, name: request.client.name },
      scopes: SCOPES.filter((s) => request.scopes.includes(s.id)).map((s) => ({
        id: s.id,
        description: s.description,
      })),
      role: { id: request.role.id, name: request.role.name },
      redirect_uri: request.redirect,
    };
  }

  /** The user's answer: the client's redirect with a single-use code, or with access_denied. */
  async authorizeDecide(session: Session, decision: AuthorizeDecision): Promise<string> {
    const request = await this.authorizationRequest(session, decision);
    const target = new URL(request.redirect);
    if (!decision.approve) {
      target.searchParams.set('error', 'access_denied');
      target.searchParams.set('error_description', 'The user denied the request.');
    } else {
      const code = newToken();
      const now = this.clock.now();
      await this.repo.insertAuthCode({
        id: uuidv7(now),
        code_hash: sha256(code),
        client_id: request.client.id,
        user_id: session.user.id,
        role_id: request.role.id,
        scopes: JSON.stringify(request.scopes),
        redirect_uri: request.redirect,
        redirect_sent: request.redirectSent ? 1 : 0,
        code_challenge: request.challenge,
        created_at: isoAt(now),
        expires_at: isoAt(now + AUTH_CODE_TTL_S * 1000),
        used_at: null,
        family_id: null,
      });
      target.searchParams.set('code', code);
    }
    if (decision.state !== undefined) target.searchParams.set('state', decision.state);
    return target.toString();
  }

  /**
   * An authorization request checked (RFC 6749 §4.1.1, RFC 7636, RFC 9700): a third-party client
   * that is not revoked, the redirect it registered exactly, response type code, known scopes,
   * PKCE with S256 (required of public clients), and an active role to act with. Any failure is
   * answered to the consent screen, never by redirecting to an address not checked yet.
   */
  private async authorizationRequest(session: Session, query: AuthorizeQuery) {
    const client = thirdParty(await this.repo.client(query.client_id));
    const redirect = query.redirect_uri ?? client.redirect;
    if (!sameRedirect(client.redirect, redirect)) {
      throw new OAuthError(
        400,
        'invalid_request',
        'The redirect address is not the one registered for this client.',
      );
    }
    if (query.response_type !== 'code') {
      throw new OAuthError(
        400,
        'unsupported_response_type',
        'The authorization server only supports the response type code.',
      );
    }
    const scopes = requestedScopes(query.scope);
    const challenge = query.code_challenge ?? null;
    if (challenge === null && client.confidential !== 1) {
      throw new OAuthError(
        400,
        'invalid_request',
        'A public client must send a PKCE code challenge (S256).',
      );
    }
    if (
      challenge !== null &&
      (query.code_challenge_method !== 'S256' || !CHALLENGE.test(challenge))
    ) {
      throw new OAuthError(
        400,
        'invalid_request',
        'The code challenge must be an S256 challenge (code_challenge_method=S256).',
      );
    }
    const role = session.activeRoles.find((r) => mayUseApp([r.slug]));
    if (role === undefined) {
      throw new OAuthError(403, 'access_denied', 'You have no role in the active account.');
    }
    return {
      client,
      redirect,
      redirectSent: query.redirect_uri !== undefined,
      scopes,
      challenge,
      role,
    };
  }

  // --- The token endpoint's grants ---------------------------------------------------------------

  /** grant_type=authorization_code: a single-use code, its PKCE verifier, its exact redirect. */
  async authorizationCodeGrant(
    req: z.output<typeof authorizationCodeGrantSchema>,
  ): Promise<GrantedToken> {
    const client = await this.authenticateClient(req.client_id, req.client_secret);
    const codeHash = sha256(req.code);
    const found = await this.repo.authCode(codeHash);
    if (found === undefined || found.client_id !== client.id) {
      throw invalidGrant('The authorization code is invalid.');
    }
    return this.alone(`code:${found.id}`, async (repo) => {
      const code = await repo.authCode(codeHash);
      const now = this.clock.now();
      if (code === undefined) return invalidGrant('The authorization code is invalid.');
      if (code.used_at !== null) {
        // Used twice: it was intercepted, and what it gave the first time is revoked (RFC 6749
        // §4.1.2, RFC 9700 §4.5).
        if (code.family_id !== null) await repo.revokeFamily(code.family_id, isoAt(now));
        return invalidGrant('The authorization code has already been used.');
      }
      if (Date.parse(code.expires_at) <= now) {
        return invalidGrant('The authorization code has expired.');
      }
      const redirectNamed = req.redirect_uri !== undefined;
      if ((code.redirect_sent === 1 || redirectNamed) && req.redirect_uri !== code.redirect_uri) {
        return invalidGrant('The redirect address does not match the authorization request.');
      }
      if (code.code_challenge === null) {
        // A verifier for a code issued without a challenge: a downgrade (RFC 9700 §4.8.2).
        if (req.code_verifier !== undefined) {
          return invalidGrant('This authorization code was issued without a code challenge.');
        }
      } else {
        const verifier = req.code_verifier ?? '';
        if (!VERIFIER.test(verifier) || s256(verifier) !== code.code_challenge) {
          return invalidGrant('The code verifier does not match the code challenge.');
        }
      }
      const familyId = uuidv7(now);
      if (!(await repo.useAuthCode(code.id, familyId, isoAt(now)))) {
        return invalidGrant('The authorization code has already been used.');
      }
      return this.issueAppTokens(repo, {
        userId: code.user_id,
        clientId: client.id,
        roleId: code.role_id,
        scopes: parseScopes(code.scopes),
        familyId,
      });
    });
  }

  /**
   * grant_type=refresh_token: each refresh token works once and is replaced (rotation); one used
   * a second time means it leaked, so the whole family (every access and refresh token of the
   * grant) is revoked (RFC 9700 §4.14.2).
   */
  async refreshTokenGrant(req: z.output<typeof refreshTokenGrantSchema>): Promise<GrantedToken> {
    const client = await this.authenticateClient(req.client_id, req.client_secret);
    const tokenHash = sha256(req.refresh_token);
    const found = await this.repo.refreshToken(tokenHash);
    if (found === undefined || found.client_id !== client.id) {
      throw invalidGrant('The refresh token is invalid.');
    }
    return this.alone(`family:${found.family_id}`, async (repo) => {
      const row = await repo.refreshToken(tokenHash);
      const now = this.clock.now();
      if (row === undefined) return invalidGrant('The refresh token is invalid.');
      // Used before, revoked, or its access token revoked (the user signed the application out,
      // reset the password, deleted the client): the family ends here.
      if (row.used_at !== null || row.revoked_at !== null || row.access_revoked_at !== null) {
        await repo.revokeFamily(row.family_id, isoAt(now));
        return invalidGrant('The refresh token is invalid.');
      }
      if (Date.parse(row.expires_at) <= now) return invalidGrant('The refresh token has expired.');
      if ((await repo.client(client.id))?.revoked !== 0) return invalidClient();
      const granted = parseScopes(row.scopes);
      let asked: string[] = granted;
      if (req.scope !== undefined) {
        const parsed = parseScopeParameter(req.scope);
        if (parsed === undefined || parsed.some((s) => !granted.includes(s))) {
          return new OAuthError(
            400,
            'invalid_scope',
            'The requested scope exceeds the granted one.',
          );
        }
        asked = parsed;
      }
      if (row.role_id === null || !(await repo.useRefresh(row.id, isoAt(now)))) {
        await repo.revokeFamily(row.family_id, isoAt(now));
        return invalidGrant('The refresh token is invalid.');
      }
      await repo.revokeToken(row.access_token_id, isoAt(now));
      return this.issueAppTokens(repo, {
        userId: row.user_id,
        clientId: client.id,
        roleId: row.role_id,
        scopes: asked,
        familyId: row.family_id,
      });
    });
  }

  /** grant_type=client_credentials: a confidential client bound to a role, acting as its owner. */
  async clientCredentialsGrant(
    req: z.output<typeof clientCredentialsGrantSchema>,
  ): Promise<GrantedToken> {
    const client = await this.authenticateClient(req.client_id, req.client_secret);
    if (client.confidential !== 1 || client.role_id === null || client.user_id === null) {
      throw new OAuthError(
        400,
        'unauthorized_client',
        'This client is not allowed to use the client credentials grant.',
      );
    }
    const scopes = requestedScopes(req.scope);
    const token = newToken();
    const now = this.clock.now();
    await this.repo.insertToken({
      id: uuidv7(now),
      user_id: client.user_id,
      client_id: client.id,
      token_hash: sha256(token),
      name: null,
      scopes: JSON.stringify(scopes),
      created_at: isoAt(now),
      updated_at: isoAt(now),
      expires_at: isoAt(now + APP_ACCESS_TOKEN_TTL_S * 1000),
      role_id: client.role_id,
      scoped: 1,
    });
    return {
      token_type: 'Bearer',
      expires_in: APP_ACCESS_TOKEN_TTL_S,
      access_token: token,
      scope: scopes.join(' '),
    };
  }

  private async issueAppTokens(
    repo: OAuthRepository,
    grant: {
      userId: string;
      clientId: string;
      roleId: string;
      scopes: readonly string[];
      familyId: string;
    },
  ): Promise<GrantedToken> {
    const access = newToken();
    const refresh = newToken();
    const now = this.clock.now();
    const tokenId = uuidv7(now);
    await repo.insertToken({
      id: tokenId,
      user_id: grant.userId,
      client_id: grant.clientId,
      token_hash: sha256(access),
      name: null,
      scopes: JSON.stringify(grant.scopes),
      created_at: isoAt(now),
      updated_at: isoAt(now),
      expires_at: isoAt(now + APP_ACCESS_TOKEN_TTL_S * 1000),
      role_id: grant.roleId,
      scoped: 1,
      family_id: grant.familyId,
    });
    await repo.insertRefresh({
      id: uuidv7(now),
      access_token_id: tokenId,
      family_id: grant.familyId,
      token_hash: sha256(refresh),
      created_at: isoAt(now),
      expires_at: isoAt(now + REFRESH_TOKEN_TTL_S * 1000),
    });
    return {
      token_type: 'Bearer',
      expires_in: APP_ACCESS_TOKEN_TTL_S,
      access_token: access,
      refresh_token: refresh,
      scope: grant.scopes.join(' '),
    };
  }

  /** A third-party client by id and, if confidential, its secret. */
  private async authenticateClient(id: string, secret: string | undefined): Promise<ClientRow> {
    const client = thirdParty(await this.repo.client(id));
    if (client.confidential === 1) {
      // A confidential client without a secret had it ended (its owner's password was reset):
      // it authenticates with nothing until it gets a new one. secretMatches lets a missing hash
      // through (the platform's own public client), so that case is refused here first.
      if (client.secret_hash === null) throw invalidClient();
      if (secret === undefined || !secretMatches(secret, client.secret_hash)) throw invalidClient();
    }
    return client;
  }

  /** A role of the user's to act with: the one asked for, else the first of the active account. */
  private tokenRole(session: Session, roleId: string | undefined): RoleRow {
    const role =
      roleId === undefined
        ? session.activeRoles.find((r) => mayUseApp([r.slug]))
        : session.roles.find((r) => r.id === roleId);
    if (role === undefined || !mayUseApp([role.slug])) {
      throw invalidInput({ role_id: [OAUTH_TEXTS.roleInvalid] });
    }
    return role;
  }

  private nowIso(): string {
    return isoAt(this.clock.now());
  }
}

/**
 * A third-party client that is not revoked. The platform's own clients (the web app's password
 * client, the personal access client) are no third parties: no consent, no code, no grant.
 */
function thirdParty(client: ClientRow | undefined): ClientRow {
  if (
    client === undefined ||
    client.revoked === 1 ||
    client.first_party === 1 ||
    client.personal_access === 1
  ) {
    throw invalidClient();
  }
  return client;
}

/** The space-separated scope parameter (RFC 6749 §3.3), each once; undefined if one is unknown. */
function parseScopeParameter(scope: string | undefined): ScopeId[] | undefined {
  const list = (scope ?? '').split(' ').filter((s) => s !== '');
  return list.every(isScopeId) ? [...new Set(list)] : undefined;
}

/** The scope parameter, every scope known: else invalid_scope. */
function requestedScopes(scope: string | undefined): ScopeId[] {
  const list = parseScopeParameter(scope);
  if (list === undefined) {
    throw new OAuthError(
      400,
      'invalid_scope',
      'The requested scope is invalid, unknown, or malformed.',
    );
  }
  return list;
}

const LOOPBACK = new Set(['127.0.0.1', '[::1]']);

/**
 * The redirect of a request against the client's: the same address exactly; on a loopback IP
 * with http, any port (RFC 8252 §7.3: a native app listens on the port it gets).
 */
function sameRedirect(registered: string, given: string): boolean {
  if (registered === given) return true;
  try {
    const a = new URL(registered);
    const b = new URL(given);
    if (a.protocol !== 'http:' || b.protocol !== 'http:' || !LOOPBACK.has(a.hostname)) return false;
    a.port = '';
    b.port = '';
    return a.href === b.href && b.username === '' && b.password === '' && b.hash === '';
  } catch {
    return false;
  }
}

function s256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

/**
 * What a new password ends (a reset; a password change would call the same), in the caller's
 * transaction: every token of the user (sign-ins, personal tokens, applications' tokens with their
 * refresh tokens), its authorization codes not exchanged yet, and the secrets of its clients that
 * mint tokens as the user without it (client credentials), which it then remakes in the developer
 * area. Answers those clients, for the user to be told.
 */
export async function endGrantsOfUser(
  trx: Db,
  userId: string,
  at: string,
): Promise<{ id: string; name: string }[]> {
  await new TokenRepository(trx).revokeAllOfUser(userId, at);
  const repo = new OAuthRepository(trx);
  await repo.dropOpenCodesOf(userId);
  return repo.endActingSecretsOf(userId, at);
}

function clientView(row: ClientRow): OAuthClientView {
  return {
    id: row.id,
    user_id: row.user_id,
    name: row.name,
    redirect: row.redirect,
    personal_access_client: row.personal_access === 1,
    password_client: row.password_client === 1,
    revoked: row.revoked === 1,
    created_at: row.created_at,
    updated_at: row.updated_at ?? row.created_at,
    confidential: row.confidential === 1,
    role_id: row.role_id,
    needs_new_secret: row.confidential === 1 && row.secret_hash === null,
  };
}

function tokenView(row: TokenRow): AccessTokenView {
  return {
    id: row.id,
    user_id: row.user_id,
    client_id: row.client_id,
    name: row.name,
    scopes: parseScopes(row.scopes),
    revoked: row.revoked_at !== null,
    created_at: row.created_at,
    updated_at: row.updated_at ?? row.created_at,
    expires_at: row.expires_at,
    role_id: row.role_id,
  };
}
