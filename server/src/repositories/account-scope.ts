import {
  sql,
  type DeleteQueryBuilder,
  type DeleteResult,
  type Insertable,
  type InsertQueryBuilder,
  type InsertResult,
  type SelectQueryBuilder,
  type UpdateQueryBuilder,
  type UpdateResult,
} from 'kysely';
import type { Db } from '../db/database';
import type { Database } from '../db/types';

/** Tables whose rows belong to exactly one account (an `account_id` column that is never null). */
export type AccountScopedTable = {
  [T in keyof Database]: Database[T] extends { account_id: string } ? T : never;
}[keyof Database];

/**
 * Tenant isolation lives here, once (DESIGN.md invariant 7). Every read, update and delete of an
 * account-scoped table goes through a scope, which adds `account_id = ?` to the query; a repository
 * never writes that condition itself. A scope is made from an account id the caller has already been
 * checked against (its active account, or one it is a member of).
 */
export class AccountScope {
  constructor(
    private readonly db: Db,
    readonly accountId: string,
  ) {}

  // kysely's builders resolve a generic table name to a union of builders, whose `where` overloads
  // cannot be called; the casts name the one builder that the table parameter stands for.
  selectFrom<T extends AccountScopedTable>(table: T): SelectQueryBuilder<Database, T, object> {
    const qb = this.db.selectFrom(table) as unknown as SelectQueryBuilder<Database, T, object>;
    return qb.where(this.belongs(table));
  }

  updateTable<T extends AccountScopedTable>(
    table: T,
  ): UpdateQueryBuilder<Database, T, T, UpdateResult> {
    const qb = this.db.updateTable(table) as unknown as UpdateQueryBuilder<
      Database,
      T,
      T,
      UpdateResult
    >;
    return qb.where(this.belongs(table));
  }

  deleteFrom<T extends AccountScopedTable>(
    table: T,
  ): DeleteQueryBuilder<Database, T, DeleteResult> {
    const qb = this.db.deleteFrom(table) as unknown as DeleteQueryBuilder<
      Database,
      T,
      DeleteResult
    >;
    return qb.where(this.belongs(table));
  }

  /** Inserts rows into this account: the account id comes from the scope, never from the caller. */
  insertInto<T extends AccountScopedTable>(
    table: T,
    rows: readonly Omit<Insertable<Database[T]>, 'account_id'>[],
  ): InsertQueryBuilder<Database, T, InsertResult> {
    const qb = this.db.insertInto(table);
    const values = rows.map((row) => ({ ...row, account_id: this.accountId }));
    return qb.values(values as unknown as Insertable<Database[T]>[]);
  }

  private belongs(table: AccountScopedTable) {
    return sql<boolean>`${sql.ref(`${table}.account_id`)} = ${this.accountId}`;
  }

  /** Tags may be global (account_id null): those are visible in every account. */
  selectTags() {
    return this.db
      .selectFrom('tags')
      .where((eb) =>
        eb.or([eb('tags.account_id', '=', this.accountId), eb('tags.account_id', 'is', null)]),
      );
  }
}

export function scopeTo(db: Db, accountId: string): AccountScope {
  return new AccountScope(db, accountId);
}

/**
 * The one other legitimate way into memberships: a user's own rows across all its accounts (the
 * accounts it may switch to, the roles it holds). It never reveals anyone else's membership.
 */
export function ownMemberships(db: Db, userId: string) {
  return db.selectFrom('memberships').where('memberships.user_id', '=', userId);
}
