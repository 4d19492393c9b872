import { Pruner } from './pruner';
import { ChangeLogRepository } from '../repositories/change-log.repository';

/**
 * Drops model updates older than the retention (LOG_RETENTION_DAYS), once at start and then every
 * hour. A client asking mqttlogs from before what is kept is told to bootstrap again.
 */
export class LogPruner extends Pruner {
  async pruneNow(): Promise<number> {
    const removed = await new ChangeLogRepository(this.db).prune(
      this.clock.now() - this.retentionMs,
    );
    if (removed > 0) this.log.info('model updates pruned', { removed });
    return removed;
  }
}
