import { uuidv7 } from '@plant/shared-schema';
import type { Db } from '../db/database';
import type { SecurityInsightDismissalsTable } from '../db/types';
import { scopeTo } from '../repositories/account-scope';

export type DismissalRow = Omit<SecurityInsightDismissalsTable, 'account_id'>;

/** One check in a daily snapshot. */
export interface SnapshotCheck {
  readonly state: 'passing' | 'failing' | 'dismissed';
  readonly count: number;
}

/**
 * Dismissals, their log, the daily snapshots and the weekly digests' claims of security insights.
 * Every query of one account goes through its scope; the leader's lists (accounts without today's
 * snapshot or this week's digest) and its pruning read across accounts on purpose.
 */
export class InsightsRepository {
  constructor(private readonly db: Db) {}

  /** The account's dismissals that last beyond `now`. */
  async liveDismissals(accountId: string, now: number): Promise<DismissalRow[]> {
    const rows = await scopeTo(this.db, accountId)
      .selectFrom('security_insight_dismissals')
      .select(['check_id', 'reason', 'expires_at', 'by_user', 'at'])
      .where('expires_at', '>', now)
      .execute();
    return rows.map((r) => ({ ...r, expires_at: Number(r.expires_at), at: Number(r.at) }));
  }

  /** Dismisses a check (or changes its dismissal), logged in the same transaction. */
  async dismiss(accountId: string, row: DismissalRow): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const scope = scopeTo(trx, accountId);
      await scope
        .insertInto('security_insight_dismissals', [row])
        .onConflict((oc) =>
          oc.columns(['account_id', 'check_id']).doUpdateSet({
            reason: row.reason,
            expires_at: row.expires_at,
            by_user: row.by_user,
            at: row.at,
          }),
        )
        .execute();
      await scope
        .insertInto('security_insight_log', [
          {
            id: uuidv7(row.at),
            check_id: row.check_id,
            action: 'dismissed',
            reason: row.reason,
            expires_at: row.expires_at,
            actor_id: row.by_user,
            at: row.at,
          },
        ])
        .execute();
    });
  }

  /** Takes back a live dismissal, logged; answers whether there was one. */
  async restore(
    accountId: string,
    checkId: string,
    actorId: string,
    now: number,
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const scope = scopeTo(trx, accountId);
      const gone = await scope
        .deleteFrom('security_insight_dismissals')
        .where('check_id', '=', checkId)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      if (Number(gone.numDeletedRows) === 0) return false;
      await scope
        .insertInto('security_insight_log', [
          {
            id: uuidv7(now),
            check_id: checkId,
            action: 'restored',
            reason: null,
            expires_at: null,
            actor_id: actorId,
            at: now,
          },
        ])
        .execute();
      return true;
    });
  }

  /** Names of users by id (who dismissed): first and last name. */
  async namesOf(userIds: readonly string[]): Promise<Map<string, string>> {
    if (userIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('users')
      .select(['id', 'firstname', 'lastname'])
      .where('id', 'in', userIds)
      .execute();
    return new Map(rows.map((r) => [r.id, `${r.firstname} ${r.lastname}`.trim()]));
  }

  /** The account's daily snapshots from `fromDay` on, oldest first. */
  async snapshots(
    accountId: string,
    fromDay: string,
  ): Promise<{ day: string; checks: Record<string, SnapshotCheck> }[]> {
    const rows = await scopeTo(this.db, accountId)
      .selectFrom('security_insight_snapshots')
      .select(['day', 'checks'])
      .where('day', '>=', fromDay)
      .orderBy('day')
      .execute();
    return rows.map((r) => ({
      day: r.day,
      checks: JSON.parse(r.checks) as Record<string, SnapshotCheck>,
    }));
  }

  async saveSnapshot(
    accountId: string,
    day: string,
    checks: Record<string, SnapshotCheck>,
    takenAt: number,
  ): Promise<void> {
    await scopeTo(this.db, accountId)
      .insertInto('security_insight_snapshots', [
        { day, checks: JSON.stringify(checks), taken_at: takenAt },
      ])
      .onConflict((oc) => oc.columns(['account_id', 'day']).doNothing())
      .execute();
  }

  /** Active accounts without a snapshot of this day (across accounts: the leader's list). */
  async accountsWithoutSnapshot(day: string): Promise<{ id: string; name: string }[]> {
    return this.db
      .selectFrom('accounts')
      .select(['id', 'name'])
      .where('active', '=', 1)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('security_insight_snapshots')
              .select('day')
              .whereRef('security_insight_snapshots.account_id', '=', 'accounts.id')
              .where('security_insight_snapshots.day', '=', day),
          ),
        ),
      )
      .orderBy('id')
      .execute();
  }

  /** Active accounts whose digest of this week is not claimed yet, and whether any was before. */
  async accountsWithoutDigest(
    week: string,
  ): Promise<{ id: string; name: string; before: boolean }[]> {
    const rows = await this.db
      .selectFrom('accounts')
      .select((eb) => [
        'accounts.id',
        'accounts.name',
        eb
          .exists(
            eb
              .selectFrom('security_insight_digests')
              .select('week')
              .whereRef('security_insight_digests.account_id', '=', 'accounts.id'),
          )
          .as('before'),
      ])
      .where('active', '=', 1)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('security_insight_digests')
              .select('week')
              .whereRef('security_insight_digests.account_id', '=', 'accounts.id')
              .where('security_insight_digests.week', '=', week),
          ),
        ),
      )
      .orderBy('accounts.id')
      .execute();
    return rows.map((r) => ({ id: r.id, name: r.name, before: Boolean(r.before) }));
  }

  /** Claims the account's digest of the week: true for the one caller that inserted it. */
  async claimDigest(accountId: string, week: string, at: number): Promise<boolean> {
    const result = await scopeTo(this.db, accountId)
      .insertInto('security_insight_digests', [{ week, sent_at: at }])
      .onConflict((oc) => oc.columns(['account_id', 'week']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
  }

  /** The admins of the account (their ids and addresses). */
  async admins(accountId: string): Promise<{ id: string; email: string }[]> {
    const rows = await scopeTo(this.db, accountId)
      .selectFrom('memberships')
      .innerJoin('roles', 'roles.id', 'memberships.role_id')
      .innerJoin('users', 'users.id', 'memberships.user_id')
      .select(['users.id', 'users.email'])
      .where('roles.slug', '=', 'admin')
      .distinct()
      .execute();
    return rows;
  }

  /** What outlived its use: snapshots and logs past their keeping, ended dismissals, old claims. */
  async prune(beforeDay: string, beforeMs: number, now: number): Promise<void> {
    await this.db.deleteFrom('security_insight_snapshots').where('day', '<', beforeDay).execute();
    await this.db.deleteFrom('security_insight_log').where('at', '<', beforeMs).execute();
    await this.db
      .deleteFrom('security_insight_dismissals')
      .where('expires_at', '<=', now)
      .execute();
    await this.db.deleteFrom('security_insight_digests').where('sent_at', '<', beforeMs).execute();
    // A token's last use goes with the token: revoked or expired tokens are weighed no more.
    await this.db
      .deleteFrom('security_token_uses')
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('access_tokens')
              .select('access_tokens.id')
              .whereRef('access_tokens.id', '=', 'security_token_uses.token_id')
              .where('access_tokens.revoked_at', 'is', null),
          ),
        ),
      )
      .execute();
  }
}
