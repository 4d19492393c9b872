import type { Db } from '../db/database';
import type { Clock } from '../lib/clock';
import { Periodic } from '../lib/periodic';
import type { Logger } from '../logger';
import { ChangeLogRepository } from '../repositories/change-log.repository';

/**
 * Drops model updates older than the retention (LOG_RETENTION_DAYS), once at start and then every
 * hour. A client asking mqttlogs from before what is kept is told to bootstrap again.
 */
export class LogPruner {
  private readonly loop: Periodic;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly retentionMs: number,
    private readonly log: Logger,
    everyMs = 60 * 60 * 1000,
  ) {
    this.loop = new Periodic(
      async () => {
        await this.pruneNow();
      },
      everyMs,
      (err) => this.log.error('pruning failed', { error: String(err) }),
      true,
    );
  }

  async pruneNow(): Promise<number> {
    const removed = await new ChangeLogRepository(this.db).prune(
      this.clock.now() - this.retentionMs,
    );
    if (removed > 0) this.log.info('model updates pruned', { removed });
    return removed;
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }
}
