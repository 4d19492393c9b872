import type { ReadStream } from 'node:fs';
import { can, reportModel, type ReportAttributes, type ReportRun } from '@plant/shared-schema';
import type { Db } from '../db/database';
import type { BlobStore } from '../files/blob-store';
import { ModelRepository, type ModelRow } from '../repositories/model.repository';
import { DomainError, forbidden, notFound } from '../services/domain-error';
import type { Session } from '../services/user.service';
import { runView, type ReportRunner } from './report-runner';
import { ReportRunRepository, type StoredFile } from './report-runs.repository';

/** "Send now" on a paused report: it sends nothing until made active again. */
export const REPORT_PAUSED = 'This report is paused.';

export interface ReportFileDownload {
  readonly name: string;
  readonly type: string;
  readonly size: number;
  readonly sha256: string;
  readonly body: ReadStream;
}

/**
 * The report calls beside the generic model routes (routes/reports.ts): send now, the runs and
 * their files. Each finds the report in the caller's active account and checks the type's
 * permission and the report's asset (an asset's report: who sees, or for sending edits, it).
 */
export class ReportService {
  private readonly rows: ModelRepository;
  private readonly runs: ReportRunRepository;

  constructor(
    db: Db,
    private readonly runner: ReportRunner,
    private readonly blobs: BlobStore,
  ) {
    this.rows = new ModelRepository(db);
    this.runs = new ReportRunRepository(db);
  }

  private async report(session: Session, id: string, edit: boolean): Promise<ModelRow> {
    const accountId = session.activeAccount?.id;
    const permission = edit ? reportModel.permissions.update : reportModel.permissions.view;
    if (accountId === undefined || !can(session.ctx, permission)) throw forbidden();
    const row = await this.rows.find(accountId, reportModel.type, id);
    if (row === undefined) throw notFound('Report');
    if (row.asset_id !== null) {
      if (!session.access.seesAsset(row.asset_id)) throw notFound('Report');
      if (edit && !session.access.editsAsset(row.asset_id)) throw forbidden();
    }
    return row;
  }

  /** A file of a run may be read by who sees every asset whose streams it shows. */
  private mayRead(session: Session): (f: StoredFile) => boolean {
    return (f) =>
      can(session.ctx, 'datastream::view') && f.assets.every((a) => session.access.seesAsset(a));
  }

  /** POST reports/{id}/send (report::edit): a run now; answers it as it ended. */
  async sendNow(session: Session, id: string): Promise<ReportRun> {
    const row = await this.report(session, id, true);
    const report = JSON.parse(row.attributes) as ReportAttributes;
    if (report.state !== 'active') throw new DomainError('conflict', REPORT_PAUSED);
    const run = await this.runner.sendNow(row.account_id, row);
    return runView(run, this.mayRead(session));
  }

  /** GET reports/{id}/runs (report::view): newest first, with the files the caller may read. */
  async list(session: Session, id: string): Promise<ReportRun[]> {
    const row = await this.report(session, id, false);
    const runs = await this.runs.ofReport(row.account_id, row.id);
    const mayRead = this.mayRead(session);
    return runs.map((r) => runView(r, mayRead));
  }

  /** GET reports/{id}/runs/{runid}/files/{index}: one file, to who may see all it shows. */
  async file(
    session: Session,
    id: string,
    runId: string,
    index: number,
  ): Promise<ReportFileDownload> {
    const row = await this.report(session, id, false);
    const run = await this.runs.find(row.account_id, row.id, runId);
    if (run === undefined) throw notFound('Run');
    const file = (JSON.parse(run.files) as StoredFile[]).find((f) => f.index === index);
    if (file === undefined || !this.mayRead(session)(file)) throw notFound('File');
    const size = await this.blobs.size(row.account_id, file.sha256);
    if (size === undefined) throw notFound('File');
    return {
      name: file.name,
      type: file.type === 'pdf' ? 'application/pdf' : 'text/csv; charset=utf-8',
      size,
      sha256: file.sha256,
      body: this.blobs.open(row.account_id, file.sha256),
    };
  }
}
