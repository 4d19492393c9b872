/**
 * Fixed-window counters per key, in memory. A key that reached its limit is refused until its
 * window ends, so a lock-out never lasts longer than one window. One process only: a scaled-out
 * server would move these counters into the shared database.
 */
export interface RateLimit {
  readonly limit: number;
  readonly windowMs: number;
}

export type RateDecision = { allowed: true } | { allowed: false; retryAfterS: number };

interface Window {
  count: number;
  resetAt: number;
}

/**
 * Counts one event under every key, or under none if any of them is at its limit. Checking and
 * counting happen in one synchronous step, so parallel requests cannot all pass a check before
 * any of them is counted.
 */
export function takeAll(pairs: readonly (readonly [RateLimiter, string])[]): RateDecision {
  const refused = pairs
    .map(([limiter, key]) => limiter.check(key))
    .filter((d): d is { allowed: false; retryAfterS: number } => !d.allowed);
  if (refused.length > 0) {
    return { allowed: false, retryAfterS: Math.max(...refused.map((d) => d.retryAfterS)) };
  }
  for (const [limiter, key] of pairs) limiter.record(key);
  return { allowed: true };
}

export class RateLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly rule: RateLimit,
    private readonly now: () => number = Date.now,
  ) {}

  /** Would one more event under this key be allowed? Does not count it. */
  check(key: string): RateDecision {
    const w = this.current(key);
    if (w === undefined || w.count < this.rule.limit) return { allowed: true };
    return { allowed: false, retryAfterS: Math.max(1, Math.ceil((w.resetAt - this.now()) / 1000)) };
  }

  /** Counts one event under this key. */
  record(key: string): void {
    const w = this.current(key);
    if (w === undefined) {
      this.sweep();
      this.windows.set(key, { count: 1, resetAt: this.now() + this.rule.windowMs });
    } else {
      w.count += 1;
    }
  }

  /** Counts one event if allowed; answers whether it was. */
  take(key: string): RateDecision {
    const decision = this.check(key);
    if (decision.allowed) this.record(key);
    return decision;
  }

  /** Gives back one event counted under this key (an attempt that turned out not to count). */
  refund(key: string): void {
    const w = this.current(key);
    if (w !== undefined && w.count > 0) w.count -= 1;
  }

  private current(key: string): Window | undefined {
    const w = this.windows.get(key);
    if (w !== undefined && w.resetAt <= this.now()) {
      this.windows.delete(key);
      return undefined;
    }
    return w;
  }

  /** Drops ended windows once the map grows, so that many distinct keys cannot exhaust memory. */
  private sweep(): void {
    if (this.windows.size < 10_000) return;
    const now = this.now();
    for (const [key, w] of this.windows) if (w.resetAt <= now) this.windows.delete(key);
  }
}
