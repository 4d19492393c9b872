import type { Selectable } from 'kysely';
import { ThemeResolver } from '../themes/theme-resolver';
import type { Db } from '../db/database';
import type { ReportRunsTable } from '../db/types';
import { scopeTo } from '../repositories/account-scope';

export type ReportRunRow = Selectable<ReportRunsTable>;

/** One recipient's outcome in a run (the run row's `recipients`, JSON). */
export interface StoredRecipient {
  /** `u:<user id>` or `e:<address>`. */
  readonly key: string;
  /** What the runs list shows: the user's name, or the outside address. */
  readonly label: string;
  readonly state: 'sent' | 'failed' | 'skipped' | 'waiting';
  readonly reason: string | null;
}

/** One file of a run (the run row's `files`, JSON): its blob and what it shows. */
export interface StoredFile {
  readonly index: number;
  readonly name: string;
  readonly type: 'pdf' | 'csv';
  readonly size: number;
  readonly sha256: string;
  readonly recipientKey: string;
  readonly recipient: string;
  /** The assets whose streams it shows: a reader must see each of them to download it. */
  readonly assets: readonly string[];
}

/** A run's lease: a process that died mid-run leaves it to be taken again after this. */
export const RUN_LEASE_MS = 10 * 60_000;

/**
 * The report_runs table (migration 20261129003100). Reads and writes of one account go through
 * `scopeTo`; the scheduler's look for runs to retry reads across accounts on purpose (it is the
 * server's own work, for every account, on the cluster's leader).
 */
export class ReportRunRepository {
  constructor(private readonly db: Db) {}

  /**
   * Takes a run: inserted once per `run_key` across the cluster (false: another took it first),
   * leased to this process while it works.
   */
  async claim(accountId: string, run: Omit<ReportRunRow, 'account_id'>): Promise<boolean> {
    const result = await scopeTo(this.db, accountId)
      .insertInto('report_runs', [run])
      .onConflict((oc) => oc.column('run_key').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
  }

  /** Takes a failed run due for its retry (or a running one whose lease passed) again. */
  async retake(row: ReportRunRow, now: number): Promise<boolean> {
    const result = await scopeTo(this.db, row.account_id)
      .updateTable('report_runs')
      .set({ state: 'running', lease_until: now + RUN_LEASE_MS, attempts: row.attempts + 1 })
      .where('id', '=', row.id)
      .where('state', '=', row.state)
      .where('attempts', '=', row.attempts)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Runs to take again now, of every account: failed ones due for a retry, lapsed leases. */
  async toRetake(now: number, maxAttempts: number): Promise<ReportRunRow[]> {
    return this.db
      .selectFrom('report_runs')
      .selectAll()
      .where((eb) =>
        eb.or([
          eb.and([eb('state', '=', 'failed'), eb('retry_at', '<=', now)]),
          eb.and([eb('state', '=', 'running'), eb('lease_until', '<=', now)]),
        ]),
      )
      .where('attempts', '<', maxAttempts)
      .orderBy('due_at')
      .limit(100)
      .execute();
  }

  async finish(
    accountId: string,
    id: string,
    changes: Pick<
      ReportRunRow,
      'state' | 'error' | 'retry_at' | 'recipients' | 'files' | 'finished_at'
    >,
  ): Promise<void> {
    await scopeTo(this.db, accountId)
      .updateTable('report_runs')
      .set({ ...changes, lease_until: null })
      .where('id', '=', id)
      .execute();
  }

  async find(accountId: string, reportId: string, id: string): Promise<ReportRunRow | undefined> {
    return scopeTo(this.db, accountId)
      .selectFrom('report_runs')
      .selectAll()
      .where('report_id', '=', reportId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** The account's title as its theme gives it (its own or one above), else its name. */
  async accountTitle(accountId: string): Promise<string> {
    // The server's own read of the account it runs a report for (no member asks here).
    const row = await this.db
      .selectFrom('accounts')
      .select(['id', 'name', 'parent_id', 'theme_id', 'texts_changed'])
      .where('id', '=', accountId)
      .executeTakeFirst();
    if (row === undefined) return '';
    const title = (await new ThemeResolver(this.db).designOf(row)).title?.trim() ?? '';
    return title === '' ? row.name : title;
  }

  /** Every member of the account (the outside recipients' rule reads their access). */
  async memberIds(accountId: string): Promise<string[]> {
    const rows = await scopeTo(this.db, accountId)
      .selectFrom('memberships')
      .select('memberships.user_id')
      .distinct()
      .execute();
    return rows.map((r) => r.user_id);
  }

  /** A report's runs, newest first. */
  async ofReport(accountId: string, reportId: string, limit = 50): Promise<ReportRunRow[]> {
    return scopeTo(this.db, accountId)
      .selectFrom('report_runs')
      .selectAll()
      .where('report_id', '=', reportId)
      .orderBy('due_at', 'desc')
      .orderBy('created_at', 'desc')
      .limit(limit)
      .execute();
  }
}
