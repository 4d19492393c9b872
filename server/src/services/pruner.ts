import type { Db } from '../db/database';
import type { Clock } from '../lib/clock';
import { Periodic } from '../lib/periodic';
import type { Logger } from '../logger';

const HOUR_MS = 60 * 60 * 1000;

/**
 * A table that only grows, pruned once at start and then every hour (`everyMs`); a failed round
 * is logged and the next one tries again. Subclasses say what goes in `pruneNow`.
 */
export abstract class Pruner {
  private readonly loop: Periodic;

  constructor(
    protected readonly db: Db,
    protected readonly clock: Clock,
    protected readonly retentionMs: number,
    protected readonly log: Logger,
    everyMs = HOUR_MS,
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

  abstract pruneNow(): Promise<unknown>;

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }
}
