import {
  ALREADY_MEMBER,
  can,
  fieldErrorsOf,
  INVITATION_CLOSED,
  INVITATION_INVALID,
  INVITATION_RESENDS,
  INVITATION_REVOKED,
  INVITATION_TTL_MS,
  invitationState,
  invitationAcceptSchema,
  invitationJoinSchema,
  ROLE_SLUGS,
  USER_EDIT_PERMISSION,
  uuidv7,
  type InvitationInfo,
  type InvitationRequest,
  type InvitationSent,
  type SentInvitation,
} from '@plant/shared-schema';
import { isUniqueViolation, type Db } from '../db/database';
import type { BackgroundTasks } from '../lib/background';
import { MemoryRateCounters, RateLimiter, type RateCounters } from '../lib/rate-limiter';
import { isoAt, type Clock } from '../lib/clock';
import { hashPassword, newToken, sha256, verifyPassword } from '../lib/secrets';
import { InvitationRepository } from '../repositories/invitation.repository';
import { RoleRepository } from '../repositories/role.repository';
import { UserRepository } from '../repositories/user.repository';
import { ChangeLogRepository } from '../repositories/change-log.repository';
import type { AuthService } from './auth.service';
import type { ChangeFeed } from './change-feed';
import { ManagedLog } from './managed-log';
import { mayHandOut } from './member.service';
import { DomainError, forbidden, invalidInput, notFound } from './domain-error';
import type { Mailer } from './mail.service';
import type { Session } from './user.service';

const invalid = () =>
  new DomainError('invalid', INVITATION_INVALID, { fields: { token: [INVITATION_INVALID] } });
const revoked = () =>
  new DomainError('invalid', INVITATION_REVOKED, { fields: { token: [INVITATION_REVOKED] } });

/** How many sent invitations the list shows (newest first). */
const LISTED = 200;

type Listed = NonNullable<Awaited<ReturnType<InvitationRepository['find']>>>;

/**
 * Invitations into an account (spec 001 §6). An admin (user::edit) invites a full e-mail address
 * with a role; the mail carries a link to /user/set-password that works once and for a week. A
 * new person sets its names and a password and is signed in, a member with that role; an
 * existing user accepts with its password. Only the token's SHA-256 is stored.
 */
export class InvitationService {
  private readonly resends: RateLimiter;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly mailer: Mailer,
    private readonly appUrl: string,
    private readonly background: BackgroundTasks,
    private readonly auth: AuthService,
    private readonly feed: ChangeFeed,
    counters: RateCounters = new MemoryRateCounters(() => clock.now()),
  ) {
    this.resends = new RateLimiter('invitation-resend', INVITATION_RESENDS, counters);
  }

  /** The active account's invitations (user::edit, as inviting). */
  private accountOf(session: Session) {
    const account = session.activeAccount;
    if (account === null || !can(session.ctx, USER_EDIT_PERMISSION)) throw forbidden();
    return account;
  }

  async invite(session: Session, req: InvitationRequest): Promise<InvitationSent> {
    const account = this.accountOf(session);
    const role = await new RoleRepository(this.db).find(account.id, req.role_id);
    if (role === undefined) throw notFound('Role');
    if (role.slug === ROLE_SLUGS.norole) {
      throw invalidInput({ role_id: ['Choose a role that may use the product.'] });
    }
    await mayHandOut(this.db, session, account.id, role);
    const users = new UserRepository(this.db);
    const existing = await users.findByEmail(req.email);
    if (existing !== undefined && (await users.rolesIn(account.id, existing.id)).length > 0) {
      throw new DomainError('conflict', ALREADY_MEMBER, { fields: { email: [ALREADY_MEMBER] } });
    }
    const token = newToken();
    const now = this.clock.now();
    const sent: InvitationSent = {
      id: uuidv7(now),
      email: req.email,
      expires_at: isoAt(now + INVITATION_TTL_MS),
    };
    await new InvitationRepository(this.db).insert(account.id, {
      id: sent.id,
      role_id: role.id,
      email: req.email,
      token_hash: sha256(token),
      invited_by: session.user.id,
      created_at: isoAt(now),
      sent_at: isoAt(now),
      expires_at: sent.expires_at,
    });
    this.mail(session, account.name, role.name, req.email, token);
    return sent;
  }

  private mail(
    session: Session,
    accountName: string,
    roleName: string,
    email: string,
    token: string,
  ): void {
    const link =
      `${this.appUrl}/user/set-password?invitation=${encodeURIComponent(token)}` +
      `&email=${encodeURIComponent(email)}`;
    const inviter = `${session.user.firstname} ${session.user.lastname}`;
    this.background.run('invitation mail', () =>
      this.mailer.send({
        to: email,
        subject: `Invitation to ${accountName}`,
        text: [
          'Hello,',
          '',
          `${inviter} invites you to the account ${accountName} as ${roleName}. To join, open:`,
          link,
          '',
          'The link works once and for 7 days. If you did not expect this, ignore this mail.',
        ].join('\n'),
      }),
    );
  }

  /** The active account's sent invitations with their state, newest first. */
  async list(session: Session): Promise<SentInvitation[]> {
    const account = this.accountOf(session);
    const now = isoAt(this.clock.now());
    const rows = await new InvitationRepository(this.db).list(account.id, LISTED);
    return rows.map((row) => this.view(row, now));
  }

  /**
   * Mails an open invitation (pending or expired) again with a new link and a new week; the old
   * link dies with its hash. The inviter must still be allowed to hand out its role. At most
   * INVITATION_RESENDS per invitation (a mail flood to one address otherwise).
   */
  async resend(session: Session, id: string): Promise<SentInvitation> {
    const account = this.accountOf(session);
    const invitations = new InvitationRepository(this.db);
    const found = await invitations.find(account.id, id);
    if (found === undefined) throw notFound('Invitation');
    if (found.accepted_at !== null || found.revoked_at !== null) {
      throw new DomainError('conflict', INVITATION_CLOSED);
    }
    await mayHandOut(this.db, session, account.id, { id: found.role_id, slug: found.role_slug });
    const decision = await this.resends.take(`${account.id}:${id}`);
    if (!decision.allowed) {
      throw new DomainError('rate_limited', 'Too many requests. Please try again later.', {
        retryAfterS: decision.retryAfterS,
      });
    }
    const token = newToken();
    const now = this.clock.now();
    const next = {
      token_hash: sha256(token),
      sent_at: isoAt(now),
      expires_at: isoAt(now + INVITATION_TTL_MS),
    };
    // Accepted or revoked meanwhile: the renewal's WHERE refuses it.
    if (!(await invitations.renew(account.id, id, next))) {
      throw new DomainError('conflict', INVITATION_CLOSED);
    }
    this.mail(session, account.name, found.role, found.email, token);
    return this.view({ ...found, ...next }, isoAt(now));
  }

  /** Revokes an open invitation: its link dies and says so. Revoking twice is the same. */
  async revoke(session: Session, id: string): Promise<SentInvitation> {
    const account = this.accountOf(session);
    const invitations = new InvitationRepository(this.db);
    const now = isoAt(this.clock.now());
    const found = await invitations.find(account.id, id);
    if (found === undefined) throw notFound('Invitation');
    if (found.revoked_at !== null) return this.view(found, now);
    // One UPDATE with the conditions in its WHERE: an acceptance at the same moment wins or loses
    // whole, never both.
    if (found.accepted_at !== null || !(await invitations.revoke(account.id, id, now))) {
      throw new DomainError('conflict', INVITATION_CLOSED);
    }
    return this.view({ ...found, revoked_at: now }, now);
  }

  private view(row: Listed, nowIso: string): SentInvitation {
    return {
      id: row.id,
      email: row.email,
      role_id: row.role_id,
      role: row.role,
      sent_at: row.sent_at ?? row.created_at,
      expires_at: row.expires_at,
      state: invitationState(row, nowIso),
    };
  }

  /** The usable invitation of a token; a revoked one's link says it was revoked. */
  private async usable(token: unknown) {
    if (typeof token !== 'string') throw invalid();
    const invitations = new InvitationRepository(this.db);
    const hash = sha256(token);
    const found = await invitations.usable(hash, isoAt(this.clock.now()));
    if (found !== undefined) return found;
    throw (await invitations.isRevoked(hash)) ? revoked() : invalid();
  }

  /** What a link is for, before the person answers it. */
  async info(token: string): Promise<InvitationInfo> {
    const found = await this.usable(token);
    const existing = await new UserRepository(this.db).findByEmail(found.email);
    return {
      email: found.email,
      account: found.account,
      role: found.role,
      existing: existing !== undefined,
    };
  }

  /**
   * Answers a link: a new person joins (names, new password), an existing user accepts (its
   * password). Either way the invitation is used up, the user is a member with the role, the
   * account is its active one, and it is signed in, unless a second factor is due (`token` null:
   * the sign-in asks for it).
   */
  async accept(body: unknown, clientId: string) {
    const found = await this.usable((body as { token?: unknown } | null)?.token);
    const users = new UserRepository(this.db);
    const existing = await users.findByEmail(found.email);
    let userId: string;
    let passwordHash: string | undefined;
    if (existing === undefined) {
      const join = invitationJoinSchema.safeParse(body);
      if (!join.success) throw invalidInput(fieldErrorsOf(join.error));
      passwordHash = await hashPassword(join.data.password);
      userId = uuidv7();
      const at = isoAt(this.clock.now());
      await this.join(found, userId, at, async (trx) => {
        await new UserRepository(trx).insert({
          id: userId,
          firstname: join.data.firstname,
          lastname: join.data.lastname,
          email: found.email,
          password_hash: passwordHash ?? '',
          active_account_id: found.account_id,
          created_at: at,
          updated_at: at,
        });
      });
    } else {
      const accept = invitationAcceptSchema.safeParse(body);
      if (!accept.success) throw invalidInput(fieldErrorsOf(accept.error));
      if (!(await verifyPassword(accept.data.password, existing.password_hash))) {
        throw new DomainError('invalid', 'Wrong credentials!', {
          fields: { password: ['Wrong credentials!'] },
        });
      }
      userId = existing.id;
      const at = isoAt(this.clock.now());
      await this.join(found, userId, at, async (trx) => {
        await new UserRepository(trx).setActiveAccount(userId, found.account_id, at);
      });
    }
    // The password alone proves no sign-in where a second factor is due: the membership stands,
    // the token comes from the sign-in with the factor.
    if (await this.auth.secondStepDue(userId)) return { userId, token: null };
    return { userId, token: await this.auth.tokenFor(userId, clientId) };
  }

  /** Uses the invitation up, runs `work`, and adds the membership: all or nothing. */
  private async join(
    found: { id: string; account_id: string; role_id: string },
    userId: string,
    at: string,
    work: (trx: Db) => Promise<void>,
  ): Promise<void> {
    try {
      const updates = await this.db.transaction().execute(async (trx) => {
        await new ChangeLogRepository(trx).lock(found.account_id);
        if (!(await new InvitationRepository(trx).consume(found.account_id, found.id, at)))
          throw invalid();
        await work(trx);
        const held = await new UserRepository(trx).rolesIn(found.account_id, userId);
        if (!held.some((r) => r.id === found.role_id)) {
          await new RoleRepository(trx).addMemberships(
            found.account_id,
            [{ userId, roleId: found.role_id }],
            at,
          );
        }
        // The other admins' screens show the new member (and its role's count) at once.
        const log = new ManagedLog(trx);
        await log.members(found.account_id, [userId]);
        await log.roles(found.account_id, [found.role_id]);
        return log.commit(this.clock.now());
      });
      for (const [account, list] of updates) this.feed.publish(account, list);
      this.feed.accessChanged(found.account_id);
    } catch (err) {
      // The same address joined through another link at the same moment: one of them wins.
      if (isUniqueViolation(err, 'users', 'email')) throw invalid();
      throw err;
    }
  }
}
