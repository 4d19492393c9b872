import { GATEWAY_USERNAME_PREFIX, INSIGHT_LIMITS } from '@plant/shared-schema';
import type { Db } from '../db/database';
import type { Clock } from '../lib/clock';
import { Periodic } from '../lib/periodic';
import type { Logger } from '../logger';
import { SecurityEventsRepository, type BrokerOwner } from './security-events.repository';
import { countInto, mergeTop } from './top-keys';

/** What the recorder counts (`security_event_counts.kind`). */
export const EVENT_KINDS = {
  signinFailed: 'signin_failed',
  rateLimited: 'rate_limited',
  brokerRefused: 'broker_refused',
  revokedKey: 'revoked_key',
  csp: 'csp_report',
} as const;
export type EventKind = (typeof EVENT_KINDS)[keyof typeof EVENT_KINDS];

/** What a kind's counts are broken down by (`security_event_counts.dim`). */
export type EventDim = 'address' | 'user' | 'client' | 'gateway' | 'directive';

/** A scoped token's use is written at most this often (per token and process). */
export const TOKEN_USE_WRITE_MS = 3_600_000;
/** Tokens whose last write this process remembers, at most (then it forgets them all). */
const TOKEN_USES_REMEMBERED = 10_000;
/** Keys a day's kind and dimension holds in memory between flushes, at most. */
const KEYS_IN_MEMORY = INSIGHT_LIMITS.topKeys * 4;
/** Lookups (an e-mail's accounts, a broker user's owner) kept this long, at most this many. */
const LOOKUP_TTL_MS = 60_000;
const LOOKUPS_KEPT = 1_000;

/** The UTC day of a moment, as the counters key it. */
export function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

interface Pending {
  readonly accountId: string;
  readonly day: string;
  readonly kind: EventKind;
  total: number;
  readonly dims: Map<EventDim, Map<string, number>>;
}

/** A small cache of lookups with a time to live, cleared whole when full. */
class Lookups<T> {
  private readonly entries = new Map<string, { at: number; value: Promise<T> }>();
  constructor(private readonly clock: Clock) {}

  get(key: string, load: () => Promise<T>): Promise<T> {
    const now = this.clock.now();
    const hit = this.entries.get(key);
    if (hit !== undefined && now - hit.at < LOOKUP_TTL_MS) return hit.value;
    if (this.entries.size >= LOOKUPS_KEPT) this.entries.clear();
    const value = load();
    this.entries.set(key, { at: now, value });
    value.catch(() => this.entries.delete(key));
    return value;
  }
}

export interface SecurityEventsOptions {
  readonly db: Db;
  readonly clock: Clock;
  readonly log: Logger;
  /**
   * How often counted events are written (INSIGHTS_EVENTS_MS): the checks read the counters on
   * every evaluation, so a check that an event moves moves within this time.
   */
  readonly flushMs: number;
}

/**
 * Counts the security events the server sees (issue 38 item 1) into `security_event_counts`, per
 * account and UTC day: failed sign-ins and rate-limit hits (by address and user), broker refusals
 * (by client) and revoked gateway keys still knocking (by gateway), CSP reports (by directive);
 * and when scoped tokens were last used. Every process counts in memory and adds its counts every
 * `flushMs` (and at its stop); the stored keys stay bounded (top-keys.ts), so a flood from many
 * addresses costs counters, not rows. Recording never fails the request that caused it: errors
 * are logged.
 */
export class SecurityEvents {
  private readonly repo: SecurityEventsRepository;
  private readonly pending = new Map<string, Pending>();
  private readonly tokenWrites = new Map<string, number>();
  private readonly emails: Lookups<{ userId: string; accountIds: string[] }>;
  private readonly brokerUsers: Lookups<BrokerOwner | undefined>;
  private readonly periodic: Periodic;
  private flushing: Promise<void> = Promise.resolve();
  /** Lookups under way, whose counts a stop waits for. */
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly options: SecurityEventsOptions) {
    this.repo = new SecurityEventsRepository(options.db);
    this.emails = new Lookups(options.clock);
    this.brokerUsers = new Lookups(options.clock);
    this.periodic = new Periodic(
      () => this.flush(),
      options.flushMs,
      (err) => options.log.error('security events not written', { error: String(err) }),
    );
  }

  start(): void {
    this.periodic.start();
  }

  /** Stops the timer and writes what was counted. */
  async stop(): Promise<void> {
    await this.periodic.stop();
    await Promise.all(this.inFlight);
    await this.flush().catch((err: unknown) =>
      this.options.log.error('security events not written', { error: String(err) }),
    );
  }

  /**
   * A refused password grant: `invalid_grant`/`invalid_otp` are failed sign-ins,
   * `too_many_attempts` a rate-limit hit; counted in every account of the user the e-mail names
   * (an address nobody has belongs to no account).
   */
  signInRefused(email: string, address: string, code: string): void {
    const kind =
      code === 'too_many_attempts'
        ? EVENT_KINDS.rateLimited
        : code === 'invalid_grant' || code === 'invalid_otp'
          ? EVENT_KINDS.signinFailed
          : undefined;
    if (kind === undefined) return;
    const day = dayOf(this.options.clock.now());
    this.later(async () => {
      const { userId, accountIds } = await this.emails.get(email.toLowerCase(), () =>
        this.repo.accountsOfEmail(email),
      );
      for (const accountId of accountIds)
        this.count(accountId, day, kind, [
          ['address', address],
          ['user', userId],
        ]);
    });
  }

  /** A signed-in request refused by a rate limit (429), in the session's active account. */
  requestLimited(accountId: string, userId: string, address: string): void {
    this.count(accountId, dayOf(this.options.clock.now()), EVENT_KINDS.rateLimited, [
      ['address', address],
      ['user', userId],
    ]);
  }

  /** A browser's or gateway's link refused by the broker after it was admitted (an ACL). */
  linkRefused(accountId: string, client: string): void {
    this.count(accountId, dayOf(this.options.clock.now()), EVENT_KINDS.brokerRefused, [
      ['client', client],
    ]);
  }

  /**
   * A CONNECT the broker refused for its credentials: counted in the account of the gateway or
   * browser credential the user name names; a revoked key of a gateway also as a knock.
   */
  connectRefused(username: string, password: Buffer): void {
    const day = dayOf(this.options.clock.now());
    const gatewayId = username.startsWith(GATEWAY_USERNAME_PREFIX)
      ? username.slice(GATEWAY_USERNAME_PREFIX.length)
      : undefined;
    const key = `${username}\u0000${password.toString('base64')}`;
    this.later(async () => {
      const owner = await this.brokerUsers.get(key, () =>
        this.repo.brokerOwner(username, gatewayId, password),
      );
      if (owner === undefined) return;
      if (owner.kind === 'browser') {
        this.count(owner.accountId, day, EVENT_KINDS.brokerRefused, [
          ['client', `user:${owner.userId}`],
        ]);
        return;
      }
      const gateway = gatewayId ?? '';
      this.count(owner.accountId, day, EVENT_KINDS.brokerRefused, [
        ['client', `gateway:${gateway}`],
      ]);
      if (owner.revokedMatch)
        this.count(owner.accountId, day, EVENT_KINDS.revokedKey, [['gateway', gateway]]);
    });
  }

  /** A Content-Security-Policy violation the app reported, in the session's active account. */
  cspReport(accountId: string, directive: string): void {
    this.count(accountId, dayOf(this.options.clock.now()), EVENT_KINDS.csp, [
      ['directive', directive],
    ]);
  }

  /** A scoped token was used: written now unless this process wrote it within the hour. */
  tokenUsed(tokenId: string): void {
    const now = this.options.clock.now();
    const last = this.tokenWrites.get(tokenId);
    if (last !== undefined && now - last < TOKEN_USE_WRITE_MS) return;
    if (this.tokenWrites.size >= TOKEN_USES_REMEMBERED) this.tokenWrites.clear();
    this.tokenWrites.set(tokenId, now);
    this.later(() => this.repo.tokenUsed(tokenId, now));
  }

  /** Writes what was counted so far (the timer's work; tests call it to skip the wait). */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(
      () => this.writePending(),
      () => this.writePending(),
    );
    return this.flushing;
  }

  private count(
    accountId: string,
    day: string,
    kind: EventKind,
    parts: readonly (readonly [EventDim, string])[],
  ): void {
    const id = `${accountId}|${day}|${kind}`;
    let entry = this.pending.get(id);
    if (entry === undefined) {
      entry = { accountId, day, kind, total: 0, dims: new Map() };
      this.pending.set(id, entry);
    }
    entry.total += 1;
    for (const [dim, key] of parts) {
      let keys = entry.dims.get(dim);
      if (keys === undefined) {
        keys = new Map();
        entry.dims.set(dim, keys);
      }
      countInto(keys, key.slice(0, 200), KEYS_IN_MEMORY);
    }
  }

  private later(work: () => Promise<void>): void {
    const running = work()
      .catch((err: unknown) =>
        this.options.log.warn('security event not counted', { error: String(err) }),
      )
      .finally(() => this.inFlight.delete(running));
    this.inFlight.add(running);
  }

  private async writePending(): Promise<void> {
    const entries = [...this.pending.values()];
    this.pending.clear();
    for (const entry of entries) {
      try {
        await this.write(entry);
      } catch (err) {
        this.options.log.error('security events not written', {
          account: entry.accountId,
          kind: entry.kind,
          error: String(err),
        });
      }
    }
  }

  /** Adds one account's day of one kind to the stored counters, keys kept to the top list. */
  private async write(entry: Pending): Promise<void> {
    const stored = await this.repo.kindOfDay(entry.accountId, entry.day, entry.kind);
    const set: { dim: string; key: string; count: number }[] = [];
    const drop: { dim: string; key: string }[] = [];
    for (const [dim, added] of entry.dims) {
      const before = new Map(stored.filter((r) => r.dim === dim).map((r) => [r.key, r.count]));
      const merged = mergeTop(before, added, INSIGHT_LIMITS.topKeys);
      for (const [key, count] of merged.counts)
        if (before.get(key) !== count) set.push({ dim, key, count });
      for (const key of merged.dropped) drop.push({ dim, key });
    }
    await this.repo.writeDay(entry.accountId, entry.day, entry.kind, {
      total: entry.total,
      set,
      drop,
    });
  }
}
