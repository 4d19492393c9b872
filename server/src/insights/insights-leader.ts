import { can, INSIGHT_LIMITS } from '@plant/shared-schema';
import type { ClusterWork } from '../cluster/leader';
import type { Db } from '../db/database';
import type { Clock } from '../lib/clock';
import { Periodic } from '../lib/periodic';
import type { Logger } from '../logger';
import type { Mailer } from '../services/mail.service';
import type { UserService } from '../services/user.service';
import { digestMail, isoWeek, type WeekThreats } from './digest';
import { InsightsRepository } from './insights.repository';
import { INSIGHTS_PERMISSION, type InsightsService } from './insights.service';
import { dayOf, EVENT_KINDS } from './security-events';
import { SecurityEventsRepository } from './security-events.repository';

const DAY_MS = 86_400_000;
/** Logs of dismissals and digest claims are kept a year. */
const LOG_KEPT_MS = 366 * DAY_MS;

export interface InsightsLeaderDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly log: Logger;
  readonly mailer: Mailer;
  readonly users: UserService;
  readonly insights: InsightsService;
  /** The app's address, for the digest's link. */
  readonly appUrl: string;
  /** How often it looks for work (INSIGHTS_TICK_MS). */
  readonly tickMs: number;
}

/**
 * The cluster leader's part of security insights (issue 38 item 1), every INSIGHTS_TICK_MS:
 * each active account's snapshot of the day (the overview's 90-day trend), taken at the first
 * tick of a UTC day, then the pruning of counters, snapshots and logs past their keeping; and the
 * weekly digest to each account's admins who may view the insights, once per ISO week: the first
 * week an account is seen only marks the week (a new install mails nobody at its first start),
 * every later week is claimed by inserting its row (two leaders in a handover never both send).
 * A digest whose mail fails is logged, not sent again: the next week's follows.
 */
export class InsightsLeader implements ClusterWork {
  private readonly periodic: Periodic;
  private readonly repo: InsightsRepository;
  private chain: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: InsightsLeaderDeps) {
    this.repo = new InsightsRepository(deps.db);
    this.periodic = new Periodic(
      async () => {
        await this.tick();
      },
      deps.tickMs,
      (err) => deps.log.error('security insights round failed', { error: String(err) }),
      true,
    );
  }

  start(): void {
    this.periodic.start();
  }

  async stop(): Promise<void> {
    await this.periodic.stop();
    await this.chain.catch(() => undefined);
  }

  /** One round now, after any running one: what it snapshotted and how many digests it mailed. */
  tick(): Promise<{ snapshots: number; digests: number }> {
    const round = this.chain.then(
      () => this.round(),
      () => this.round(),
    );
    this.chain = round.catch(() => undefined);
    return round;
  }

  private async round(): Promise<{ snapshots: number; digests: number }> {
    const { clock, insights, log } = this.deps;
    const now = clock.now();
    const today = dayOf(now);
    const due = await this.repo.accountsWithoutSnapshot(today);
    for (const account of due) {
      try {
        await insights.snapshot(account.id);
      } catch (err) {
        log.error('security insights snapshot failed', { account: account.id, error: String(err) });
      }
    }
    if (due.length > 0) {
      const before = dayOf(now - (INSIGHT_LIMITS.historyDays - 1) * DAY_MS);
      await new SecurityEventsRepository(this.deps.db).pruneBefore(before);
      await this.repo.prune(before, now - LOG_KEPT_MS, now);
    }
    let digests = 0;
    const week = isoWeek(now);
    for (const account of await this.repo.accountsWithoutDigest(week)) {
      if (!(await this.repo.claimDigest(account.id, week, now)) || !account.before) continue;
      try {
        digests += await this.sendDigest(account.id, account.name, now);
      } catch (err) {
        log.error('security insights digest failed', { account: account.id, error: String(err) });
      }
    }
    return { snapshots: due.length, digests };
  }

  /** Mails the account's digest to each admin who may view its insights; answers how many. */
  private async sendDigest(accountId: string, accountName: string, now: number): Promise<number> {
    const { insights, users, mailer, appUrl, db } = this.deps;
    const recipients: string[] = [];
    for (const admin of await this.repo.admins(accountId)) {
      const session = await users.sessionIn(admin.id, accountId);
      if (session !== undefined && can(session.ctx, INSIGHTS_PERMISSION))
        recipients.push(admin.email);
    }
    if (recipients.length === 0) return 0;
    const evaluation = await insights.evaluate(accountId);
    const dismissed = new Set(
      (await this.repo.liveDismissals(accountId, now)).map((d) => d.check_id),
    );
    const rows = await new SecurityEventsRepository(db).since(accountId, dayOf(now - 6 * DAY_MS));
    const total = (kind: string) =>
      rows.filter((r) => r.kind === kind && r.dim === '').reduce((n, r) => n + r.count, 0);
    const threats: WeekThreats = {
      signinFailed: total(EVENT_KINDS.signinFailed),
      rateLimited: total(EVENT_KINDS.rateLimited),
      brokerRefused: total(EVENT_KINDS.brokerRefused),
      cspReports: total(EVENT_KINDS.csp),
    };
    const mail = digestMail(
      accountName,
      evaluation.results,
      dismissed,
      threats,
      `${appUrl}/app/security-insights/overview`,
      now,
    );
    let sent = 0;
    for (const to of recipients) {
      try {
        await mailer.send({ to, ...mail });
        sent += 1;
      } catch (err) {
        this.deps.log.warn('security insights digest not sent', { to, error: String(err) });
      }
    }
    return sent;
  }
}
