import {
  can,
  mayUseApp,
  REPORT_TEXTS,
  REPORT_SKIP_TEXTS,
  reportModel,
  resolveRange,
  uuidv7,
  type AlarmAttributes,
  type AssetAttributes,
  type DashboardAttributes,
  type DatastreamAttributes,
  type ReportAttributes,
  type ReportRun,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import type { ClusterWork } from '../cluster/leader';
import { keepBytes, type BlobStore } from '../files/blob-store';
import type { Clock } from '../lib/clock';
import { Periodic } from '../lib/periodic';
import type { Logger } from '../logger';
import { RecipientInviteRepository } from '../notify/recipient-invite.repository';
import { ModelRepository, type ModelRow } from '../repositories/model.repository';
import type { Mailer } from '../services/mail.service';
import type { ModelService } from '../services/model.service';
import type { UserService } from '../services/user.service';
import type { TimeSeriesStore } from '../timeseries/time-series-store';
import { reportCsv, CSV_POINTS } from './csv';
import { formatRange, renderPdf } from './pdf';
import {
  CHART_POINTS,
  contentFor,
  readingOrder,
  streamsOf,
  type Point,
  type ReportContent,
  type ReportData,
  type StreamMeta,
  type Viewer,
} from './report-content';
import {
  ReportRunRepository,
  RUN_LEASE_MS,
  type ReportRunRow,
  type StoredFile,
  type StoredRecipient,
} from './report-runs.repository';
import { nextRunAt } from './schedule';

/**
 * A scheduled run rests this many times as long as its last recipient took before the next: its
 * work takes at most a third of the time while the server is busy (100 reports due at once of
 * 60 ms each still go out within 20 s, well inside spec 001 §9's 2 minutes).
 */
const PACE_IDLE = 2;
const PACE_MAX_MS = 500;

/** How many times a run is tried in all (the first and three retries). */
export const REPORT_MAX_ATTEMPTS = 4;
/** The wait before a failed run's next try: 1, 4, then 16 minutes. */
export const retryDelayMs = (attempts: number): number => 60_000 * 4 ** Math.max(0, attempts - 1);

/**
 * What one tick reads once for every report due in it: dashboards' data (by account, dashboard,
 * asset, range and CSV) and recipients' access (by account and user; the outside rule by account).
 */
interface ReadCache {
  readonly data: Map<
    string,
    Promise<{ data: ReportData; csvPoints: ReadonlyMap<string, readonly Point[]> }>
  >;
  readonly members: Map<string, Promise<MemberView | undefined>>;
  readonly outside: Map<string, Promise<Viewer>>;
  /** How long the last recipient's files and mail took (ms, real time): the next rests after. */
  readonly pace: { lastTook: number };
}

/** A member as a recipient: its access, address and name. */
interface MemberView {
  readonly viewer: Viewer;
  readonly email: string;
  readonly label: string;
}

/** What makes a PDF (tests put a failing one in front of the real one). */
export type PdfRenderer = (content: ReportContent) => Promise<Buffer>;

export interface ReportRunnerDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly log: Logger;
  readonly models: ModelService;
  readonly users: UserService;
  readonly store: TimeSeriesStore;
  readonly mailer: Mailer;
  /** The reports' own blob store (DATA_DIR/report-files): the file pruner does not walk it. */
  readonly blobs: BlobStore;
  readonly tickMs: number;
  readonly renderPdf?: PdfRenderer;
}

/** A run as the runs list shows it; `files` only those the reader may download. */
export function runView(row: ReportRunRow, mayRead: (f: StoredFile) => boolean): ReportRun {
  const recipients = JSON.parse(row.recipients) as StoredRecipient[];
  const files = JSON.parse(row.files) as StoredFile[];
  return {
    id: row.id,
    at: row.due_at,
    from: row.from_ms,
    to: row.to_ms,
    state: row.state,
    error: row.error,
    attempts: row.attempts,
    manual: row.manual === 1,
    recipients: recipients.map((r) => ({ recipient: r.label, state: r.state, reason: r.reason })),
    files: files.filter(mayRead).map((f) => ({
      index: f.index,
      name: f.name,
      type: f.type,
      size: f.size,
      recipient: f.recipient,
    })),
  };
}

const recipientKey = (r: ReportAttributes['recipients'][number]) =>
  'user_id' in r ? `u:${r.user_id}` : `e:${r.email.toLowerCase()}`;

/** A file name of letters, digits and dashes from the report's name and the range's end. */
function fileName(report: ReportAttributes, to: number, ext: string): string {
  const base = report.name.replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-+|-+$/g, '') || 'report';
  return `${base}-${new Date(to).toISOString().slice(0, 10)}.${ext}`;
}

/**
 * Reports' runs (issue 31 items 4 and 5, DESIGN.md §12). On the cluster's leader (ClusterWork),
 * every `tickMs` it takes the reports due (active, `next_at` passed) and failed runs due for a
 * retry. A run is claimed once per report and due time (report_runs.run_key, unique), so a
 * leadership handed over mid-tick still makes and sends it once. Each recipient's PDF and CSV
 * are made from ONE read of the data with THAT recipient's access; one who sees none of the
 * report's streams gets no mail. "Send now" runs the same way at once, in the process asked.
 */
export class ReportRunner implements ClusterWork {
  private readonly runs: ReportRunRepository;
  private readonly rows: ModelRepository;
  private readonly invites: RecipientInviteRepository;
  private readonly periodic: Periodic;
  private readonly render: PdfRenderer;

  constructor(private readonly deps: ReportRunnerDeps) {
    this.runs = new ReportRunRepository(deps.db);
    this.rows = new ModelRepository(deps.db);
    this.invites = new RecipientInviteRepository(deps.db);
    this.render = deps.renderPdf ?? renderPdf;
    this.periodic = new Periodic(
      () => this.tick(),
      deps.tickMs,
      (err) => deps.log.error('report run failed', { error: String(err) }),
      true,
    );
  }

  start(): void {
    this.periodic.start();
  }

  stop(): Promise<void> {
    return this.periodic.stop();
  }

  /** One look for work: the reports due, then the runs to try again. */
  async tick(): Promise<void> {
    const now = this.deps.clock.now();
    // Reports due together over the same dashboard and range share one read of its data.
    const reads: ReadCache = {
      data: new Map(),
      members: new Map(),
      outside: new Map(),
      pace: { lastTook: 0 },
    };
    for (const accountId of await this.rows.accountsWithType(reportModel.type)) {
      for (const row of await this.rows.allOfTypes(accountId, [reportModel.type])) {
        const report = JSON.parse(row.attributes) as ReportAttributes;
        if (report.state !== 'active' || report.next_at === null || report.next_at > now) continue;
        await this.due(accountId, row, report, report.next_at, now, reads);
      }
    }
    for (const run of await this.runs.toRetake(now, REPORT_MAX_ATTEMPTS)) {
      if (await this.runs.retake(run, now)) await this.execute(run);
    }
  }

  /** A report due at `dueAt`: its run claimed (once in the cluster) and made; next_at moved on. */
  private async due(
    accountId: string,
    row: ModelRow,
    report: ReportAttributes,
    dueAt: number,
    now: number,
    reads: ReadCache,
  ): Promise<void> {
    const run = this.newRun(accountId, row.id, report, dueAt, `${row.id}@${dueAt}`, false, now);
    const claimed = await this.runs.claim(accountId, run);
    await this.deps.models.serverUpdate(accountId, reportModel.collection, row.id, {
      next_at: nextRunAt(report, now, dueAt),
      ...(claimed ? { last_run: { id: run.id, at: dueAt, state: 'running', error: null } } : {}),
    });
    if (claimed) await this.execute({ ...run, account_id: accountId }, reads);
  }

  private newRun(
    accountId: string,
    reportId: string,
    report: ReportAttributes,
    dueAt: number,
    key: string,
    manual: boolean,
    now: number,
  ): ReportRunRow {
    const { from, to } = resolveRange(report.range, dueAt);
    return {
      id: uuidv7(now),
      account_id: accountId,
      report_id: reportId,
      run_key: key,
      due_at: dueAt,
      manual: manual ? 1 : 0,
      from_ms: from,
      to_ms: to,
      state: 'running',
      error: null,
      attempts: 1,
      retry_at: null,
      lease_until: now + RUN_LEASE_MS,
      recipients: '[]',
      files: '[]',
      created_at: now,
      finished_at: null,
    };
  }

  /** "Send now": a run of its own, made at once; answers it as it ended. */
  async sendNow(accountId: string, row: ModelRow): Promise<ReportRunRow> {
    const report = JSON.parse(row.attributes) as ReportAttributes;
    const now = this.deps.clock.now();
    const run = this.newRun(
      accountId,
      row.id,
      report,
      now,
      `${row.id}@now:${now}:${uuidv7(now)}`,
      true,
      now,
    );
    await this.runs.claim(accountId, run);
    await this.deps.models.serverUpdate(accountId, reportModel.collection, row.id, {
      last_run: { id: run.id, at: now, state: 'running', error: null },
    });
    return this.execute(run);
  }

  /** Reads what the report shows, once for all its recipients (and reports due with it). */
  private async readData(
    accountId: string,
    report: ReportAttributes,
    dashboard: DashboardAttributes,
    run: ReportRunRow,
    csv: boolean,
    reads?: ReadCache,
  ): Promise<{ data: ReportData; csvPoints: ReadonlyMap<string, readonly Point[]> }> {
    const key = [accountId, report.dashboard_id, report.asset_id, run.from_ms, run.to_ms, csv].join(
      '|',
    );
    let read = reads?.data.get(key);
    if (read === undefined) {
      read = this.readShared(accountId, report, dashboard, run, csv);
      reads?.data.set(key, read);
    }
    const shared = await read;
    return {
      data: {
        ...shared.data,
        reportName: report.name,
        tz: report.schedule?.tz ?? 'UTC',
      },
      csvPoints: shared.csvPoints,
    };
  }

  private async readShared(
    accountId: string,
    report: ReportAttributes,
    dashboard: DashboardAttributes,
    run: ReportRunRow,
    csv: boolean,
  ): Promise<{ data: ReportData; csvPoints: ReadonlyMap<string, readonly Point[]> }> {
    const rows = await this.rows.allOfTypes(accountId, ['asset', 'datastream', 'alarm']);
    const assetRows = rows.filter((r) => r.type === 'asset');
    const assetNames = new Map(
      assetRows.map((r) => [r.id, (JSON.parse(r.attributes) as AssetAttributes).name]),
    );
    const named = new Set(streamsOf(dashboard));
    const streams = new Map<string, StreamMeta>();
    for (const r of rows) {
      if (r.type !== 'datastream' || !named.has(r.id) || r.asset_id === null) continue;
      const a = JSON.parse(r.attributes) as DatastreamAttributes;
      streams.set(r.id, {
        id: r.id,
        name: a.name,
        unit: a.unit,
        type: a.type,
        assetId: r.asset_id,
        assetName: assetNames.get(r.asset_id) ?? '',
      });
    }
    const ids = [...streams.keys()];
    const { store } = this.deps;
    const [ranges, latest, csvRanges] = await Promise.all([
      store.range(ids, run.from_ms, run.to_ms, CHART_POINTS),
      store.latest(ids),
      csv ? store.range(ids, run.from_ms, run.to_ms, CSV_POINTS) : Promise.resolve([]),
    ]);
    const account = await this.runs.accountTitle(accountId);
    const data: ReportData = {
      title: account,
      reportName: report.name,
      from: run.from_ms,
      to: run.to_ms,
      tz: report.schedule?.tz ?? 'UTC',
      widgets: readingOrder(dashboard.widgets),
      streams,
      series: new Map(ranges.map((r) => [r.stream, r.points as Point[]])),
      latest,
      alarms: rows
        .filter((r) => r.type === 'alarm')
        .map((r) => {
          const a = JSON.parse(r.attributes) as AlarmAttributes;
          return {
            name: a.name,
            severity: a.severity,
            state: a.status?.state ?? 'unknown',
            assetId: a.asset_id,
            assetName: assetNames.get(a.asset_id) ?? '',
            streamId: a.datastream_id,
          };
        }),
      assets: assetRows.map((r) => {
        const a = JSON.parse(r.attributes) as AssetAttributes;
        return { id: r.id, name: a.name, position: a.position ?? null };
      }),
      assetId: report.asset_id,
    };
    return {
      data,
      csvPoints: new Map(csvRanges.map((r) => [r.stream, r.points as Point[]])),
    };
  }

  /** A member's access in the report's account (undefined: not a member who may use the app). */
  private memberOf(accountId: string, userId: string, reads?: ReadCache) {
    const key = `${accountId}|${userId}`;
    let view = reads?.members.get(key);
    if (view === undefined) {
      view = this.memberViewer(accountId, userId);
      reads?.members.set(key, view);
    }
    return view;
  }

  private outsideOf(accountId: string, reads?: ReadCache): Promise<Viewer> {
    let view = reads?.outside.get(accountId);
    if (view === undefined) {
      view = this.outsideViewer(accountId);
      reads?.outside.set(accountId, view);
    }
    return view;
  }

  private async memberViewer(accountId: string, userId: string): Promise<MemberView | undefined> {
    const session = await this.deps.users.sessionIn(userId, accountId);
    if (session === undefined || !mayUseApp(session.activeRoles.map((r) => r.slug)))
      return undefined;
    const { user, access, ctx } = session;
    return {
      email: user.email,
      // Its name only: who reads the runs (report::view) may not see members' addresses.
      label: `${user.firstname} ${user.lastname}`.trim() || user.id,
      viewer: {
        seesAsset: (a) => access.seesAsset(a),
        streams: can(ctx, 'datastream::view'),
        alarms: can(ctx, 'alarm::view'),
        assets: can(ctx, 'asset::view'),
      },
    };
  }

  /**
   * What an outside address may see: only what EVERY member who may view data streams sees (the
   * intersection of their access decisions), so an address outside the account never gets data
   * that some member of the account is kept from; with no such member, nothing.
   */
  private async outsideViewer(accountId: string): Promise<Viewer> {
    const viewers: Viewer[] = [];
    for (const userId of await this.runs.memberIds(accountId)) {
      const v = await this.memberViewer(accountId, userId);
      if (v?.viewer.streams === true) viewers.push(v.viewer);
    }
    return {
      seesAsset: (a) => viewers.length > 0 && viewers.every((v) => v.seesAsset(a)),
      streams: viewers.length > 0,
      alarms: viewers.length > 0 && viewers.every((v) => v.alarms),
      assets: viewers.length > 0 && viewers.every((v) => v.assets),
    };
  }

  /**
   * Makes and sends a claimed run for each recipient not yet done (a retry skips those sent or
   * skipped before), then records how it went on the run and as the report's `last_run`.
   */
  async execute(run: ReportRunRow, reads?: ReadCache): Promise<ReportRunRow> {
    const accountId = run.account_id;
    const { clock, log } = this.deps;
    const before = new Map(
      (JSON.parse(run.recipients) as StoredRecipient[]).map((r) => [r.key, r]),
    );
    const files = JSON.parse(run.files) as StoredFile[];
    const outcomes: StoredRecipient[] = [];
    let error: string | null = null;
    let retry = true;
    const row = await this.rows.find(accountId, reportModel.type, run.report_id);
    const report = row === undefined ? undefined : (JSON.parse(row.attributes) as ReportAttributes);
    try {
      if (report === undefined || (report.state !== 'active' && run.manual === 0)) {
        // Deleted, or paused since: sends nothing (a paused report sends nothing at all).
        retry = false;
      } else {
        const dashRow = await this.rows.find(accountId, 'dashboard', report.dashboard_id);
        if (dashRow === undefined) throw new Error('the report\u2019s dashboard is gone');
        const dashboard = JSON.parse(dashRow.attributes) as DashboardAttributes;
        const csv = report.attachments.includes('csv');
        const pdf = report.attachments.includes('pdf');
        const { data, csvPoints } = await this.readData(
          accountId,
          report,
          dashboard,
          run,
          csv,
          reads,
        );
        let outside: Viewer | undefined;
        const emails = report.recipients.flatMap((r) =>
          'email' in r ? [r.email.toLowerCase()] : [],
        );
        if (emails.length > 0) await this.invites.ensure(accountId, emails, clock.now());
        const invited =
          emails.length === 0
            ? new Map<string, { state: string }>()
            : await this.invites.byEmails(accountId, emails);
        for (const r of report.recipients) {
          const key = recipientKey(r);
          const done = before.get(key);
          if (done !== undefined && (done.state === 'sent' || done.state === 'skipped')) {
            outcomes.push(done);
            continue;
          }
          // A PDF that failed fails for the rest too: they wait for the retry. (A mail refused
          // for one address does not hold up the others.)
          if (error === REPORT_TEXTS.pdfFailed) {
            outcomes.push({
              key,
              label: done?.label ?? key.slice(2),
              state: 'waiting',
              reason: null,
            });
            continue;
          }
          let to: { viewer: Viewer; email: string; label: string } | undefined;
          if ('user_id' in r) {
            to = await this.memberOf(accountId, r.user_id, reads);
            if (to === undefined) {
              outcomes.push({
                key,
                label: r.user_id,
                state: 'skipped',
                reason: REPORT_SKIP_TEXTS.notMember,
              });
              continue;
            }
          } else {
            const email = r.email.toLowerCase();
            if (invited.get(email)?.state !== 'confirmed') {
              outcomes.push({
                key,
                label: r.email,
                state: 'skipped',
                reason: REPORT_SKIP_TEXTS.unconfirmed,
              });
              continue;
            }
            outside ??= await this.outsideOf(accountId, reads);
            to = { viewer: outside, email: r.email, label: r.email };
          }
          // Scheduled runs are paced (PACE_IDLE): ingest and requests come first (bench
          // report-ingest); "Send now" is not, someone waits for it.
          // At most PACE_MAX_MS: the first PDF's thread start is no measure of the next.
          const rest = Math.min((reads?.pace.lastTook ?? 0) * PACE_IDLE, PACE_MAX_MS);
          await new Promise((resolve) =>
            rest > 0 ? setTimeout(resolve, rest) : setImmediate(resolve),
          );
          const began = performance.now();
          const content = contentFor(data, to.viewer);
          if (content === null) {
            outcomes.push({
              key,
              label: to.label,
              state: 'skipped',
              reason: REPORT_SKIP_TEXTS.seesNothing,
            });
            continue;
          }
          const attachments: { filename: string; content: Buffer; contentType: string }[] = [];
          if (pdf) {
            let bytes: Buffer;
            try {
              bytes = await this.render(content);
            } catch (err) {
              log.error('report PDF failed', { report: run.report_id, error: String(err) });
              error = REPORT_TEXTS.pdfFailed;
              outcomes.push({ key, label: to.label, state: 'waiting', reason: null });
              continue;
            }
            attachments.push({
              filename: fileName(report, run.to_ms, 'pdf'),
              content: bytes,
              contentType: 'application/pdf',
            });
          }
          if (csv) {
            const text = reportCsv(content.streams, csvPoints);
            attachments.push({
              filename: fileName(report, run.to_ms, 'csv'),
              content: Buffer.from(text, 'utf8'),
              contentType: 'text/csv; charset=utf-8',
            });
          }
          for (const a of attachments) {
            const sha256 = await keepBytes(this.deps.blobs, accountId, a.content);
            const type = a.contentType === 'application/pdf' ? 'pdf' : 'csv';
            // A retry's file takes the place (and index) of the failed attempt's for the same
            // recipient: the run lists each file once.
            const earlier = files.findIndex((f) => f.recipientKey === key && f.type === type);
            const file: StoredFile = {
              index: earlier === -1 ? files.length : (files[earlier]?.index ?? files.length),
              name: a.filename,
              type,
              size: a.content.length,
              sha256,
              recipientKey: key,
              recipient: to.label,
              assets: content.assets,
            };
            if (earlier === -1) files.push(file);
            else files[earlier] = file;
          }
          try {
            await this.deps.mailer.send({
              to: to.email,
              subject: `${report.name}: ${formatRange(content)}`,
              text: [
                `${content.title}: the report "${report.name}"`,
                formatRange(content),
                '',
                'The report is attached.',
              ].join('\n'),
              attachments,
            });
            outcomes.push({ key, label: to.label, state: 'sent', reason: null });
            if (reads !== undefined) reads.pace.lastTook = performance.now() - began;
          } catch (err) {
            log.warn('report mail failed', { report: run.report_id, error: String(err) });
            outcomes.push({
              key,
              label: to.label,
              state: 'failed',
              reason: REPORT_SKIP_TEXTS.mailFailed,
            });
            error ??= REPORT_SKIP_TEXTS.mailFailed;
          }
        }
      }
    } catch (err) {
      log.error('report run failed', { report: run.report_id, error: String(err) });
      error = REPORT_TEXTS.pdfFailed;
    }
    const now = clock.now();
    const failed = error !== null;
    const state: ReportRunRow['state'] = failed
      ? 'failed'
      : outcomes.some((o) => o.state === 'sent')
        ? 'sent'
        : 'nobody';
    const changes = {
      state,
      error,
      retry_at:
        failed && retry && run.attempts < REPORT_MAX_ATTEMPTS
          ? now + retryDelayMs(run.attempts)
          : null,
      recipients: JSON.stringify(outcomes),
      files: JSON.stringify(files),
      finished_at: now,
    };
    await this.runs.finish(accountId, run.id, changes);
    if (report !== undefined) {
      await this.deps.models
        .serverUpdate(accountId, reportModel.collection, run.report_id, {
          last_run: { id: run.id, at: run.due_at, state, error },
        })
        .catch((err: unknown) => log.warn('report last_run not written', { error: String(err) }));
    }
    return { ...run, ...changes, lease_until: null };
  }
}
