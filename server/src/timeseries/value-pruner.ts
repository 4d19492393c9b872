import type { Clock } from '../lib/clock';
import { Periodic } from '../lib/periodic';
import type { Logger } from '../logger';
import type { TimeSeriesStore } from './time-series-store';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/**
 * How long the (source, seq) records of stored batches are kept: longer than any agent buffers
 * a batch (a week), so that a batch sent again after an outage is still known as a duplicate.
 */
export const BATCH_RETENTION_DAYS = 30;

/**
 * Deletes machine values past each account's retention (spec 001 §9: `value_retention_days`),
 * and the batch records past BATCH_RETENTION_DAYS: once at start, then every `everyMs`. A failed
 * round is logged and the next one tries again. `retentionDays` answers days by account id; an
 * account it does not name keeps its values.
 */
export class ValuePruner {
  private readonly loop: Periodic;

  constructor(
    private readonly store: TimeSeriesStore,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly retentionDays: () => Promise<Map<string, number>>,
    everyMs = HOUR_MS,
  ) {
    this.loop = new Periodic(
      async () => {
        await this.pruneNow();
      },
      everyMs,
      (err) => this.log.error('pruning values failed', { error: String(err) }),
      true,
    );
  }

  /** One round; answers how many points and batch records went. */
  async pruneNow(): Promise<{ points: number; batches: number }> {
    const now = this.clock.now();
    let points = 0;
    for (const [account, days] of await this.retentionDays()) {
      points += await this.store.prune(account, now - days * DAY_MS);
    }
    const batches = await this.store.pruneBatches(now - BATCH_RETENTION_DAYS * DAY_MS);
    if (points > 0 || batches > 0) this.log.info('values pruned', { points, batches });
    return { points, batches };
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }
}
