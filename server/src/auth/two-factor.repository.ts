import type { Db } from '../db/database';
import {
  ROLE_SLUGS,
  SECOND_FACTOR_REQUIREMENTS,
  type SecondFactorRequirement,
} from '@plant/shared-schema';
import { ownMemberships, scopeTo } from '../repositories/account-scope';

/** What `second_factor` holds, read safely (an unknown value counts as the strictest rule). */
export function requirementOf(stored: string): SecondFactorRequirement {
  return (SECOND_FACTOR_REQUIREMENTS as readonly string[]).includes(stored)
    ? (stored as SecondFactorRequirement)
    : 'everyone';
}

/**
 * The second factors' rows (issue 38 item 2). A user's factors are its own rows (by user id,
 * never by an id a client sends beside it); the one account-scoped read is the members list,
 * through `scopeTo`. Every "use once" is one conditional write whose row count decides, so two
 * requests racing with one code or one challenge cannot both pass.
 */
export class TwoFactorRepository {
  constructor(private readonly db: Db) {}

  totp(userId: string) {
    return this.db
      .selectFrom('user_totp')
      .selectAll()
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  /** A new secret, not on yet, in place of an earlier unconfirmed one (never of a confirmed one). */
  async putPendingTotp(userId: string, sealed: string, now: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      await trx
        .deleteFrom('user_totp')
        .where('user_id', '=', userId)
        .where('confirmed_at', 'is', null)
        .execute();
      const on = await trx
        .selectFrom('user_totp')
        .select('user_id')
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (on !== undefined) return false;
      await trx
        .insertInto('user_totp')
        .values({ user_id: userId, sealed_secret: sealed, created_at: now })
        .execute();
      return true;
    });
  }

  /** Turns the pending secret on, its code's step taken. False: none pending (any more). */
  async confirmTotp(trx: Db, userId: string, step: number, now: number): Promise<boolean> {
    const result = await trx
      .updateTable('user_totp')
      .set({ confirmed_at: now, last_step: step })
      .where('user_id', '=', userId)
      .where('confirmed_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows === 1n;
  }

  /** Takes a code's step: only once, and only past the last one taken. */
  async takeStep(userId: string, step: number): Promise<boolean> {
    const result = await this.db
      .updateTable('user_totp')
      .set({ last_step: step })
      .where('user_id', '=', userId)
      .where('confirmed_at', 'is not', null)
      .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
      .executeTakeFirst();
    return result.numUpdatedRows === 1n;
  }

  async deleteTotp(trx: Db, userId: string): Promise<void> {
    await trx.deleteFrom('user_totp').where('user_id', '=', userId).execute();
  }

  async replaceRecoveryCodes(
    trx: Db,
    userId: string,
    rows: readonly { id: string; hash: string }[],
    now: number,
  ): Promise<void> {
    await trx.deleteFrom('user_recovery_codes').where('user_id', '=', userId).execute();
    if (rows.length === 0) return;
    await trx
      .insertInto('user_recovery_codes')
      .values(rows.map((r) => ({ id: r.id, user_id: userId, code_hash: r.hash, created_at: now })))
      .execute();
  }

  async useRecoveryCode(userId: string, hash: string, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('user_recovery_codes')
      .set({ used_at: now })
      .where('user_id', '=', userId)
      .where('code_hash', '=', hash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows === 1n;
  }

  async recoveryCodesLeft(userId: string): Promise<number> {
    const row = await this.db
      .selectFrom('user_recovery_codes')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  passkeys(userId: string) {
    return this.db
      .selectFrom('user_passkeys')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  passkeyOfCredential(credentialId: string) {
    return this.db
      .selectFrom('user_passkeys')
      .selectAll()
      .where('credential_id', '=', credentialId)
      .executeTakeFirst();
  }

  async insertPasskey(row: {
    id: string;
    user_id: string;
    credential_id: string;
    public_key: string;
    algorithm: number;
    sign_count: number;
    transports: string;
    name: string;
    created_at: number;
  }): Promise<void> {
    await this.db.insertInto('user_passkeys').values(row).execute();
  }

  async deletePasskey(trx: Db, userId: string, id: string): Promise<boolean> {
    const result = await trx
      .deleteFrom('user_passkeys')
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .executeTakeFirst();
    return result.numDeletedRows === 1n;
  }

  async deletePasskeys(trx: Db, userId: string): Promise<void> {
    await trx.deleteFrom('user_passkeys').where('user_id', '=', userId).execute();
  }

  /** The counter moves from what was read to the new value: a parallel use of a clone loses. */
  async usePasskey(id: string, from: number, to: number, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('user_passkeys')
      .set({ sign_count: to, last_used_at: now })
      .where('id', '=', id)
      .where('sign_count', '=', from)
      .executeTakeFirst();
    return result.numUpdatedRows === 1n;
  }

  /**
   * A new challenge; the expired ones go (so the table holds only the last minutes' worth), and a
   * user's earlier registration challenges too (one registration at a time).
   */
  async putChallenge(
    hash: string,
    purpose: 'register' | 'sign-in',
    userId: string | null,
    expiresAt: number,
    now: number,
  ): Promise<void> {
    await this.db.deleteFrom('two_factor_challenges').where('expires_at', '<=', now).execute();
    if (userId !== null)
      await this.db
        .deleteFrom('two_factor_challenges')
        .where('user_id', '=', userId)
        .where('purpose', '=', purpose)
        .execute();
    await this.db
      .insertInto('two_factor_challenges')
      .values({ challenge_hash: hash, purpose, user_id: userId, expires_at: expiresAt })
      .execute();
  }

  /** Takes a live challenge once: true only for the one request that deleted it. */
  async takeChallenge(
    hash: string,
    purpose: 'register' | 'sign-in',
    userId: string | null,
    now: number,
  ): Promise<boolean> {
    let query = this.db
      .deleteFrom('two_factor_challenges')
      .where('challenge_hash', '=', hash)
      .where('purpose', '=', purpose)
      .where('expires_at', '>', now);
    query =
      userId === null ? query.where('user_id', 'is', null) : query.where('user_id', '=', userId);
    const result = await query.executeTakeFirst();
    return result.numDeletedRows === 1n;
  }

  async log(
    trx: Db,
    entry: {
      id: string;
      user_id: string;
      actor_id: string;
      account_id: string | null;
      action: string;
      at: number;
    },
  ): Promise<void> {
    await trx.insertInto('two_factor_log').values(entry).execute();
  }

  /**
   * The rules of every account the user works in, with whether it is an admin there: the
   * user's own memberships (`ownMemberships`), never anyone else's.
   */
  async rulesOf(userId: string) {
    const rows = await ownMemberships(this.db, userId)
      .innerJoin('roles', 'roles.id', 'memberships.role_id')
      .innerJoin('accounts', 'accounts.id', 'memberships.account_id')
      .select(['memberships.account_id', 'roles.slug', 'accounts.second_factor'])
      .execute();
    return rows.map((r) => ({
      accountId: r.account_id,
      slug: r.slug,
      requirement: requirementOf(r.second_factor),
    }));
  }

  /** An account's rule; the caller has checked the account is in the user's reach. */
  async requirement(accountId: string): Promise<SecondFactorRequirement> {
    const row = await this.db
      .selectFrom('accounts')
      .select('second_factor')
      .where('id', '=', accountId)
      .executeTakeFirst();
    return requirementOf(row?.second_factor ?? 'nobody');
  }

  async setRequirement(accountId: string, requirement: SecondFactorRequirement): Promise<void> {
    await this.db
      .updateTable('accounts')
      .set({ second_factor: requirement })
      .where('id', '=', accountId)
      .execute();
  }

  /** The ids of the account's admins. */
  async adminsOf(accountId: string): Promise<Set<string>> {
    const rows = await scopeTo(this.db, accountId)
      .selectFrom('memberships')
      .innerJoin('roles', 'roles.id', 'memberships.role_id')
      .where('roles.slug', '=', ROLE_SLUGS.admin)
      .select('memberships.user_id')
      .execute();
    return new Set(rows.map((r) => r.user_id));
  }

  /** The account's members with their factors (the members list's scope). */
  async membersWithFactors(accountId: string) {
    const rows = await scopeTo(this.db, accountId)
      .selectFrom('memberships')
      .innerJoin('users', 'users.id', 'memberships.user_id')
      .leftJoin('user_totp', (join) =>
        join
          .onRef('user_totp.user_id', '=', 'users.id')
          .on('user_totp.confirmed_at', 'is not', null),
      )
      .leftJoin(
        (eb) =>
          eb
            .selectFrom('user_passkeys')
            .select(['user_passkeys.user_id', (e) => e.fn.countAll<number | string>().as('n')])
            .groupBy('user_passkeys.user_id')
            .as('keys'),
        (join) => join.onRef('keys.user_id', '=', 'users.id'),
      )
      .select([
        'users.id',
        'users.firstname',
        'users.lastname',
        'users.email',
        'user_totp.user_id as totp_user',
        'keys.n as passkeys',
      ])
      .distinct()
      .orderBy('users.lastname')
      .orderBy('users.id')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      firstname: r.firstname,
      lastname: r.lastname,
      email: r.email,
      totp: r.totp_user !== null,
      passkeys: Number(r.passkeys ?? 0),
    }));
  }

  /**
   * The log an account's admins read: its own entries (its rule, resets done in it) and its
   * members' own changes (no account), never another account's; the newest `limit`.
   */
  async logOf(accountId: string, limit: number) {
    const members = scopeTo(this.db, accountId)
      .selectFrom('memberships')
      .select('memberships.user_id');
    return this.db
      .selectFrom('two_factor_log as l')
      .innerJoin('users as m', 'm.id', 'l.user_id')
      .innerJoin('users as a', 'a.id', 'l.actor_id')
      .where((eb) =>
        eb.or([
          eb('l.account_id', '=', accountId),
          eb.and([eb('l.account_id', 'is', null), eb('l.user_id', 'in', members)]),
        ]),
      )
      .select([
        'l.id',
        'l.at',
        'l.action',
        'm.id as member_id',
        'm.firstname as member_firstname',
        'm.lastname as member_lastname',
        'm.email as member_email',
        'a.id as actor_id',
        'a.firstname as actor_firstname',
        'a.lastname as actor_lastname',
        'a.email as actor_email',
      ])
      .orderBy('l.at', 'desc')
      .orderBy('l.id', 'desc')
      .limit(limit)
      .execute();
  }
}
