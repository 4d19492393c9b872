import type { Db } from '../db/database';
import { scopeTo } from './account-scope';

/** Client mutation ids already applied in an account, with the answer each got. */
export class MutationRepository {
  constructor(private readonly db: Db) {}

  find(accountId: string, mutationId: string) {
    return scopeTo(this.db, accountId)
      .selectFrom('applied_mutations')
      .select(['status', 'response', 'op', 'user_id', 'asset_checks'])
      .where('mutation_id', '=', mutationId)
      .executeTakeFirst();
  }

  async record(
    accountId: string,
    row: {
      mutation_id: string;
      op: string;
      status: number;
      response: string;
      created_at: string;
      user_id: string | null;
      asset_checks: string;
    },
  ) {
    await scopeTo(this.db, accountId).insertInto('applied_mutations', [row]).execute();
  }
}
