import type { Insertable } from 'kysely';
import type { Db } from '../db/database';
import type { PasswordResetsTable } from '../db/types';

export class PasswordResetRepository {
  constructor(private readonly db: Db) {}

  async insert(row: Insertable<PasswordResetsTable>): Promise<void> {
    await this.db.insertInto('password_resets').values(row).execute();
  }

  /**
   * Marks an unused, unexpired reset as used and answers its user. One UPDATE with the conditions in
   * its WHERE: two concurrent resets with the same token cannot both succeed.
   */
  async consume(tokenHash: string, nowIso: string): Promise<string | undefined> {
    const row = await this.db
      .updateTable('password_resets')
      .set({ used_at: nowIso })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', nowIso)
      .returning('user_id')
      .executeTakeFirst();
    return row?.user_id;
  }
}
