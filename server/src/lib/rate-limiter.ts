import type { Redis } from 'ioredis';

/**
 * Fixed-window counters per key. A key that reached its limit is refused until its window ends,
 * so a lock-out never lasts longer than one window. The counters live in this process's memory
 * (one process), or in Redis when several processes share the work (DESIGN.md §11): a limit
 * counted on one process holds on every other.
 */
export interface RateLimit {
  readonly limit: number;
  readonly windowMs: number;
}

export type RateDecision = { allowed: true } | { allowed: false; retryAfterS: number };

/** One counter: its full key (the limiter's name and the caller's key) and its rule. */
export interface CounterEntry {
  readonly key: string;
  readonly rule: RateLimit;
}

/** Where the counters live. Each call checks and counts in one step (no request slips past). */
export interface RateCounters {
  /** Counts one event under every entry, or under none if any of them is at its limit. */
  takeAll(entries: readonly CounterEntry[]): Promise<RateDecision>;
  /** Gives back one event counted under each entry (an attempt that turned out not to count). */
  refund(entries: readonly CounterEntry[]): Promise<void>;
}

const refusedFor = (waitMs: number): RateDecision => ({
  allowed: false,
  retryAfterS: Math.max(1, Math.ceil(waitMs / 1000)),
});

interface Window {
  count: number;
  resetAt: number;
}

/** Counters in this process's memory, timed by its clock (tests move it). */
export class MemoryRateCounters implements RateCounters {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly now: () => number = Date.now) {}

  takeAll(entries: readonly CounterEntry[]): Promise<RateDecision> {
    // Synchronous from check to count: parallel requests cannot all pass before one is counted.
    let waitMs = 0;
    for (const { key, rule } of entries) {
      const w = this.current(key);
      if (w !== undefined && w.count >= rule.limit)
        waitMs = Math.max(waitMs, w.resetAt - this.now());
    }
    if (waitMs > 0) return Promise.resolve(refusedFor(waitMs));
    for (const { key, rule } of entries) {
      const w = this.current(key);
      if (w === undefined) {
        this.sweep();
        this.windows.set(key, { count: 1, resetAt: this.now() + rule.windowMs });
      } else {
        w.count += 1;
      }
    }
    return Promise.resolve({ allowed: true });
  }

  refund(entries: readonly CounterEntry[]): Promise<void> {
    for (const { key } of entries) {
      const w = this.current(key);
      if (w !== undefined && w.count > 0) w.count -= 1;
    }
    return Promise.resolve();
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

/**
 * Check every counter, then count them all, in one script: Redis runs it atomically, so the
 * processes' requests are counted one at a time. Answers 0 (allowed) or the ms to wait.
 * KEYS: the counters; ARGV: limit and window (ms) of each, in turn.
 */
const TAKE_ALL = `
local wait = 0
for i, key in ipairs(KEYS) do
  local count = tonumber(redis.call('GET', key) or '0')
  if count >= tonumber(ARGV[2 * i - 1]) then
    local ttl = redis.call('PTTL', key)
    if ttl < 1 then ttl = 1 end
    if ttl > wait then wait = ttl end
  end
end
if wait > 0 then return wait end
for i, key in ipairs(KEYS) do
  if redis.call('INCR', key) == 1 then redis.call('PEXPIRE', key, ARGV[2 * i]) end
end
return 0`;

const REFUND = `
for _, key in ipairs(KEYS) do
  if tonumber(redis.call('GET', key) or '0') > 0 then redis.call('DECR', key) end
end
return 0`;

const PREFIX = 'plant:rate:';

/** Counters in Redis, shared by every process; windows end by Redis's own expiry. */
export class RedisRateCounters implements RateCounters {
  constructor(private readonly redis: Redis) {}

  async takeAll(entries: readonly CounterEntry[]): Promise<RateDecision> {
    const keys = entries.map((e) => PREFIX + e.key);
    const args = entries.flatMap((e) => [e.rule.limit, e.rule.windowMs]);
    const waitMs = Number(await this.redis.eval(TAKE_ALL, keys.length, ...keys, ...args));
    return waitMs > 0 ? refusedFor(waitMs) : { allowed: true };
  }

  async refund(entries: readonly CounterEntry[]): Promise<void> {
    const keys = entries.map((e) => PREFIX + e.key);
    await this.redis.eval(REFUND, keys.length, ...keys);
  }
}

/** One rule under one name (`signin-email`, …), counted in the given counters. */
export class RateLimiter {
  constructor(
    private readonly name: string,
    private readonly rule: RateLimit,
    readonly counters: RateCounters,
  ) {}

  entry(key: string): CounterEntry {
    return { key: `${this.name}:${key}`, rule: this.rule };
  }

  /** Counts one event if allowed; answers whether it was. */
  take(key: string): Promise<RateDecision> {
    return this.counters.takeAll([this.entry(key)]);
  }
}

/**
 * Counts one event under every (limiter, key), or under none if any is at its limit. The
 * limiters share one set of counters (the service's).
 */
export function takeAll(pairs: readonly (readonly [RateLimiter, string])[]): Promise<RateDecision> {
  const counters = pairs[0]?.[0].counters;
  if (counters === undefined) return Promise.resolve({ allowed: true });
  return counters.takeAll(pairs.map(([limiter, key]) => limiter.entry(key)));
}

/** Gives back what `takeAll` counted for these pairs. */
export function refundAll(pairs: readonly (readonly [RateLimiter, string])[]): Promise<void> {
  const counters = pairs[0]?.[0].counters;
  if (counters === undefined) return Promise.resolve();
  return counters.refund(pairs.map(([limiter, key]) => limiter.entry(key)));
}
