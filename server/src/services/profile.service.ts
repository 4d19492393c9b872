import {
  can,
  DEFAULT_NOTIFICATIONS,
  LANGUAGES,
  notificationSettingsSchema,
  USER_EDIT_PERMISSION,
  type NotificationSettings,
  EMAIL_CHANGE_OWN,
  type UserProfile,
  type UserProfileChange,
} from '@plant/shared-schema';
import { isUniqueViolation, type Db } from '../db/database';
import { isoAt, type Clock } from '../lib/clock';
import { AccountRepository } from '../repositories/account.repository';
import { ChangeLogRepository } from '../repositories/change-log.repository';
import { UserRepository } from '../repositories/user.repository';
import { verifyPassword } from '../lib/secrets';
import type { ChangeFeed } from './change-feed';
import { DomainError, forbidden, invalidInput, notFound } from './domain-error';
import { ManagedLog } from './managed-log';
import type { Session } from './user.service';

const EMAIL_TAKEN = 'This email address is already registered.';

/**
 * A user's details and notification settings (spec 001 §3): the user itself, or a member of the
 * caller's active account with user::view to read and user::edit to change.
 */
export class ProfileService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly feed: ChangeFeed,
  ) {}

  private async reach(session: Session, userId: string, permission: string): Promise<void> {
    if (userId === session.user.id) return;
    const accountId = session.activeAccount?.id;
    if (accountId === undefined || !can(session.ctx, permission)) throw forbidden();
    const held = await new UserRepository(this.db).rolesIn(accountId, userId);
    if (held.length === 0) throw notFound('User');
  }

  private async row(userId: string) {
    const row = await this.db
      .selectFrom('users')
      .select(['firstname', 'lastname', 'email', 'phone', 'language', 'notifications'])
      .where('id', '=', userId)
      .executeTakeFirst();
    if (row === undefined) throw notFound('User');
    return row;
  }

  async profile(session: Session, userId: string): Promise<UserProfile> {
    await this.reach(session, userId, 'user::view');
    const row = await this.row(userId);
    const language = (LANGUAGES as readonly string[]).includes(row.language)
      ? (row.language as UserProfile['language'])
      : 'en';
    return {
      firstname: row.firstname,
      lastname: row.lastname,
      email: row.email,
      phone: row.phone,
      language,
    };
  }

  async setProfile(
    session: Session,
    userId: string,
    change: UserProfileChange,
  ): Promise<UserProfile> {
    await this.reach(session, userId, USER_EDIT_PERMISSION);
    const { password, ...next } = change;
    const current = await new UserRepository(this.db).findById(userId);
    if (current === undefined) throw notFound('User');
    if (next.email !== current.email) {
      // The sign-in moves only by its owner, who proves it with its password.
      if (userId !== session.user.id) throw forbidden(EMAIL_CHANGE_OWN);
      const withHash = await new UserRepository(this.db).findByEmail(current.email);
      if (password === undefined || password === '') {
        throw invalidInput({ password: ['Please enter your password'] });
      }
      if (withHash === undefined || !(await verifyPassword(password, withHash.password_hash))) {
        throw new DomainError('invalid', 'Wrong credentials!', {
          fields: { password: ['Wrong credentials!'] },
        });
      }
    }
    try {
      const updates = await this.db.transaction().execute(async (trx) => {
        // Every account whose log gets the member's new state, locked before it is read.
        const accounts = await new AccountRepository(trx).allForMember(userId);
        await new ChangeLogRepository(trx).lockAll(accounts.map((a) => a.id));
        await trx
          .updateTable('users')
          .set({ ...next, updated_at: isoAt(this.clock.now()) })
          .where('id', '=', userId)
          .execute();
        // Its member model moves in every account it belongs to.
        const log = new ManagedLog(trx);
        await log.memberEverywhere(userId);
        return log.commit(this.clock.now());
      });
      for (const [account, list] of updates) this.feed.publish(account, list);
    } catch (err) {
      if (isUniqueViolation(err, 'users', 'email')) {
        throw new DomainError('invalid', EMAIL_TAKEN, { fields: { email: [EMAIL_TAKEN] } });
      }
      throw err;
    }
    return this.profile(session, userId);
  }

  async notifications(session: Session, userId: string): Promise<NotificationSettings> {
    await this.reach(session, userId, 'user::view');
    const row = await this.row(userId);
    try {
      const parsed = notificationSettingsSchema.safeParse(JSON.parse(row.notifications));
      return parsed.success ? parsed.data : DEFAULT_NOTIFICATIONS;
    } catch {
      return DEFAULT_NOTIFICATIONS;
    }
  }

  async setNotifications(
    session: Session,
    userId: string,
    next: NotificationSettings,
  ): Promise<NotificationSettings> {
    await this.reach(session, userId, USER_EDIT_PERMISSION);
    await this.db
      .updateTable('users')
      .set({
        notifications: JSON.stringify({ ...next, channels: [...new Set(next.channels)] }),
        updated_at: isoAt(this.clock.now()),
      })
      .where('id', '=', userId)
      .execute();
    return this.notifications(session, userId);
  }
}
