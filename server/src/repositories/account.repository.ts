import type { Insertable, OperandValueExpressionOrList, Selectable } from 'kysely';
import type { Db } from '../db/database';
import type { AccountsTable, Database } from '../db/types';
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

  /**
   * The account whose help centre the help centre's own host shows (issue 33 item 6): the one
   * named by HELPCENTER_ACCOUNT when it exists, else the installation's first top-level account
   * (the machine builder's). Its id only: the host shows its published articles, nothing else.
   */
  async helpCentreAccount(named: string | undefined): Promise<string | undefined> {
    let query = this.db.selectFrom('accounts').select('id');
    query =
      named === undefined
        ? query.where('parent_id', 'is', null).orderBy('created_at').orderBy('id')
        : query.where('id', '=', named);
    return (await query.limit(1).executeTakeFirst())?.id;
  }

  /**
   * The account and every account above it, nearest first: where a change of the account is
   * logged (DESIGN.md §5; each of those accounts' admins may see it in their tree). The caller
   * already decided the account may be changed; nothing here answers a request directly.
   */
  async chainUp(accountId: string): Promise<AccountRow[]> {
    const chain: AccountRow[] = [];
    const seen = new Set<string>();
    for (let at: string | null = accountId; at !== null && !seen.has(at);) {
      seen.add(at);
      const row: AccountRow | undefined = await this.db
        .selectFrom('accounts')
        .selectAll('accounts')
        .where('accounts.id', '=', at)
        .executeTakeFirst();
      if (row === undefined) break;
      chain.push(row);
      at = row.parent_id;
    }
    return chain;
  }

  /** Every account below this one (its subtree, without it): for logging a move. */
  below(accountId: string): Promise<AccountRow[]> {
    return this.subtreeUnder([accountId]).orderBy('accounts.id').execute();
  }

  /** The accounts whose parent is one of `parents`, their children, and so on. */
  private subtreeUnder(
    parents: OperandValueExpressionOrList<Database, 'accounts', 'accounts.parent_id'>,
  ) {
    return this.db
      .withRecursive('below(id)', (qb) =>
        qb
          .selectFrom('accounts')
          .select('accounts.id')
          .where('accounts.parent_id', 'in', parents)
          // union, not union all: a cycle in parent_id (never written, but never trusted) ends.
          .union((eb) =>
            eb
              .selectFrom('accounts')
              .innerJoin('below', 'below.id', 'accounts.parent_id')
              .select('accounts.id'),
          ),
      )
      .selectFrom('accounts')
      .selectAll('accounts')
      .where('accounts.id', 'in', (eb) => eb.selectFrom('below').select('below.id'));
  }

  /** Every account the user is a member of (through any role, norole too), by name. */
  allForMember(userId: string): Promise<AccountRow[]> {
    return this.db
      .selectFrom('accounts')
      .selectAll('accounts')
      .where('accounts.id', 'in', ownMemberships(this.db, userId).select('memberships.account_id'))
      .orderBy('accounts.name')
      .orderBy('accounts.id')
      .execute();
  }

  /**
   * Every account below the given ones (children, their children, …), by name. Only the given
   * accounts the user is a member of count as starting points: whatever the caller passes, the
   * answer stays inside the subtrees of the user's own accounts. Deciding which of its accounts
   * open their subtree (account::view) is the caller's rule.
   */
  descendantsForMember(userId: string, accountIds: readonly string[]): Promise<AccountRow[]> {
    if (accountIds.length === 0) return Promise.resolve([]);
    return this.subtreeUnder(
      ownMemberships(this.db, userId)
        .where('memberships.account_id', 'in', accountIds)
        .select('memberships.account_id'),
    )
      .orderBy('accounts.name')
      .orderBy('accounts.id')
      .execute();
  }

  /**
   * Whether the account is active. For machine clients (gateway agents), whose verified
   * credential already names the account: no user membership to check, only the state.
   */
  async isActive(accountId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('accounts')
      .select('active')
      .where('id', '=', accountId)
      .executeTakeFirst();
    return row?.active === 1;
  }

  /** How long each account keeps values, in days (the value pruner's hourly round). */
  async valueRetention(): Promise<Map<string, number>> {
    const rows = await this.db
      .selectFrom('accounts')
      .select(['id', 'value_retention_days'])
      .execute();
    return new Map(rows.map((r) => [r.id, r.value_retention_days]));
  }

  async valueRetentionOf(accountId: string): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('accounts')
      .select('value_retention_days')
      .where('id', '=', accountId)
      .executeTakeFirst();
    return row?.value_retention_days;
  }

  async setValueRetention(accountId: string, days: number): Promise<void> {
    await this.db
      .updateTable('accounts')
      .set({ value_retention_days: days })
      .where('id', '=', accountId)
      .execute();
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
