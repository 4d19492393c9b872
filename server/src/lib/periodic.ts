/**
 * A task run every `everyMs` (and once at start when asked), never two runs at once: the next run
 * is timed from the end of the last, so a slow run delays the next instead of overlapping it.
 * `stop()` waits for a run in progress, so the caller may close what the task uses right after.
 */
export class Periodic {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;

  constructor(
    private readonly task: () => Promise<void>,
    private readonly everyMs: number,
    private readonly onError: (err: unknown) => void,
    private readonly atStart = false,
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    if (this.atStart) this.run();
    else this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private run(): void {
    this.timer = undefined;
    this.running = this.task()
      .catch(this.onError)
      .finally(() => {
        this.running = undefined;
        this.schedule();
      });
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => this.run(), this.everyMs);
    this.timer.unref();
  }
}
