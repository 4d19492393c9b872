import type { ModelUpdate } from '@plant/shared-schema';
import type { ClusterWork } from '../cluster/leader';
import type { Db } from '../db/database';
import type { Logger } from '../logger';
import { ModelRepository } from '../repositories/model.repository';
import type { ChangeFeed } from '../services/change-feed';

/*
 * Background work on synced models by their state (the 3D area's: uploaded models to process,
 * renderings to make), once in the cluster (the leader's). It looks in the accounts a change was
 * heard in, and in every account at its start and every `scanMs`; takes the models of its type
 * whose `state` is the waiting one, one at a time (each may take a core); and at its start takes
 * again those a process that ended left in the working state.
 */

export interface StateQueueOptions {
  readonly db: Db;
  readonly feed: ChangeFeed;
  readonly log: Logger;
  /** The model type worked on. */
  readonly type: string;
  /** The `state` of a model waiting for the work, and of one being worked on. */
  readonly waiting: string;
  readonly working: string;
  /** Whether updates heard may mean work (the type's models made, their inputs stored). */
  readonly concerns: (update: ModelUpdate) => boolean;
  readonly scanMs: number;
  /** What failed is logged as. */
  readonly what: string;
}

export abstract class StateQueue implements ClusterWork {
  protected readonly rows: ModelRepository;
  protected stopped = true;
  private timer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private running: Promise<void> | undefined;
  /** The accounts to look at next: every one (start, the scan's timer), or those changed. */
  private everyAccount = true;
  private readonly changed = new Set<string>();
  /** Models left working by an ended process are taken again once, at the first scan. */
  private resume = true;

  constructor(private readonly options: StateQueueOptions) {
    this.rows = new ModelRepository(options.db);
  }

  /** Does the work on one model (read again: it may have changed or gone). */
  protected abstract take(accountId: string, id: string): Promise<void>;

  /** Before the first scan after a start (a work folder emptied, say). */
  protected async onStart(): Promise<void> {}

  /** Ends the work under way, if any, when the queue stops. */
  protected async interrupt(): Promise<void> {}

  start(): void {
    this.stopped = false;
    this.resume = true;
    this.unsubscribe = this.options.feed.subscribe((accountId, updates) => {
      if (updates.some(this.options.concerns)) this.wake(accountId);
    });
    this.timer = setInterval(() => this.wake(), this.options.scanMs);
    this.timer.unref();
    this.wake();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    clearInterval(this.timer);
    await this.interrupt();
    await this.running;
  }

  /** Looks for work now: in the account a change was heard in, or in every account. */
  wake(accountId?: string): void {
    if (this.stopped) return;
    if (accountId === undefined) this.everyAccount = true;
    else this.changed.add(accountId);
    this.running ??= this.loop()
      .catch((err: unknown) => {
        this.options.log.error(`${this.options.what} failed`, { error: String(err) });
      })
      .finally(() => {
        this.running = undefined;
        // Woken while the loop was ending: looked at now, not at the next scan.
        if (!this.stopped && (this.everyAccount || this.changed.size > 0)) this.wake();
      });
  }

  private async loop(): Promise<void> {
    const { type, waiting, working } = this.options;
    while ((this.everyAccount || this.changed.size > 0) && !this.stopped) {
      const resume = this.resume;
      try {
        if (resume) await this.onStart();
        this.resume = false;
        const accounts = this.everyAccount
          ? await this.rows.accountsWithType(type)
          : [...this.changed];
        this.everyAccount = false;
        this.changed.clear();
        for (const accountId of accounts) {
          const found = [
            ...(await this.rows.referencing(accountId, type, 'state', waiting)),
            ...(resume ? await this.rows.referencing(accountId, type, 'state', working) : []),
          ];
          for (const row of found) {
            if (this.stopped) return;
            // One model's trouble is its own: the others are still taken.
            await this.take(accountId, row.id).catch((err: unknown) => {
              this.options.log.error(`${this.options.what} failed`, {
                accountId,
                id: row.id,
                error: String(err),
              });
            });
          }
        }
      } catch (err) {
        this.options.log.error(`${this.options.what} failed`, { error: String(err) });
        // Tried again at the next scan, not in a loop here.
        this.everyAccount = false;
        this.changed.clear();
      }
    }
  }
}
