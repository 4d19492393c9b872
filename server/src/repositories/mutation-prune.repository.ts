import type { Db } from '../db/database';

/** Retention of applied mutation ids (MutationRepository records and finds them). */
export class MutationPruneRepository {
  constructor(private readonly db: Db) {}

  /**
   * Deletes mutation ids applied before `beforeIso` in every account. Not through `scopeTo`: a
   * retention sweep by age over all accounts, on no account's behalf (as the change log's prune).
   */
  async prune(beforeIso: string): Promise<number> {
    const result = await this.db
      .deleteFrom('applied_mutations')
      .where('created_at', '<', beforeIso)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
