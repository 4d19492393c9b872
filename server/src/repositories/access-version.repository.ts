import type { CompiledQuery } from 'kysely';
import { accessVersionNow, type Db } from '../db/database';

/**
 * The access version (see migration 20261122000100): read on every signed-in request, so the
 * query is built and compiled once.
 */
export class AccessVersionRepository {
  private readonly query: CompiledQuery<{ v: number }>;

  constructor(private readonly db: Db) {
    this.query = db.selectFrom('access_version').select('v').where('id', '=', 1).compile();
  }

  async current(): Promise<number> {
    const now = accessVersionNow(this.db);
    if (now !== undefined) return now;
    const { rows } = await this.db.executeQuery(this.query);
    const v = rows[0]?.v;
    if (v === undefined) throw new Error('access_version row is missing: migrations did not run');
    return v;
  }
}
