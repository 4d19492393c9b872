import type { Insertable } from 'kysely';
import type { Db } from '../db/database';
import type { PasswordResetsTable } from '../db/types';

export class PasswordResetRepository {
  constructor(private readonly db: Db) {}

  async insert(row: Insertable<PasswordResetsTable>): Promise<void> {
    await this.db.insertInto('password_resets').values(row).execute();
  }

  async isUsable(tokenHash: string, nowIso: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('password_resets')
      .select('id')
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', nowIso)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** After a reset, every other link the user was sent stops working too. */
  async voidAllOfUser(userId: string, nowIso: string): Promise<void> {
    await this.db
      .updateTable('password_resets')
      .set({ used_at: nowIso })
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .execute();
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
