import type { Db } from '../db/database';
import type { Clock } from '../lib/clock';
import type { Logger } from '../logger';
import { ChangeLogRepository } from '../repositories/change-log.repository';

/**
 * Drops model updates older than the retention (LOG_RETENTION_DAYS), once at start and then every
 * hour. A client asking mqttlogs from before what is kept is told to bootstrap again.
 */
export class LogPruner {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly retentionMs: number,
    private readonly log: Logger,
    private readonly everyMs = 60 * 60 * 1000,
  ) {}

  async pruneNow(): Promise<number> {
    const removed = await new ChangeLogRepository(this.db).prune(
      this.clock.now() - this.retentionMs,
    );
    if (removed > 0) this.log.info('model updates pruned', { removed });
    return removed;
  }

  start(): void {
    const run = () => {
      this.pruneNow().catch((err: unknown) =>
        this.log.error('pruning failed', { error: String(err) }),
      );
    };
    run();
    this.timer = setInterval(run, this.everyMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }
}
