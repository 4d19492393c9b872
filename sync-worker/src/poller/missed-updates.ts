import { TIMINGS, type UpdateMessage } from '@plant/shared-schema';
import type { Logger } from '../log';
import { readLog } from '../sync/log-reader';
import type { ApiClient } from '../transport/http';

export interface MissedUpdateTimings {
  readonly pollMs: number;
  readonly debounceMs: number;
  /** This many missed updates or more: wipe and bootstrap instead (spec 000 §9). */
  readonly wipeThreshold: number;
  /** The first retry after a failed look; each further failure doubles it, up to `pollMs`. */
  readonly retryMs: number;
}

export interface MissedUpdateOptions {
  readonly api: ApiClient;
  readonly log: Logger;
  /** The ts of the last update applied locally. */
  readonly lastTs: () => Promise<number>;
  /** Applies missed updates, oldest first (idempotent: duplicates are skipped by seq). */
  readonly apply: (messages: readonly UpdateMessage[]) => Promise<void>;
  /** Too many missed, or the log no longer reaches back: wipe the local models, bootstrap. */
  readonly resync: (reason: string) => Promise<void>;
  /** Whether the app's tab is visible (the page tells the worker). */
  readonly visible: () => boolean;
  readonly timings?: Partial<MissedUpdateTimings>;
}

const DEFAULTS: MissedUpdateTimings = {
  pollMs: TIMINGS.missedUpdatePollMs,
  debounceMs: TIMINGS.missedUpdateDebounceMs,
  wipeThreshold: TIMINGS.missedUpdateWipeThreshold,
  retryMs: 2_000,
};

/**
 * Reads missed updates from `GET account/mqttlogs?from=<lastTs>` (DESIGN.md invariant 4).
 *
 * ```
 *            trigger(reason)             300 ms quiet
 *   idle ─────────────────────► waiting ─────────────► fetching ──► idle
 *    ▲ every 60 s while visible   ▲ more triggers        │ a trigger while fetching:
 *    └────────────────────────────┴──────────────────────┘ one more round after it
 * ```
 * Triggers: a seq gap, a broker (re)connect, the 60 s tick while visible, an API answer while the
 * broker is down. A failed fetch is only logged (spec 000 §8), never shown, and tried again after
 * 2 s, 4 s, 8 s ... up to the poll interval: a look that a reconnect asked for and that met a
 * server restarting would otherwise wait for the next 60 s tick, and every update the broker
 * dropped meanwhile with it. A look that answers ends the backoff.
 */
export class MissedUpdatePoller {
  private readonly timings: MissedUpdateTimings;
  private debounce: ReturnType<typeof setTimeout> | undefined;
  private tick: ReturnType<typeof setInterval> | undefined;
  private fetching: Promise<void> | undefined;
  private again = false;
  private running = false;
  private retry: ReturnType<typeof setTimeout> | undefined;
  /** Failed rounds in a row: the retry's backoff exponent. */
  private failures = 0;
  /** Completed rounds, for tests and diagnostics. */
  rounds = 0;

  constructor(private readonly options: MissedUpdateOptions) {
    this.timings = { ...DEFAULTS, ...options.timings };
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.tick = setInterval(() => {
      if (this.options.visible()) this.trigger('poll');
    }, this.timings.pollMs);
  }

  async stop(): Promise<void> {
    this.running = false;
    clearInterval(this.tick);
    clearTimeout(this.debounce);
    clearTimeout(this.retry);
    await this.fetching;
  }

  /** Asks for a round soon; triggers within the debounce window make one round. */
  trigger(reason: string): void {
    if (!this.running) return;
    this.options.log.debug('missed-update check requested', { reason });
    clearTimeout(this.debounce);
    clearTimeout(this.retry);
    this.debounce = setTimeout(() => this.run(), this.timings.debounceMs);
  }

  /** Resolves when no round is waiting or running (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.fetching !== undefined) await this.fetching;
  }

  private run(): void {
    if (this.fetching !== undefined) {
      this.again = true;
      return;
    }
    this.fetching = this.round()
      .catch((err: unknown) => {
        this.options.log.warn('missed updates failed', { error: String(err) });
        return false;
      })
      .then((fetched) => {
        this.fetching = undefined;
        this.rounds += 1;
        this.failures = fetched ? 0 : this.failures + 1;
        if (!this.running) return;
        if (this.again) {
          this.again = false;
          this.run();
        } else if (!fetched) {
          this.scheduleRetry();
        }
      });
  }

  private scheduleRetry(): void {
    const delay = Math.min(
      this.timings.retryMs * 2 ** Math.min(this.failures - 1, 16),
      this.timings.pollMs,
    );
    clearTimeout(this.retry);
    this.retry = setTimeout(() => this.trigger('retry'), delay);
  }

  /** One look through the log; false when it could not be read (the caller retries). */
  private async round(): Promise<boolean> {
    let from = await this.options.lastTs();
    for (;;) {
      const answer = await readLog(this.options.api, from);
      if (!answer.ok) {
        this.options.log.warn('missed updates not fetched', { ...answer.error });
        return false;
      }
      const { data, more, resync, through } = answer.data;
      if (resync || data.length >= this.timings.wipeThreshold) {
        await this.options.resync(resync ? 'log no longer reaches back' : `${data.length} missed`);
        return true;
      }
      if (data.length > 0) await this.options.apply(data.map((entry) => entry.msg));
      if (!more || through === null) return true;
      from = through.ts;
    }
  }
}
