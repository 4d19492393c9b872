import type { Logger } from '../logger';

/**
 * Work that runs after the answer was sent (mails). Failures are logged, never lost silently;
 * `drain()` lets shutdown wait for what is still running before the database closes.
 */
export class BackgroundTasks {
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly log: Logger) {}

  run(name: string, work: () => Promise<void>): void {
    const task = work()
      .catch((err: unknown) => this.log.error(`${name} failed`, { error: String(err) }))
      .finally(() => this.running.delete(task));
    this.running.add(task);
  }

  async drain(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }
}
