import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../db/database';
import type { PushSubscriptionsTable } from '../db/types';

export const MAX_PUSH_SUBSCRIPTIONS_PER_USER = 20;

export type PushSubscriptionRow = Selectable<PushSubscriptionsTable>;

/**
 * Browsers' web-push subscriptions (POST/DELETE subscriptions). They belong to a user, not to an
 * account: a user's alarms of any account reach the same browsers.
 */
export class PushSubscriptionRepository {
  constructor(private readonly db: Db) {}

  /**
   * One row per endpoint (a browser profile's push channel): sending it again updates its keys,
   * and an endpoint subscribed by another user moves to that user.
   */
  async upsert(row: Insertable<PushSubscriptionsTable>): Promise<string> {
    const saved = await this.db
      .insertInto('push_subscriptions')
      .values(row)
      .onConflict((oc) =>
        oc.column('endpoint').doUpdateSet({
          user_id: row.user_id,
          public_key: row.public_key,
          auth_token: row.auth_token,
          content_encoding: row.content_encoding,
          device_type: row.device_type ?? null,
          device_brand: row.device_brand ?? null,
          token_id: row.token_id ?? null,
          updated_at: row.updated_at,
        }),
      )
      .returning('id')
      .executeTakeFirstOrThrow();
    // A user's browsers come and go; the newest MAX_PUSH_SUBSCRIPTIONS_PER_USER are kept.
    await this.db
      .deleteFrom('push_subscriptions')
      .where('user_id', '=', row.user_id)
      .where(
        'id',
        'not in',
        this.db
          .selectFrom('push_subscriptions')
          .select('id')
          .where('user_id', '=', row.user_id)
          .orderBy('updated_at', 'desc')
          .orderBy('id', 'desc')
          .limit(MAX_PUSH_SUBSCRIPTIONS_PER_USER),
      )
      .execute();
    return saved.id;
  }

  /** Ends the subscriptions sent with this sign-in (its sign-out). */
  async removeOfToken(tokenId: string): Promise<void> {
    await this.db.deleteFrom('push_subscriptions').where('token_id', '=', tokenId).execute();
  }

  /** Ends the user's subscription of one endpoint; another user's is left alone. */
  async removeOwn(userId: string, endpoint: string): Promise<void> {
    await this.db
      .deleteFrom('push_subscriptions')
      .where('user_id', '=', userId)
      .where('endpoint', '=', endpoint)
      .execute();
  }

  forUser(userId: string): Promise<PushSubscriptionRow[]> {
    return this.db
      .selectFrom('push_subscriptions')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute();
  }

  /** A subscription the push service said is gone (404/410), or one that can never be used. */
  async remove(id: string): Promise<void> {
    await this.db.deleteFrom('push_subscriptions').where('id', '=', id).execute();
  }

  async markUsed(id: string, at: string): Promise<void> {
    await this.db
      .updateTable('push_subscriptions')
      .set({ last_used_at: at })
      .where('id', '=', id)
      .execute();
  }
}
