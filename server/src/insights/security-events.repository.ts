import { sha256 } from '../lib/secrets';
import type { Db } from '../db/database';
import { scopeTo } from '../repositories/account-scope';

/** One stored counter: a kind's day total (dim and key '') or one of its keys. */
export interface EventCountRow {
  readonly day: string;
  readonly kind: string;
  readonly dim: string;
  readonly key: string;
  readonly count: number;
}

/** Who a broker credential named at CONNECT belongs to, as stored (live or not). */
export type BrokerOwner =
  | { readonly kind: 'gateway'; readonly accountId: string; readonly revokedMatch: boolean }
  | { readonly kind: 'browser'; readonly accountId: string; readonly userId: string };

/**
 * The counters of security events and the facts the recorder needs to place an event in its
 * account. The lookups by e-mail, gateway and broker user name read across accounts on purpose:
 * an event names a person or a gateway, never an account, and the answer is where it belongs.
 */
export class SecurityEventsRepository {
  constructor(private readonly db: Db) {}

  /** The accounts where the user of this e-mail address holds a role (none: no such user). */
  async accountsOfEmail(email: string): Promise<{ userId: string; accountIds: string[] }> {
    const rows = await this.db
      .selectFrom('users')
      .leftJoin('memberships', 'memberships.user_id', 'users.id')
      .select(['users.id as user_id', 'memberships.account_id'])
      .where('users.email', '=', email)
      .execute();
    const userId = rows[0]?.user_id ?? '';
    const accountIds = [
      ...new Set(rows.map((r) => r.account_id).filter((a): a is string => a !== null)),
    ];
    return { userId, accountIds };
  }

  /**
   * The account of the broker user name a refused CONNECT named: a gateway's (and whether the
   * password is one of its revoked keys) or a browser credential's, whatever their state.
   */
  async brokerOwner(
    username: string,
    gatewayId: string | undefined,
    password: Buffer,
  ): Promise<BrokerOwner | undefined> {
    if (gatewayId !== undefined) {
      const rows = await this.db
        .selectFrom('gateway_credentials')
        .select(['account_id', 'secret_hash', 'revoked_at'])
        .where('gateway_id', '=', gatewayId)
        .execute();
      const first = rows[0];
      if (first === undefined) return undefined;
      const hash = sha256(password.toString('utf8'));
      const revokedMatch = rows.some((r) => r.revoked_at !== null && r.secret_hash === hash);
      return { kind: 'gateway', accountId: first.account_id, revokedMatch };
    }
    const row = await this.db
      .selectFrom('browser_credentials')
      .select(['account_id', 'user_id'])
      .where('username', '=', username)
      .executeTakeFirst();
    return row === undefined
      ? undefined
      : { kind: 'browser', accountId: row.account_id, userId: row.user_id };
  }

  /** The stored counters of one account, day and kind. */
  kindOfDay(accountId: string, day: string, kind: string): Promise<EventCountRow[]> {
    return scopeTo(this.db, accountId)
      .selectFrom('security_event_counts')
      .select(['day', 'kind', 'dim', 'key', 'count'])
      .where('day', '=', day)
      .where('kind', '=', kind)
      .execute();
  }

  /**
   * Writes one account's day of one kind: adds to the counters named, sets the keyed ones the
   * caller reworked (the top list), deletes those it dropped. One transaction: a reader sees the
   * day before or after, and a day's keys never pass their bound.
   */
  async writeDay(
    accountId: string,
    day: string,
    kind: string,
    change: {
      readonly total: number;
      readonly set: readonly { dim: string; key: string; count: number }[];
      readonly drop: readonly { dim: string; key: string }[];
    },
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const scope = scopeTo(trx, accountId);
      await scope
        .insertInto('security_event_counts', [{ day, kind, dim: '', key: '', count: change.total }])
        .onConflict((oc) =>
          oc.columns(['account_id', 'day', 'kind', 'dim', 'key']).doUpdateSet((eb) => ({
            count: eb('security_event_counts.count', '+', eb.ref('excluded.count')),
          })),
        )
        .execute();
      for (const row of change.drop) {
        await scope
          .deleteFrom('security_event_counts')
          .where('day', '=', day)
          .where('kind', '=', kind)
          .where('dim', '=', row.dim)
          .where('key', '=', row.key)
          .execute();
      }
      for (const row of change.set) {
        await scope
          .insertInto('security_event_counts', [{ day, kind, ...row }])
          .onConflict((oc) =>
            oc
              .columns(['account_id', 'day', 'kind', 'dim', 'key'])
              .doUpdateSet({ count: row.count }),
          )
          .execute();
      }
    });
  }

  /** Every counter of the account from `fromDay` on (UTC days as text sort in order). */
  since(accountId: string, fromDay: string): Promise<EventCountRow[]> {
    return scopeTo(this.db, accountId)
      .selectFrom('security_event_counts')
      .select(['day', 'kind', 'dim', 'key', 'count'])
      .where('day', '>=', fromDay)
      .execute();
  }

  /** A scoped token was used now (written at most hourly by the caller). */
  async tokenUsed(tokenId: string, at: number): Promise<void> {
    await this.db
      .insertInto('security_token_uses')
      .values({ token_id: tokenId, last_used_at: at })
      .onConflict((oc) => oc.column('token_id').doUpdateSet({ last_used_at: at }))
      .execute();
  }

  /** Counters of days before `beforeDay` go (every account's: the leader's pruning). */
  async pruneBefore(beforeDay: string): Promise<number> {
    const result = await this.db
      .deleteFrom('security_event_counts')
      .where('day', '<', beforeDay)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
