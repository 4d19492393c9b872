import { sql } from 'kysely';
import { uuidv7, type ModelUpdate } from '@plant/shared-schema';
import { databaseKind, type Db } from '../db/database';
import { scopeTo } from './account-scope';

/**
 * The per-account clock and the model-update log. `take` must run inside the transaction that
 * makes the change. It moves the clock in one upsert, which locks the account's clock row until
 * that transaction ends: concurrent writers of one account, in this process or another (SQLite's
 * single writer, Postgres's row lock), wait in line, so seq stays gapless and unique, and a
 * rolled-back change gives its numbers back.
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

  /**
   * Locks the account's clock row until the caller's transaction ends, before it reads what it
   * will change: writers of one account then go one at a time from their first read, in every
   * process, so no write reads a model another is changing, and a reused mutation id is seen by
   * the second writer. Postgres only: SQLite's one connection runs one transaction at a time.
   */
  async lock(accountId: string): Promise<void> {
    if (databaseKind(this.db) !== 'postgres') return;
    await this.db
      .insertInto('account_clocks')
      .values({ account_id: accountId, seq: 0, ts: 0 })
      .onConflict((oc) =>
        oc.column('account_id').doUpdateSet({ seq: sql<number>`account_clocks.seq` }),
      )
      .execute();
  }

  /**
   * Locks several accounts' clocks (a change logged in each of them), always in id order: two
   * writers that need overlapping sets then wait in line instead of deadlocking.
   */
  async lockAll(accountIds: Iterable<string>): Promise<void> {
    for (const id of [...new Set(accountIds)].sort()) await this.lock(id);
  }

  /** Hands out `count` numbers: seq gapless from the last one, ts strictly increasing (ms). */
  async take(accountId: string, count: number, nowMs: number) {
    // The last ts handed out becomes max(now, last + 1) + count - 1, written without max() (its
    // name differs between the two engines).
    const end = await this.db
      .insertInto('account_clocks')
      .values({ account_id: accountId, seq: count, ts: nowMs + count - 1 })
      .onConflict((oc) =>
        oc.column('account_id').doUpdateSet({
          seq: sql<number>`account_clocks.seq + ${count}`,
          ts: sql<number>`case when account_clocks.ts + 1 > ${nowMs}
            then account_clocks.ts + ${count} else ${nowMs + count - 1} end`,
        }),
      )
      .returning(['seq', 'ts'])
      .executeTakeFirstOrThrow();
    return Array.from({ length: count }, (_, i) => ({
      seq: end.seq - count + 1 + i,
      ts: end.ts - count + 1 + i,
    }));
  }

  /**
   * Stamps the drafts with the account's next seq and ts numbers (in order) and appends them to
   * its log, inside the caller's transaction: the updates as clients will receive them.
   */
  async record(
    accountId: string,
    drafts: readonly Omit<ModelUpdate, 'seq' | 'ts' | 'muid'>[],
    nowMs: number,
  ): Promise<ModelUpdate[]> {
    if (drafts.length === 0) return [];
    const stamps = await this.take(accountId, drafts.length, nowMs);
    const updates = drafts.map((d, i): ModelUpdate => {
      const s = stamps[i] ?? { seq: 0, ts: 0 };
      return { ...d, muid: uuidv7(s.ts), ts: s.ts, seq: s.seq };
    });
    await this.append(
      accountId,
      updates.map((u) => ({ seq: u.seq, ts: u.ts, muid: u.muid, msg: JSON.stringify(u) })),
    );
    return updates;
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
