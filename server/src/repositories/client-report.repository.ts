import type { Insertable } from 'kysely';
import type { Db } from '../db/database';
import type { ClientErrorsTable } from '../db/types';

/** What browsers report: failed requests (push subscriptions: push-subscription.repository). */
export class ClientReportRepository {
  constructor(private readonly db: Db) {}

  async insertError(row: Insertable<ClientErrorsTable>): Promise<void> {
    await this.db.insertInto('client_errors').values(row).execute();
  }
}
