import { alarmModel, type AlarmAttributes } from '@plant/shared-schema';
import type { Config } from '../config';
import type { Db } from '../db/database';
import type { Clock } from '../lib/clock';
import { Periodic } from '../lib/periodic';
import type { Logger } from '../logger';
import { ModelRepository } from '../repositories/model.repository';
import type { ChangeFeed } from '../services/change-feed';
import type { ModelService } from '../services/model.service';
import { AlarmDeliveryRepository } from './alarm-delivery.repository';
import { readAlarm } from './alarm-facts';
import type { Channel } from './contract';
import { escalate } from './escalation';
import { EXPAND_BATCH, expandEvents, type Touched } from './expansion';
import { deliveryStatus } from './messages';
import { RecipientInviteRepository } from './recipient-invite.repository';
import { RecipientInvites, sendInviteMails } from './recipient-invites';
import { SEND_BATCH, sendDue } from './sender';

export { ESCALATION_AFTER_MS } from './expansion';
export { LEASE_MS, MAX_ATTEMPTS, RETRY_BACKOFF_MS } from './recipient-invites';

/** How often rounds run without a wake (windows opening, retries, escalations, leases). */
export const DISPATCH_EVERY_MS = 5_000;

export interface AlarmDispatcherDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly log: Logger;
  /** The channels (mail, SMS, push); a channel missing here skips its deliveries. */
  readonly channels: readonly Channel[];
  readonly models: ModelService;
  readonly config: Pick<Config, 'appUrl'>;
  /** Alarm changes (here and in other processes) tell it to look for addresses to invite. */
  readonly feed?: ChangeFeed;
  /** Rounds without a wake (default DISPATCH_EVERY_MS). */
  readonly everyMs?: number;
}

/** What one round did (for logs and tests). */
export interface RoundReport {
  /** Events read for expansion (including ones another process took, or deferred). */
  readonly events: number;
  /** Messages handed to a channel (a digest counts once). */
  readonly messages: number;
  readonly invitations: number;
}

/**
 * Alarm notifications (issue 17 items 4 and 5): who is told what, when, on which channel, once.
 *
 * `alarm_events` is the outbox. A round:
 * 1. invites outside addresses newly named on alarms, and sends due invitation mails;
 * 2. expands each event not expanded yet into deliveries, one per recipient and channel, with
 *    the claim of the event (compare-and-set on `expanded_at`) in the same transaction
 *    (expansion.ts): raises to the alarm's recipients (critical: the first of its escalation
 *    ladder), clears of warning and critical alarms to whoever got the raise;
 * 3. runs due escalation steps of unacknowledged critical raises (escalation.ts);
 * 4. sends due deliveries, one message per recipient and channel (a digest when several are due
 *    at once), each group claimed with a lease first (sender.ts), retried with backoff;
 * 5. shows how each touched raise's deliveries went on its alarm (`status.delivery`), only while
 *    that raise is still the alarm's latest.
 *
 * Every step is safe with several processes on one database: each claim is a compare-and-set,
 * each delivery unique per (event, step, recipient, channel). Rounds of one dispatcher never
 * overlap; `wake()` asks for one soon (the evaluator after it recorded transitions).
 */
export class AlarmDispatcher {
  /** Recipient invitations: what the routes of alarm-recipients.ts answer with. */
  readonly invites: RecipientInvites;
  private readonly db: Db;
  private readonly clock: Clock;
  private readonly log: Logger;
  private readonly channels: ReadonlyMap<string, Channel>;
  private readonly models: ModelService;
  private readonly appUrl: string;
  private readonly periodic: Periodic;
  private readonly dirty = new Set<string>();
  private sweepAll = true;
  private chain: Promise<unknown> = Promise.resolve();
  private wakeTimer: NodeJS.Timeout | undefined;
  /** Wakes run rounds only between start() and stop(); by hand, `round()` runs one. */
  private started = false;
  private unsubscribe: (() => void) | undefined;

  constructor(private readonly deps: AlarmDispatcherDeps) {
    this.db = deps.db;
    this.clock = deps.clock;
    this.log = deps.log;
    this.channels = new Map(deps.channels.map((c) => [c.name, c]));
    this.models = deps.models;
    this.appUrl = deps.config.appUrl;
    this.invites = new RecipientInvites(deps.db, deps.clock, deps.config.appUrl);
    this.periodic = new Periodic(
      async () => {
        await this.round();
      },
      deps.everyMs ?? DISPATCH_EVERY_MS,
      (err) => this.log.error('alarm dispatch round failed', { error: String(err) }),
      true,
    );
    // Subscribed from the start (like the evaluator's cache), so rounds driven by hand see it.
    const feed = this.deps.feed;
    if (feed !== undefined && this.unsubscribe === undefined) {
      const here = feed.subscribe((accountId, updates) => {
        const recipientsMoved = updates.some(
          (u) =>
            u.type === alarmModel.type &&
            (u.action === 'updated' ||
              (u.attributes !== undefined && 'recipients' in u.attributes)),
        );
        if (recipientsMoved) this.changed(accountId);
      });
      const elsewhere = feed.subscribeElsewhere((accountId, types) => {
        if (types.has(alarmModel.type)) this.changed(accountId);
      });
      this.unsubscribe = () => {
        here();
        elsewhere();
      };
    }
  }

  start(): void {
    this.started = true;
    this.periodic.start();
  }

  /** Stops the timer and waits for a round under way. */
  async stop(): Promise<void> {
    this.started = false;
    if (this.wakeTimer !== undefined) clearTimeout(this.wakeTimer);
    this.wakeTimer = undefined;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    await this.periodic.stop();
    await this.chain.catch(() => undefined);
  }

  /** Asks for a round soon (transitions were recorded, an alarm's recipients changed). */
  wake(): void {
    if (!this.started || this.wakeTimer !== undefined) return;
    this.wakeTimer = setTimeout(() => {
      this.wakeTimer = undefined;
      this.round().catch((err: unknown) =>
        this.log.error('alarm dispatch round failed', { error: String(err) }),
      );
    }, 0);
    this.wakeTimer.unref();
  }

  /** One round now (after any round under way): what the timer and `wake` run, and tests. */
  round(): Promise<RoundReport> {
    const run = this.chain.then(() => this.once());
    this.chain = run.catch(() => undefined);
    return run;
  }

  private changed(accountId: string): void {
    this.dirty.add(accountId);
    this.wake();
  }

  private async once(): Promise<RoundReport> {
    const now = this.clock.now();
    await this.inviteNamedAddresses(now);
    const invitations = await sendInviteMails(
      this.db,
      this.invites,
      this.channels.get('mail'),
      now,
      this.log,
    );
    const touched: Touched = new Map();
    const events = await expandEvents(this.db, now, this.log, touched);
    await escalate(this.db, now, this.log, touched);
    const messages = await sendDue(
      { db: this.db, log: this.log, channels: this.channels, appUrl: this.appUrl },
      now,
      touched,
    );
    await this.showDelivery(touched);
    // A full batch may have left more behind: carry on soon rather than at the next tick.
    if (events >= EXPAND_BATCH || messages >= SEND_BATCH) this.wake();
    return { events, messages, invitations };
  }

  /**
   * Invitations for the outside addresses on the alarms of accounts whose alarms changed (all
   * accounts at the first round): the address is asked before any raise names it.
   */
  private async inviteNamedAddresses(now: number): Promise<void> {
    const models = new ModelRepository(this.db);
    const accounts = this.sweepAll
      ? await models.accountsWithType(alarmModel.type)
      : [...this.dirty];
    this.sweepAll = false;
    this.dirty.clear();
    const invites = new RecipientInviteRepository(this.db);
    for (const accountId of accounts) {
      const emails = new Set<string>();
      for (const row of await models.allOfTypes(accountId, [alarmModel.type])) {
        const alarm = JSON.parse(row.attributes) as AlarmAttributes;
        if (!alarm.enabled) continue;
        for (const r of alarm.recipients) if ('email' in r) emails.add(r.email.toLowerCase());
      }
      await invites.ensure(accountId, [...emails], now);
    }
  }

  /**
   * Writes how each touched raise's deliveries went onto its alarm, only while that raise is the
   * alarm's latest (its status' `raised_at` is the raise's time), so a newer raise's status is
   * never overwritten; unchanged, nothing is written.
   */
  private async showDelivery(touched: Touched): Promise<void> {
    const repo = new AlarmDeliveryRepository(this.db);
    for (const [eventId, { accountId, alarmId }] of touched) {
      try {
        const [raise] = await repo.eventsByIds(accountId, [eventId]);
        const alarm = await readAlarm(this.db, accountId, alarmId);
        const status = alarm?.status ?? null;
        if (raise === undefined || status === null || status.raised_at !== raise.ts) continue;
        const delivery = deliveryStatus(await repo.ofEvents(accountId, [eventId]));
        if (JSON.stringify(delivery) === JSON.stringify(status.delivery)) continue;
        await this.models.serverUpdate(accountId, alarmModel.collection, alarmId, {
          status: { ...status, delivery },
        });
      } catch (err) {
        this.log.warn('alarm delivery status not written', { alarmId, error: String(err) });
      }
    }
  }
}
