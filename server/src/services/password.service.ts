import {
  appPaths,
  FORGOT_ACCEPTED_MESSAGE,
  RESET_SUCCESS_MESSAGE,
  RESET_TOKEN_INVALID_MESSAGE,
  TIMINGS,
  uuidv7,
  type PasswordForgotRequest,
  type PasswordResetAnswer,
  type PasswordResetRequest,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import { isoAt, type Clock } from '../lib/clock';
import type { BackgroundTasks } from '../lib/background';
import { MemoryRateCounters, RateLimiter, type RateCounters } from '../lib/rate-limiter';
import { hashPassword, newToken, sha256 } from '../lib/secrets';
import { PasswordResetRepository } from '../repositories/password-reset.repository';
import { UserRepository } from '../repositories/user.repository';
import { DomainError } from './domain-error';
import type { Mailer } from './mail.service';
import { endGrantsOfUser } from './oauth.service';

/**
 * Forgot and reset password. The forgot answer is the same whether or not the address is
 * registered, so it cannot be used to find out who has an account.
 */
export class PasswordService {
  /** Mails per address per quarter hour: extra requests are answered the same, but send nothing. */
  private readonly mailsPerEmail: RateLimiter;
  private readonly requestsPerAddress: RateLimiter;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly mailer: Mailer,
    private readonly appUrl: string,
    private readonly background: BackgroundTasks,
    counters: RateCounters = new MemoryRateCounters(() => clock.now()),
  ) {
    this.mailsPerEmail = new RateLimiter(
      'reset-mail',
      { limit: 3, windowMs: 15 * 60_000 },
      counters,
    );
    this.requestsPerAddress = new RateLimiter(
      'reset-address',
      { limit: 20, windowMs: 15 * 60_000 },
      counters,
    );
  }

  /**
   * Answers at once, the same for every address; the mail goes out in the background. So neither
   * the answer nor its timing (a database write and an SMTP round trip happen only for real users)
   * tells who has an account.
   */
  async forgot(req: PasswordForgotRequest, address: string): Promise<string> {
    const decision = await this.requestsPerAddress.take(address);
    if (!decision.allowed) {
      throw new DomainError('rate_limited', 'Too many requests. Please try again later.', {
        retryAfterS: decision.retryAfterS,
      });
    }
    this.background.run('password reset mail', () => this.mailResetLink(req.email));
    return FORGOT_ACCEPTED_MESSAGE;
  }

  /**
   * An admin sends a member the reset link (spec 001 §6): the same mail and link as forgot, in
   * the background, counted against the same per-address limit.
   */
  sendResetLink(email: string): void {
    this.background.run('password reset mail', () => this.mailResetLink(email));
  }

  private async mailResetLink(email: string): Promise<void> {
    const user = await new UserRepository(this.db).findByEmail(email);
    if (user === undefined || !(await this.mailsPerEmail.take(email)).allowed) return;
    const token = newToken();
    const now = this.clock.now();
    await new PasswordResetRepository(this.db).insert({
      id: uuidv7(now),
      user_id: user.id,
      token_hash: sha256(token),
      created_at: isoAt(now),
      expires_at: isoAt(now + TIMINGS.passwordResetTokenTtlMs),
    });
    const link = `${this.appUrl}/user/reset-password?token=${encodeURIComponent(token)}&email=${encodeURIComponent(user.email)}`;
    await this.mailer.send({
      to: user.email,
      subject: 'Reset your password',
      text: [
        `Hello ${user.firstname},`,
        '',
        'someone asked to reset the password of your account. To choose a new password, open:',
        link,
        '',
        'The link works once and for 60 minutes. If you did not ask for this, ignore this mail.',
      ].join('\n'),
    });
  }

  /**
   * Sets the new password with a single-use token. The token is looked at before the password is
   * hashed (no scrypt work for made-up tokens). Consuming it, storing the password, voiding the
   * user's other reset links and ending every grant of the user (its tokens, and the secrets of
   * its clients that act as it: `endGrantsOfUser`) happen in one transaction. Those clients are
   * named in the answer and, since the app signs in at once and shows no answer, in a mail.
   */
  async reset(req: PasswordResetRequest, address: string): Promise<PasswordResetAnswer> {
    const decision = await this.requestsPerAddress.take(address);
    if (!decision.allowed) {
      throw new DomainError('rate_limited', 'Too many requests. Please try again later.', {
        retryAfterS: decision.retryAfterS,
      });
    }
    const resets = new PasswordResetRepository(this.db);
    const tokenHash = sha256(req.token);
    const invalid = new DomainError('invalid', RESET_TOKEN_INVALID_MESSAGE, {
      fields: { token: [RESET_TOKEN_INVALID_MESSAGE] },
    });
    if (!(await resets.isUsable(tokenHash, isoAt(this.clock.now())))) throw invalid;
    const passwordHash = await hashPassword(req.password);
    const at = isoAt(this.clock.now());
    const done = await this.db.transaction().execute(async (trx) => {
      const txResets = new PasswordResetRepository(trx);
      const userId = await txResets.consume(tokenHash, at);
      if (userId === undefined) return undefined;
      await txResets.voidAllOfUser(userId, at);
      await new UserRepository(trx).setPassword(userId, passwordHash, at);
      return { userId, clients: await endGrantsOfUser(trx, userId, at) };
    });
    if (done === undefined) throw invalid;
    if (done.clients.length > 0) {
      const { userId, clients } = done;
      this.background.run('client secrets ended mail', () =>
        this.mailEndedSecrets(userId, clients),
      );
    }
    return { success: true, message: RESET_SUCCESS_MESSAGE, revoked_clients: done.clients };
  }

  /** Tells the user which of its clients lost their secret with the old password. */
  private async mailEndedSecrets(
    userId: string,
    clients: readonly { readonly name: string }[],
  ): Promise<void> {
    const user = await new UserRepository(this.db).findById(userId);
    if (user === undefined) return;
    await this.mailer.send({
      to: user.email,
      subject: 'Your OAuth clients need new secrets',
      text: [
        `Hello ${user.firstname},`,
        '',
        'the password of your account was changed, and every token you or your applications held',
        'was ended with it. These OAuth clients acted for you with a secret, which was ended too:',
        ...clients.map((c) => `- ${c.name}`),
        '',
        'Make each a new secret in your developer area:',
        `${this.appUrl}${appPaths.accessTokens(userId)}`,
        '',
        'If you did not change your password, reset it at once and check your clients.',
      ].join('\n'),
    });
  }
}
