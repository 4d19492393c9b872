import type { Db } from '../db/database';
import { scopeTo } from './account-scope';

/**
 * The per-account clock and the model-update log. `take` must run inside the transaction that
 * makes the change: SQLite's single writer keeps concurrent writers of one account in line, so
 * seq stays gapless and unique, and a rolled-back change gives its numbers back.
 */
export class ChangeLogRepository {
  constructor(private readonly db: Db) {}

  async clock(accountId: string): Promise<{ seq: number; ts: number }> {
    const row = await this.db
      .selectFrom('account_clocks')
      .select(['seq', 'ts'])
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return row ?? { seq: 0, ts: 0 };
  }

  /** Hands out `count` numbers: seq gapless from the last one, ts strictly increasing (ms). */
  async take(accountId: string, count: number, nowMs: number) {
    const last = await this.clock(accountId);
    const stamps = Array.from({ length: count }, (_, i) => ({
      seq: last.seq + i + 1,
      ts: Math.max(nowMs, last.ts + 1) + i,
    }));
    const end = stamps.at(-1) ?? last;
    await this.db
      .insertInto('account_clocks')
      .values({ account_id: accountId, seq: end.seq, ts: end.ts })
      .onConflict((oc) => oc.column('account_id').doUpdateSet({ seq: end.seq, ts: end.ts }))
      .execute();
    return stamps;
  }

  async append(
    accountId: string,
    rows: readonly { seq: number; ts: number; muid: string; msg: string }[],
  ): Promise<void> {
    // In chunks: SQLite takes at most 32,766 bound values a statement, and a cascade delete of a
    // large asset logs one row (five values) per removed model.
    for (let i = 0; i < rows.length; i += 500) {
      await scopeTo(this.db, accountId)
        .insertInto('model_updates', rows.slice(i, i + 500))
        .execute();
    }
  }

  /** Updates after `fromTs`, oldest first, at most `limit`. */
  readFrom(accountId: string, fromTs: number, limit: number) {
    return scopeTo(this.db, accountId)
      .selectFrom('model_updates')
      .select(['ts', 'seq', 'msg'])
      .where('ts', '>', fromTs)
      .orderBy('seq')
      .limit(limit)
      .execute();
  }

  /** The oldest update still kept, if any. */
  async oldest(accountId: string): Promise<{ ts: number; seq: number } | undefined> {
    return scopeTo(this.db, accountId)
      .selectFrom('model_updates')
      .select(['ts', 'seq'])
      .orderBy('seq')
      .limit(1)
      .executeTakeFirst();
  }

  /** Drops updates older than `beforeTs` in every account (retention). */
  async prune(beforeTs: number): Promise<number> {
    const result = await this.db
      .deleteFrom('model_updates')
      .where('ts', '<', beforeTs)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
