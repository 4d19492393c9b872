import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../db/database';
import type { AccountsTable } from '../db/types';
import { ownMemberships } from './account-scope';

export type AccountRow = Selectable<AccountsTable>;

export class AccountRepository {
  constructor(private readonly db: Db) {}

  /**
   * An account, only if the user is a member of it. Accounts are the tenants themselves: there is
   * no unguarded lookup by id, so another tenant's account cannot be read by guessing its id.
   */
  findForMember(userId: string, accountId: string): Promise<AccountRow | undefined> {
    return this.db
      .selectFrom('accounts')
      .selectAll('accounts')
      .where('accounts.id', '=', accountId)
      .where((eb) =>
        eb.exists(
          ownMemberships(this.db, userId)
            .where('memberships.account_id', '=', accountId)
            .select('memberships.role_id'),
        ),
      )
      .executeTakeFirst();
  }

  /** Whether the database has any account at all (the first start has none). */
  async anyExists(): Promise<boolean> {
    const row = await this.db.selectFrom('accounts').select('id').limit(1).executeTakeFirst();
    return row !== undefined;
  }

  async insert(row: Insertable<AccountsTable>): Promise<void> {
    await this.db.insertInto('accounts').values(row).execute();
  }
}
