import { uuidv7 } from '@plant/shared-schema';
import type { Selectable } from 'kysely';
import type { Db } from '../db/database';
import type { AlarmRecipientInvitesTable } from '../db/types';
import { scopeTo } from '../repositories/account-scope';

export type InviteRow = Selectable<AlarmRecipientInvitesTable>;

/**
 * Recipient invitations (spec 001 §3): one row per account and outside address. The mail
 * outbox reads (`dueMails`) and the token lookup go across accounts on purpose: the first is the
 * server's own queue, the second is how an unsigned link finds its invitation (by the token's
 * hash only); everything else is scoped to the row's account.
 */
export class RecipientInviteRepository {
  constructor(private readonly db: Db) {}

  /** The invitations of these addresses in the account, by address. */
  async byEmails(accountId: string, emails: readonly string[]): Promise<Map<string, InviteRow>> {
    const out = new Map<string, InviteRow>();
    if (emails.length === 0) return out;
    const rows = await scopeTo(this.db, accountId)
      .selectFrom('alarm_recipient_invites')
      .selectAll()
      .where('email', 'in', emails)
      .execute();
    for (const r of rows) out.set(r.email, r);
    return out;
  }

  /**
   * Invites the addresses not invited yet (an address invited before, whatever it answered,
   * stays as it is): one row per account and address, so two processes make one.
   */
  async ensure(accountId: string, emails: readonly string[], now: number): Promise<void> {
    if (emails.length === 0) return;
    await scopeTo(this.db, accountId)
      .insertInto(
        'alarm_recipient_invites',
        emails.map((email) => ({
          id: uuidv7(now),
          email,
          token_hash: null,
          state: 'pending' as const,
          created_at: now,
          mail_state: 'waiting' as const,
          mail_due_at: now,
          mail_attempts: 0,
        })),
      )
      .onConflict((oc) => oc.columns(['account_id', 'email']).doNothing())
      .execute();
  }

  /** Invitation mails due: waiting and due, or sending by a claim whose lease ran out. */
  dueMails(now: number, limit: number): Promise<InviteRow[]> {
    return this.db
      .selectFrom('alarm_recipient_invites')
      .selectAll()
      .where('state', '=', 'pending')
      .where((eb) =>
        eb.or([
          eb.and([eb('mail_state', '=', 'waiting'), eb('mail_due_at', '<=', now)]),
          eb.and([eb('mail_state', '=', 'sending'), eb('lease_until', '<', now)]),
        ]),
      )
      .orderBy('mail_due_at')
      .limit(limit)
      .execute();
  }

  /**
   * Claims an invitation's mail with a new token (compare-and-set on the row as read): the token
   * of a mail that may not have gone out is never valid beside the new one.
   */
  async claimMail(row: InviteRow, tokenHash: string, leaseUntil: number): Promise<boolean> {
    const result = await scopeTo(this.db, row.account_id)
      .updateTable('alarm_recipient_invites')
      .set({
        mail_state: 'sending',
        token_hash: tokenHash,
        lease_until: leaseUntil,
        mail_attempts: row.mail_attempts + 1,
      })
      .where('id', '=', row.id)
      .where('state', '=', 'pending')
      .where('mail_state', '=', row.mail_state)
      .where('mail_attempts', '=', row.mail_attempts)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async finishMail(
    row: InviteRow,
    tokenHash: string,
    values: Pick<InviteRow, 'mail_state' | 'mail_error'> & { mail_due_at?: number },
  ): Promise<void> {
    await scopeTo(this.db, row.account_id)
      .updateTable('alarm_recipient_invites')
      .set({ ...values, lease_until: null })
      .where('id', '=', row.id)
      .where('token_hash', '=', tokenHash)
      .where('mail_state', '=', 'sending')
      .execute();
  }

  /** The invitation a link's token names, with its account's name. */
  byTokenHash(tokenHash: string) {
    return this.db
      .selectFrom('alarm_recipient_invites')
      .innerJoin('accounts', 'accounts.id', 'alarm_recipient_invites.account_id')
      .selectAll('alarm_recipient_invites')
      .select('accounts.name as account_name')
      .where('alarm_recipient_invites.token_hash', '=', tokenHash)
      .executeTakeFirst();
  }

  /** Answers a pending invitation (compare-and-set: a link is answered once). */
  async answer(
    accountId: string,
    id: string,
    state: 'confirmed' | 'declined',
    now: number,
  ): Promise<boolean> {
    const result = await scopeTo(this.db, accountId)
      .updateTable('alarm_recipient_invites')
      .set({ state, answered_at: now })
      .where('id', '=', id)
      .where('state', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
