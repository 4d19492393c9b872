import type { Insertable } from 'kysely';
import type { Db } from '../db/database';
import type { ClientErrorsTable, PushSubscriptionsTable } from '../db/types';

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
    return saved.id;
  }
}
