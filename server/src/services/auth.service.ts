import { timingSafeEqual } from 'node:crypto';
import {
  mayUseApp,
  TWO_FACTOR_TEXTS,
  uuidv7,
  type RegisterRequest,
  type TokenRequest,
  type TokenResponse,
} from '@plant/shared-schema';
import { isUniqueViolation, type Db } from '../db/database';
import { isoAt, type Clock } from '../lib/clock';
import {
  MemoryRateCounters,
  RateLimiter,
  refundAll,
  takeAll,
  type RateCounters,
  type RateLimit,
} from '../lib/rate-limiter';
import { hashPassword, newToken, sha256, verifyDecoy, verifyPassword } from '../lib/secrets';
import { PushSubscriptionRepository } from '../repositories/push-subscription.repository';
import { RoleRepository } from '../repositories/role.repository';
import { TokenRepository } from '../repositories/token.repository';
import { UserRepository, type UserRecord } from '../repositories/user.repository';
import type { TwoFactorService } from '../auth/two-factor.service';
import { createAccount } from './account.service';
import { DomainError } from './domain-error';
import type { TokenNarrowing } from './user.service';

/** A failed token request, answered in OAuth's shape (Laravel Passport's): error code + text. */
export class OAuthError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 429,
    readonly code: string,
    message: string,
    readonly retryAfterS?: number,
    /** More fields of the answer (the second factor's `errors: { otp }`). */
    readonly details?: Readonly<Record<string, unknown>>,
  ) {
    super(message);
    this.name = 'OAuthError';
  }
}

export const WRONG_CREDENTIALS = 'Email or password is incorrect!';
export const NOROLE_REFUSED =
  'This user has no role yet and cannot sign in. Please ask your administrator for access.';

export interface AuthLimits {
  /** Failed sign-ins per e-mail address from one client address: the everyday guard. */
  readonly perEmailAndAddress: RateLimit;
  /** Failed sign-ins per e-mail address from anywhere: a backstop against spread-out guessing. */
  readonly perEmail: RateLimit;
  /** Failed sign-ins per client address, for any e-mail. */
  readonly perAddress: RateLimit;
  /** Registrations per client address. */
  readonly registerPerAddress: RateLimit;
}

/**
 * Ten failures a minute per e-mail and client address: a stranger hammering someone's address from
 * elsewhere does not lock that person out (their own address has its own counter). Only a guess
 * spread over many addresses meets the per-e-mail backstop, which locks for at most five minutes.
 * Successful sign-ins are given back, so only failures count.
 */
export const DEFAULT_AUTH_LIMITS: AuthLimits = {
  perEmailAndAddress: { limit: 10, windowMs: 60_000 },
  perEmail: { limit: 100, windowMs: 5 * 60_000 },
  perAddress: { limit: 30, windowMs: 60_000 },
  registerPerAddress: { limit: 20, windowMs: 60 * 60_000 },
};

export interface Authenticated {
  readonly userId: string;
  readonly tokenId: string;
  readonly expiresAtMs: number;
  /** A scoped token's role and scopes (absent for the app's own sign-in). */
  readonly narrowed?: TokenNarrowing;
}

export class AuthService {
  private readonly perEmailAndAddress: RateLimiter;
  private readonly perEmail: RateLimiter;
  private readonly perAddress: RateLimiter;
  private readonly registrations: RateLimiter;
  private readonly tokens: TokenRepository;
  private readonly users: UserRepository;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly tokenTtlMs: number,
    limits: AuthLimits = DEFAULT_AUTH_LIMITS,
    counters: RateCounters = new MemoryRateCounters(() => clock.now()),
    /** The second factor (issue 38 item 2); without it the grant asks for none. */
    private readonly twoFactor?: TwoFactorService,
  ) {
    this.perEmailAndAddress = new RateLimiter('signin', limits.perEmailAndAddress, counters);
    this.perEmail = new RateLimiter('signin-email', limits.perEmail, counters);
    this.perAddress = new RateLimiter('signin-address', limits.perAddress, counters);
    this.registrations = new RateLimiter('register', limits.registerPerAddress, counters);
    this.tokens = new TokenRepository(db);
    this.users = new UserRepository(db);
  }

  /** The password grant of POST /api/v1/oauth/token. */
  async passwordGrant(req: TokenRequest, address: string): Promise<TokenResponse> {
    if (req.grant_type !== 'password') {
      throw new OAuthError(
        400,
        'unsupported_grant_type',
        'The authorization grant type is not supported by the authorization server.',
      );
    }
    const { user, clientId, counters } = await this.checkPassword(req, address);
    await this.secondStep(user.id, req, counters);
    // Best effort: a sign-in that succeeded stays one if the counters cannot be reached.
    await refundAll(counters).catch(() => undefined);
    return this.completeSignIn(user, clientId, req.scope);
  }

  /**
   * The password grant's credentials checked the grant's way, counters and all, for the calls
   * that set up a required second factor before a sign-in (routes/two-factor.ts).
   */
  async verifiedCredentials(
    req: Pick<TokenRequest, 'client_id' | 'client_secret' | 'username' | 'password'>,
    address: string,
  ): Promise<{ readonly user: UserRecord; readonly clientId: string }> {
    const { user, clientId, counters } = await this.checkPassword(req, address);
    await refundAll(counters).catch(() => undefined);
    await this.mayUseApp(user);
    return { user, clientId };
  }

  /**
   * Whether a sign-in of the user asks for a second factor (it has one, or an account of its
   * requires one): then only the sign-in itself issues its token, never a side door such as an
   * accepted invitation.
   */
  async secondStepDue(userId: string): Promise<boolean> {
    if (this.twoFactor === undefined) return false;
    return (await this.twoFactor.signInStep(userId, {})).name !== 'passed';
  }

  /** A token for a user whose sign-in is proven (password and, where due, a second factor). */
  async completeSignIn(
    user: UserRecord,
    clientId: string,
    scope: string | undefined,
  ): Promise<TokenResponse> {
    const roles = await this.mayUseApp(user);
    await this.ensureActiveAccount(user, roles);
    return this.issueToken(user.id, clientId, scope);
  }

  private async mayUseApp(user: UserRecord) {
    const roles = await this.users.allRoles(user.id);
    if (!mayUseApp(roles.map((r) => r.slug)))
      throw new OAuthError(403, 'access_denied', NOROLE_REFUSED);
    return roles;
  }

  /** The client and the password, counted before the password is checked. */
  private async checkPassword(
    req: Pick<TokenRequest, 'client_id' | 'client_secret' | 'username' | 'password'>,
    address: string,
  ) {
    const client = await this.tokens.findClient(req.client_id);
    if (
      client?.password_client !== 1 ||
      client.revoked === 1 ||
      !secretMatches(req.client_secret, client.secret_hash)
    ) {
      throw new OAuthError(401, 'invalid_client', 'Client authentication failed');
    }
    // Counted before the password is checked: parallel attempts cannot all slip past the limit.
    const counters = [
      [this.perEmailAndAddress, `${req.username}|${address}`],
      [this.perEmail, req.username],
      [this.perAddress, address],
    ] as const;
    const decision = await takeAll(counters);
    if (!decision.allowed) throw tooManyAttempts(decision.retryAfterS);
    const user = await this.users.findByEmail(req.username);
    const valid =
      user === undefined
        ? await verifyDecoy(req.password)
        : await verifyPassword(req.password, user.password_hash);
    if (user === undefined || !valid) throw new OAuthError(401, 'invalid_grant', WRONG_CREDENTIALS);
    return { user, clientId: client.id, counters };
  }

  /**
   * The second factor after the right password (issue 38 item 2). Asked for without one
   * (`otp_required`: the password's attempt is given back, nothing was guessed), or to be set up
   * first where an account requires one; a wrong one is a failed sign-in and stays counted, with
   * the per-user count of the second factor besides. The field `otp` carries the text, so the
   * sign-in screen shows it at the code's field.
   */
  private async secondStep(
    userId: string,
    req: TokenRequest,
    counters: readonly (readonly [RateLimiter, string])[],
  ): Promise<void> {
    if (this.twoFactor === undefined) return;
    const step = await this.twoFactor.signInStep(userId, req);
    const asked = (status: 401 | 403, code: string, text: string) =>
      new OAuthError(status, code, text, undefined, { errors: { otp: [text] } });
    switch (step.name) {
      case 'passed':
        return;
      case 'missing':
        await refundAll(counters).catch(() => undefined);
        throw asked(401, 'otp_required', TWO_FACTOR_TEXTS.codeRequired);
      case 'setup':
        await refundAll(counters).catch(() => undefined);
        throw asked(403, 'second_factor_setup_required', TWO_FACTOR_TEXTS.setupRequired);
      case 'wrong':
        throw asked(401, 'invalid_otp', TWO_FACTOR_TEXTS.codeWrong);
      case 'limited':
        throw tooManyAttempts(step.retryAfterS);
      default: {
        const unknown: never = step;
        throw new Error(`unknown second step ${JSON.stringify(unknown)}`);
      }
    }
  }

  /** POST /api/v1/register: a new user with an account of its own, which it administers. */
  async register(req: RegisterRequest, address: string, clientId: string) {
    const decision = await this.registrations.take(address);
    if (!decision.allowed) {
      throw new DomainError(
        'rate_limited',
        'Too many registrations from this address. Please try again later.',
        {
          retryAfterS: decision.retryAfterS,
        },
      );
    }
    const taken = () =>
      new DomainError('invalid', 'This email address is already registered.', {
        fields: { email: ['This email address is already registered.'] },
      });
    if ((await this.users.findByEmail(req.email)) !== undefined) throw taken();
    const passwordHash = await hashPassword(req.password);
    const at = isoAt(this.clock.now());
    const userId = uuidv7();
    try {
      await this.db.transaction().execute(async (trx) => {
        const account = await createAccount(trx, { name: `${req.firstname} ${req.lastname}` }, at);
        await new UserRepository(trx).insert({
          id: userId,
          firstname: req.firstname,
          lastname: req.lastname,
          email: req.email,
          password_hash: passwordHash,
          active_account_id: account.id,
          created_at: at,
          updated_at: at,
        });
        await new RoleRepository(trx).addMemberships(
          account.id,
          [{ userId, roleId: account.adminRoleId }],
          at,
        );
      });
    } catch (err) {
      // Two registrations of one address at once: the unique index decides, the loser is told.
      if (isUniqueViolation(err, 'users', 'email')) throw taken();
      throw err;
    }
    return { userId, token: await this.issueToken(userId, clientId, undefined) };
  }

  /** A token for a user who just proved who it is another way (an accepted invitation). */
  tokenFor(userId: string, clientId: string): Promise<TokenResponse> {
    return this.issueToken(userId, clientId, undefined);
  }

  /** The user and token behind a bearer token, if it is live (not revoked, not expired). */
  async authenticate(bearer: string): Promise<Authenticated | undefined> {
    const row = await this.tokens.findLive(sha256(bearer), isoAt(this.clock.now()));
    if (row === undefined) return undefined;
    const auth = { userId: row.user_id, tokenId: row.id, expiresAtMs: Date.parse(row.expires_at) };
    if (row.scoped !== 1) return auth;
    // A scoped token without a role (never made so) acts with none: it has no session.
    if (row.role_id === null) return undefined;
    return { ...auth, narrowed: { roleId: row.role_id, scopes: parseScopes(row.scopes) } };
  }

  /**
   * Sign-out: the token is revoked, and the push subscriptions sent with it end (a shared tablet
   * stops showing the alarms of whoever signed out there).
   */
  async logout(tokenId: string): Promise<void> {
    await this.tokens.revoke(tokenId, isoAt(this.clock.now()));
    await new PushSubscriptionRepository(this.db).removeOfToken(tokenId);
  }

  private async issueToken(
    userId: string,
    clientId: string,
    scope: string | undefined,
  ): Promise<TokenResponse> {
    const token = newToken();
    const now = this.clock.now();
    await this.tokens.insertToken({
      id: uuidv7(now),
      user_id: userId,
      client_id: clientId,
      token_hash: sha256(token),
      scopes: JSON.stringify(
        scope === undefined || scope.trim() === '' ? [] : scope.trim().split(/\s+/),
      ),
      created_at: isoAt(now),
      expires_at: isoAt(now + this.tokenTtlMs),
    });
    return {
      token_type: 'Bearer',
      expires_in: Math.floor(this.tokenTtlMs / 1000),
      access_token: token,
    };
  }

  /** A user whose active account is unset or no longer theirs starts in its first usable account. */
  private async ensureActiveAccount(
    user: UserRecord,
    roles: { account_id: string; slug: string }[],
  ) {
    const usable = roles.filter((r) => mayUseApp([r.slug]));
    if (usable.some((r) => r.account_id === user.active_account_id)) return;
    const first = usable[0];
    if (first !== undefined)
      await this.users.setActiveAccount(user.id, first.account_id, isoAt(this.clock.now()));
  }
}

const tooManyAttempts = (retryAfterS: number) =>
  new OAuthError(
    429,
    'too_many_attempts',
    `Too many sign-in attempts. Please try again in ${retryAfterS} seconds.`,
    retryAfterS,
  );

/** A token's stored scope list; anything unreadable grants nothing. */
export function parseScopes(stored: string): string[] {
  try {
    const list: unknown = JSON.parse(stored);
    return Array.isArray(list) ? list.filter((s): s is string => typeof s === 'string') : [];
  } catch {
    return [];
  }
}

export function secretMatches(given: string | undefined, storedHash: string | null): boolean {
  if (storedHash === null) return true;
  if (given === undefined) return false;
  const a = Buffer.from(sha256(given), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
