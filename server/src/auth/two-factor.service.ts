import { randomBytes } from 'node:crypto';
import {
  PASSKEY_LIMIT,
  ROLE_SLUGS,
  TWO_FACTOR_TEXTS,
  uuidv7,
  type PasskeyAssertion,
  type PasskeyCreationOptions,
  type PasskeyRegistration,
  type PasskeyRequestOptions,
  type PasskeyView,
  type RecoveryCodes,
  type TotpSetup,
  type TwoFactorStatus,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import type { SecretBox } from '../integrations/secret-box';
import type { Clock } from '../lib/clock';
import { RateLimiter, type RateCounters, type RateLimit } from '../lib/rate-limiter';
import { sha256 } from '../lib/secrets';
import type { Logger } from '../logger';
import type { UserRecord } from '../repositories/user.repository';
import { DomainError, notFound } from '../services/domain-error';
import type { CredentialKey } from './cose-key';
import { newRecoveryCodes, normalizeRecoveryCode, recoveryCodeHash } from './recovery-codes';
import { RELYING_PARTY_NAME } from './relying-party';
import { matchTotp, newTotpSecret, otpauthUrl } from './totp';
import { TwoFactorRepository } from './two-factor.repository';
import { verifyAssertion, verifyRegistration, WebAuthnError, type RelyingParty } from './webauthn';

/** How long a WebAuthn challenge lives: the browser's own time-out plus a little. */
const CHALLENGE_MS = 5 * 60_000;
/** What the browser is told to wait for the user (WebAuthn's `timeout`). */
const CEREMONY_MS = 120_000;

export interface TwoFactorLimits {
  /**
   * Wrong second factors per user from anywhere (codes and recovery codes), besides the
   * password's own counters, which a wrong code also spends: with three codes valid at a time,
   * ten guesses in 15 minutes leave an attacker who has the password about 1 in 1,000 a day.
   */
  readonly perUser: RateLimit;
  /** Sign-in challenges (POST 2fa/passkey/options, no sign-in needed) per client address. */
  readonly challengesPerAddress: RateLimit;
}

export const DEFAULT_TWO_FACTOR_LIMITS: TwoFactorLimits = {
  perUser: { limit: 10, windowMs: 15 * 60_000 },
  challengesPerAddress: { limit: 30, windowMs: 60_000 },
};

/** What the password grant's second step found (auth.service.ts answers each). */
export type SignInStep =
  | { readonly name: 'passed' }
  /** The user has a factor and the grant brought none: `otp_required`. */
  | { readonly name: 'missing' }
  /** The user must have a factor (an account's rule) and has none: set one up first. */
  | { readonly name: 'setup' }
  | { readonly name: 'wrong' }
  | { readonly name: 'limited'; readonly retryAfterS: number };

const b64 = (value: string) => Buffer.from(value, 'base64url');
/** Whether the user's app is on (set up and confirmed). */
const isOn = (row: { readonly confirmed_at: number | null } | undefined) =>
  row !== undefined && row.confirmed_at !== null;
const newChallenge = () => randomBytes(32).toString('base64url');
/** The user handle passkeys carry: the user's id, no name or address (WebAuthn §14.6.1). */
const userHandleOf = (userId: string) => Buffer.from(userId, 'utf8').toString('base64url');

/**
 * Two-factor sign-in (issue 38 item 2): the user's authenticator app (TOTP, sealed secret, a code
 * taken once), recovery codes (hashed, once each), passkeys (WebAuthn, verified here with
 * node:crypto), the password grant's second step and the accounts' rule of who must have one
 * enforced there. Every change of a factor is kept in `two_factor_log`. Setting the rule, the
 * members' factors, their history and an admin's reset are `TwoFactorAccountsService`'s
 * (two-factor-accounts.service.ts).
 */
export class TwoFactorService {
  private readonly repo: TwoFactorRepository;
  private readonly perUser: RateLimiter;
  private readonly challenges: RateLimiter;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly box: SecretBox,
    private readonly rp: RelyingParty,
    private readonly log: Logger,
    counters: RateCounters,
    limits: TwoFactorLimits = DEFAULT_TWO_FACTOR_LIMITS,
  ) {
    this.repo = new TwoFactorRepository(db);
    this.perUser = new RateLimiter('second-factor', limits.perUser, counters);
    this.challenges = new RateLimiter('passkey-challenge', limits.challengesPerAddress, counters);
  }

  // --- Sign-in --------------------------------------------------------------------------------

  /**
   * The password grant's second step, once the password was right: passed (no factor and none
   * required, or a right one given), or what is missing or wrong. Wrong attempts count per user;
   * a right one gives its count back.
   */
  async signInStep(
    userId: string,
    given: { readonly otp?: string | undefined; readonly webauthn?: PasskeyAssertion | undefined },
  ): Promise<SignInStep> {
    const factors = await this.factors(userId);
    if (!factors.any) return (await this.mustHave(userId)) ? { name: 'setup' } : { name: 'passed' };
    if (given.otp === undefined && given.webauthn === undefined) return { name: 'missing' };
    const counted = await this.perUser.take(userId);
    if (!counted.allowed) return { name: 'limited', retryAfterS: counted.retryAfterS };
    const right =
      given.webauthn !== undefined
        ? await this.passkeySignIn(userId, given.webauthn)
        : await this.otpProves(userId, given.otp ?? '');
    if (!right) return { name: 'wrong' };
    await this.perUser.counters.refund([this.perUser.entry(userId)]).catch(() => undefined);
    return { name: 'passed' };
  }

  /** POST 2fa/passkey/options: a challenge for a passkey at sign-in, nobody's until used. */
  async signInOptions(address: string): Promise<PasskeyRequestOptions> {
    const counted = await this.challenges.take(address);
    if (!counted.allowed) throw tooMany(counted.retryAfterS);
    const challenge = newChallenge();
    const now = this.clock.now();
    await this.repo.putChallenge(sha256(challenge), 'sign-in', null, now + CHALLENGE_MS, now);
    return { challenge, rpId: this.rp.id, timeout: CEREMONY_MS, userVerification: 'preferred' };
  }

  /** POST 2fa/enrol/totp: the app of a member who must have a factor and has none (checked). */
  async enrolStart(user: UserRecord): Promise<TotpSetup> {
    await this.enrolmentDue(user.id);
    return this.startTotp(user);
  }

  /** POST 2fa/enrol/totp/confirm: turns that app on; the caller signs the member in. */
  async enrolConfirm(user: UserRecord, code: string): Promise<RecoveryCodes> {
    await this.enrolmentDue(user.id);
    return this.confirmTotp(user.id, code);
  }

  /** POST 2fa/enrol/passkey/options: a passkey instead of the app, for that member (checked). */
  async enrolPasskeyOptions(user: UserRecord): Promise<PasskeyCreationOptions> {
    await this.enrolmentDue(user.id);
    return this.passkeyOptions(user);
  }

  /** POST 2fa/enrol/passkey: registers it (logged as added); the grant then signs in with it. */
  async enrolPasskey(user: UserRecord, body: PasskeyRegistration): Promise<PasskeyView> {
    await this.enrolmentDue(user.id);
    return this.registerPasskey(user.id, body);
  }

  private async enrolmentDue(userId: string): Promise<void> {
    if ((await this.factors(userId)).any || !(await this.mustHave(userId)))
      throw new DomainError('conflict', TWO_FACTOR_TEXTS.setupNotDue);
  }

  // --- The user's own factors -------------------------------------------------------------------

  async status(userId: string): Promise<TwoFactorStatus> {
    const [totp, left, keys, required] = await Promise.all([
      this.repo.totp(userId),
      this.repo.recoveryCodesLeft(userId),
      this.repo.passkeys(userId),
      this.mustHave(userId),
    ]);
    return {
      totp: isOn(totp),
      recovery_codes_left: left,
      passkeys: keys.map(passkeyView),
      required,
    };
  }

  /** POST user/2fa/totp: a new secret, on once a code of it is confirmed. */
  async startTotp(user: UserRecord): Promise<TotpSetup> {
    const secret = newTotpSecret();
    const stored = await this.repo.putPendingTotp(
      user.id,
      await this.box.seal(secret),
      this.clock.now(),
    );
    if (!stored) throw new DomainError('conflict', TWO_FACTOR_TEXTS.alreadyOn);
    return { secret, otpauth_url: otpauthUrl(RELYING_PARTY_NAME, user.email, secret) };
  }

  /** POST user/2fa/totp/confirm: on, with ten new recovery codes (shown this once). */
  async confirmTotp(userId: string, code: string): Promise<RecoveryCodes> {
    const row = await this.repo.totp(userId);
    if (row === undefined || row.confirmed_at !== null)
      throw new DomainError('conflict', TWO_FACTOR_TEXTS.noPendingSetup);
    const secret = await this.box.open(row.sealed_secret);
    if (secret === undefined) throw new DomainError('conflict', TWO_FACTOR_TEXTS.noPendingSetup);
    await this.countAttempt(userId);
    const step = matchTotp(secret, code, this.clock.now(), null);
    if (step === undefined) throw wrongCode('code');
    await this.refundAttempt(userId);
    const codes = newRecoveryCodes();
    const now = this.clock.now();
    const turnedOn = await this.db.transaction().execute(async (trx) => {
      const repo = new TwoFactorRepository(trx);
      if (!(await repo.confirmTotp(trx, userId, step, now))) return false;
      await repo.replaceRecoveryCodes(trx, userId, codes.map(codeRow), now);
      await repo.log(trx, entry(userId, userId, null, 'totp_on', now));
      return true;
    });
    if (!turnedOn) throw new DomainError('conflict', TWO_FACTOR_TEXTS.noPendingSetup);
    return { recovery_codes: codes };
  }

  /** DELETE user/2fa/totp with a code (or a recovery code): the app off. */
  async disableTotp(userId: string, otp: string): Promise<void> {
    const row = await this.repo.totp(userId);
    if (!isOn(row)) throw new DomainError('conflict', TWO_FACTOR_TEXTS.notOn);
    await this.prove(userId, otp);
    const keys = await this.repo.passkeys(userId);
    if (keys.length === 0 && (await this.mustHave(userId)))
      throw new DomainError('conflict', TWO_FACTOR_TEXTS.stillRequired);
    const now = this.clock.now();
    await this.db.transaction().execute(async (trx) => {
      const repo = new TwoFactorRepository(trx);
      await repo.deleteTotp(trx, userId);
      // Recovery codes stand in for the app; with passkeys left they still recover those.
      if (keys.length === 0) await repo.replaceRecoveryCodes(trx, userId, [], now);
      await repo.log(trx, entry(userId, userId, null, 'totp_off', now));
    });
  }

  /** POST user/2fa/recovery-codes with a code: ten new codes, the old ones no longer work. */
  async renewRecoveryCodes(userId: string, otp: string): Promise<RecoveryCodes> {
    if (!(await this.factors(userId)).any)
      throw new DomainError('conflict', TWO_FACTOR_TEXTS.notOn);
    await this.prove(userId, otp);
    const codes = newRecoveryCodes();
    const now = this.clock.now();
    await this.db.transaction().execute(async (trx) => {
      const repo = new TwoFactorRepository(trx);
      await repo.replaceRecoveryCodes(trx, userId, codes.map(codeRow), now);
      await repo.log(trx, entry(userId, userId, null, 'recovery_codes_renewed', now));
    });
    return { recovery_codes: codes };
  }

  /** POST user/2fa/passkeys/options: what the browser needs to make a passkey. */
  async passkeyOptions(user: UserRecord): Promise<PasskeyCreationOptions> {
    const challenge = newChallenge();
    const now = this.clock.now();
    await this.repo.putChallenge(sha256(challenge), 'register', user.id, now + CHALLENGE_MS, now);
    const existing = await this.repo.passkeys(user.id);
    const display = `${user.firstname} ${user.lastname}`.trim() || user.email;
    return {
      challenge,
      rp: { id: this.rp.id, name: RELYING_PARTY_NAME },
      user: { id: userHandleOf(user.id), name: user.email, displayName: display },
      pubKeyCredParams: [
        { type: 'public-key', alg: -7 },
        { type: 'public-key', alg: -257 },
      ],
      timeout: CEREMONY_MS,
      excludeCredentials: existing.map((k) => ({
        type: 'public-key',
        id: k.credential_id,
        transports: parseTransports(k.transports),
      })),
      authenticatorSelection: {
        residentKey: 'required',
        requireResidentKey: true,
        userVerification: 'preferred',
      },
      attestation: 'none',
    };
  }

  /** POST user/2fa/passkeys: the browser's new credential, verified, kept under a name. */
  async registerPasskey(userId: string, body: PasskeyRegistration): Promise<PasskeyView> {
    let verified;
    try {
      verified = verifyRegistration(
        {
          clientDataJSON: b64(body.credential.response.clientDataJSON),
          attestationObject: b64(body.credential.response.attestationObject),
        },
        this.rp,
        false,
      );
    } catch (err) {
      if (!(err instanceof WebAuthnError)) throw err;
      this.log.info('passkey registration refused', { user: userId, reason: err.message });
      throw passkeyInvalid();
    }
    const now = this.clock.now();
    if (!(await this.repo.takeChallenge(sha256(verified.challenge), 'register', userId, now)))
      throw passkeyInvalid();
    if (verified.credentialId !== body.credential.id) throw passkeyInvalid();
    if ((await this.repo.passkeys(userId)).length >= PASSKEY_LIMIT)
      throw new DomainError('conflict', TWO_FACTOR_TEXTS.passkeyLimit);
    if ((await this.repo.passkeyOfCredential(verified.credentialId)) !== undefined)
      throw new DomainError('conflict', TWO_FACTOR_TEXTS.passkeyKnown);
    const row = {
      id: uuidv7(now),
      user_id: userId,
      credential_id: verified.credentialId,
      public_key: JSON.stringify(verified.key.jwk),
      algorithm: verified.key.algorithm,
      sign_count: verified.signCount,
      transports: JSON.stringify(body.credential.response.transports ?? []),
      name: body.name,
      created_at: now,
    };
    await this.db.transaction().execute(async (trx) => {
      await new TwoFactorRepository(trx).insertPasskey(row);
      await new TwoFactorRepository(trx).log(
        trx,
        entry(userId, userId, null, 'passkey_added', now),
      );
    });
    return passkeyView({ ...row, last_used_at: null });
  }

  /** DELETE user/2fa/passkeys/{id}: one of the user's own passkeys goes. */
  async removePasskey(userId: string, id: string): Promise<void> {
    const [keys, totp] = await Promise.all([this.repo.passkeys(userId), this.repo.totp(userId)]);
    if (!keys.some((k) => k.id === id)) throw notFound('Passkey');
    if (keys.length === 1 && !isOn(totp) && (await this.mustHave(userId)))
      throw new DomainError('conflict', TWO_FACTOR_TEXTS.stillRequired);
    const now = this.clock.now();
    await this.db.transaction().execute(async (trx) => {
      const repo = new TwoFactorRepository(trx);
      if (!(await repo.deletePasskey(trx, userId, id))) throw notFound('Passkey');
      await repo.log(trx, entry(userId, userId, null, 'passkey_removed', now));
    });
  }

  // --- Inside -------------------------------------------------------------------------------------

  /** Whether an account the user works in requires it to have a second factor. */
  async mustHave(userId: string): Promise<boolean> {
    const rules = await this.repo.rulesOf(userId);
    return rules.some(
      (r) =>
        r.slug !== ROLE_SLUGS.norole &&
        (r.requirement === 'everyone' ||
          (r.requirement === 'admins' && r.slug === ROLE_SLUGS.admin)),
    );
  }

  private async factors(userId: string): Promise<{ readonly any: boolean }> {
    const [totp, keys] = await Promise.all([this.repo.totp(userId), this.repo.passkeys(userId)]);
    return { any: isOn(totp) || keys.length > 0 };
  }

  /** A change of a factor needs a right code of the app or a recovery code (counted). */
  private async prove(userId: string, otp: string): Promise<void> {
    await this.countAttempt(userId);
    if (!(await this.otpProves(userId, otp))) throw wrongCode('otp');
    await this.refundAttempt(userId);
  }

  private async countAttempt(userId: string): Promise<void> {
    const counted = await this.perUser.take(userId);
    if (!counted.allowed) throw tooMany(counted.retryAfterS);
  }

  private async refundAttempt(userId: string): Promise<void> {
    await this.perUser.counters.refund([this.perUser.entry(userId)]).catch(() => undefined);
  }

  /**
   * An app's code (six digits: taken once, never one older than the last taken) or a recovery
   * code (used up here, and logged).
   */
  private async otpProves(userId: string, otp: string): Promise<boolean> {
    const typed = otp.replace(/\s+/g, '');
    const now = this.clock.now();
    if (/^\d{6}$/.test(typed)) {
      const row = await this.repo.totp(userId);
      if (row === undefined || row.confirmed_at === null) return false;
      const secret = await this.box.open(row.sealed_secret);
      if (secret === undefined) return false;
      const step = matchTotp(secret, typed, now, row.last_step);
      return step !== undefined && (await this.repo.takeStep(userId, step));
    }
    const normalized = normalizeRecoveryCode(typed);
    if (normalized === undefined) return false;
    const used = await this.repo.useRecoveryCode(userId, recoveryCodeHash(normalized), now);
    if (used) {
      await this.repo.log(this.db, entry(userId, userId, null, 'recovery_code_used', now));
      this.log.info('recovery code used', { user: userId });
    }
    return used;
  }

  /** A passkey's assertion: the user's own credential, a live sign-in challenge, a moving counter. */
  private async passkeySignIn(userId: string, assertion: PasskeyAssertion): Promise<boolean> {
    const stored = await this.repo.passkeyOfCredential(assertion.id);
    if (stored?.user_id !== userId) return false;
    const handle = assertion.response.userHandle;
    if (handle !== undefined && handle !== null && handle !== userHandleOf(userId)) return false;
    const key: CredentialKey = {
      algorithm: stored.algorithm === -257 ? -257 : -7,
      jwk: JSON.parse(stored.public_key) as CredentialKey['jwk'],
    };
    const signCount = Number(stored.sign_count);
    let verified;
    try {
      verified = verifyAssertion(
        {
          clientDataJSON: b64(assertion.response.clientDataJSON),
          authenticatorData: b64(assertion.response.authenticatorData),
          signature: b64(assertion.response.signature),
        },
        { key, signCount },
        this.rp,
        false,
      );
    } catch (err) {
      if (!(err instanceof WebAuthnError)) throw err;
      this.log.info('passkey sign-in refused', { user: userId, reason: err.message });
      return false;
    }
    const now = this.clock.now();
    if (!(await this.repo.takeChallenge(sha256(verified.challenge), 'sign-in', null, now)))
      return false;
    return this.repo.usePasskey(stored.id, signCount, verified.signCount, now);
  }
}

function passkeyView(row: {
  id: string;
  name: string;
  created_at: number | string;
  last_used_at: number | string | null;
}): PasskeyView {
  return {
    id: row.id,
    name: row.name,
    created_at: Number(row.created_at),
    last_used_at: row.last_used_at === null ? null : Number(row.last_used_at),
  };
}

function parseTransports(stored: string): string[] {
  try {
    const list: unknown = JSON.parse(stored);
    return Array.isArray(list) ? list.filter((t): t is string => typeof t === 'string') : [];
  } catch {
    return [];
  }
}

const codeRow = (code: string) => ({
  id: uuidv7(),
  hash: recoveryCodeHash(normalizeRecoveryCode(code) ?? code),
});

/** A `two_factor_log` row: whose factor, who changed it, where (null: the user's own change). */
export function entry(
  userId: string,
  actorId: string,
  accountId: string | null,
  action: string,
  at: number,
) {
  return { id: uuidv7(at), user_id: userId, actor_id: actorId, account_id: accountId, action, at };
}

/** The sign-in's own words for a limit (the client translates them with their number). */
const tooMany = (retryAfterS: number) =>
  new DomainError(
    'rate_limited',
    `Too many sign-in attempts. Please try again in ${retryAfterS} seconds.`,
    { retryAfterS },
  );

const wrongCode = (field: string) =>
  new DomainError('invalid', TWO_FACTOR_TEXTS.codeWrong, {
    fields: { [field]: [TWO_FACTOR_TEXTS.codeWrong] },
  });

const passkeyInvalid = () =>
  new DomainError('invalid', TWO_FACTOR_TEXTS.passkeyInvalid, {
    fields: { credential: [TWO_FACTOR_TEXTS.passkeyInvalid] },
  });
