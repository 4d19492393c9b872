import { REQUEST_FAILED_PARAMS_MAX_CHARS, uuidv7, type RequestFailed } from '@plant/shared-schema';
import type { Db } from '../db/database';
import { isoAt, type Clock } from '../lib/clock';
import { MemoryRateCounters, RateLimiter, type RateCounters } from '../lib/rate-limiter';
import { ClientReportRepository } from '../repositories/client-report.repository';
import { DomainError } from './domain-error';

/** Reports that browsers send: failed requests (POST requestFailed). */
export class ClientReportService {
  private readonly reports: ClientReportRepository;
  private readonly failuresPerSender: RateLimiter;

  constructor(
    db: Db,
    private readonly clock: Clock,
    counters: RateCounters = new MemoryRateCounters(() => clock.now()),
  ) {
    this.reports = new ClientReportRepository(db);
    this.failuresPerSender = new RateLimiter(
      'client-failures',
      { limit: 30, windowMs: 60_000 },
      counters,
    );
  }

  /**
   * Stores one report. A client stuck in a failure loop would otherwise fill the disk: past 30 a
   * minute per sender (user, or address when signed out) reports are refused with 429.
   */
  async requestFailed(report: RequestFailed, sender: { userId: string | null; address: string }) {
    const decision = await this.failuresPerSender.take(
      sender.userId ?? `address:${sender.address}`,
    );
    if (!decision.allowed) {
      throw new DomainError('rate_limited', 'Too many reports. Please try again later.', {
        retryAfterS: decision.retryAfterS,
      });
    }
    const params = report.params === undefined ? null : JSON.stringify(report.params);
    const now = this.clock.now();
    await this.reports.insertError({
      id: uuidv7(now),
      user_id: sender.userId,
      address: sender.address,
      path: report.path,
      params: params === null ? null : params.slice(0, REQUEST_FAILED_PARAMS_MAX_CHARS),
      status: report.status,
      message: report.message ?? null,
      app_url: report.appUrl ?? null,
      created_at: isoAt(now),
    });
  }
}
