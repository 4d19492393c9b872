import type { Insertable } from 'kysely';
import type { Db } from '../db/database';
import type { ClientErrorsTable, PushSubscriptionsTable } from '../db/types';

export const MAX_PUSH_SUBSCRIPTIONS_PER_USER = 20;

/** What browsers report: failed requests and push subscriptions. */
export class ClientReportRepository {
  constructor(private readonly db: Db) {}

  async insertError(row: Insertable<ClientErrorsTable>): Promise<void> {
    await this.db.insertInto('client_errors').values(row).execute();
  }

  /** One row per user and browser (the endpoint names the browser's push channel). */
  async upsertPushSubscription(row: Insertable<PushSubscriptionsTable>): Promise<string> {
    const saved = await this.db
      .insertInto('push_subscriptions')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['user_id', 'endpoint']).doUpdateSet({
          public_key: row.public_key,
          auth_token: row.auth_token,
          content_encoding: row.content_encoding,
          device_type: row.device_type ?? null,
          device_brand: row.device_brand ?? null,
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
}
