import {
  alarmModel,
  alarmAckModel,
  integrationModel,
  INTEGRATION_TEXTS,
  WEBHOOK_HEADERS,
  webhookCovers,
  type IntegrationAttributes,
  type WebhookAttempt,
} from '@plant/shared-schema';
import type { ClusterWork } from '../cluster/leader';
import type { Db } from '../db/database';
import type { Clock } from '../lib/clock';
import { Periodic } from '../lib/periodic';
import type { Logger } from '../logger';
import { ModelRepository } from '../repositories/model.repository';
import type { ChangeFeed } from '../services/change-feed';
import { DomainError } from '../services/domain-error';
import { AlarmEventReader, EVENT_BATCH } from './webhook-events';
import { WebhookPoster, type PostOutcome } from './webhook-post';
import type { WebhookSecrets } from './webhook-secrets';
import { webhookSignature } from './webhook-signing';
import { WebhookRepository, webhookOf, webhooksOf, type DeliveryRow } from './webhook.repository';

/** How often the leader looks without a wake (values written elsewhere, a missed wake). */
export const WEBHOOK_EVERY_MS = 5_000;
/** Tries of one delivery; then it is 'failed'. */
export const WEBHOOK_MAX_ATTEMPTS = 8;
/** The longest wait between two tries, whatever the base. */
export const WEBHOOK_MAX_BACKOFF_MS = 6 * 3_600_000;
/** Finished deliveries kept per integration (the log); older ones are deleted. */
export const WEBHOOK_LOG_KEEP = 200;
/** A claimed delivery's lease: past the try's time limit, then another process may take it. */
const LEASE_MS = 60_000;
/** Deliveries read per round; a full batch asks for the next round soon. */
const SEND_BATCH = 100;
/** Integrations posted to at once (each one's deliveries in order, one after another). */
const PARALLEL = 8;
const PRUNE_EVERY_MS = 60_000;

export interface WebhookSenderDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly log: Logger;
  readonly secrets: WebhookSecrets;
  /** Alarm and integration changes (here and in other processes) wake it. */
  readonly feed?: ChangeFeed;
  /** WEBHOOK_RETRY_BASE_MS: the wait after the first failed try; it doubles with each next. */
  readonly retryBaseMs: number;
  /** WEBHOOK_ALLOW_PRIVATE: posts to private and loopback addresses too. */
  readonly allowPrivate: boolean;
  readonly everyMs?: number;
}

/** When a delivery that failed its `attempts`-th try is tried again. */
export function retryDelay(baseMs: number, attempts: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempts - 1), WEBHOOK_MAX_BACKOFF_MS);
}

/**
 * Webhook integrations' posts (issue 37 item 6), cluster leader work like the reports and the
 * ticket notices. A round: (1) new alarm events become deliveries of the webhooks that cover
 * their asset (webhook-events.ts, which reads them from a cursor; values come from
 * webhook-values.ts in whichever process ingests); (2) due deliveries are claimed (compare-and-set with a lease, so a handover of the
 * leadership mid-try sends twice at worst, never loses one), signed (webhook-signing.ts) and
 * posted (webhook-post.ts: timeout, public addresses only unless allowed); a 2xx answer is
 * 'sent', anything else is tried again after `retryDelay` (the base from config, doubling) until
 * WEBHOOK_MAX_ATTEMPTS, then 'failed'; a refused address fails at once. Every try is kept on
 * the delivery; (3) once a minute, each integration's finished deliveries past the newest
 * WEBHOOK_LOG_KEEP are deleted, and what belonged to deleted integrations.
 * Woken by alarm changes (the status the evaluator writes in the event's transaction, an
 * acknowledgement) and integration changes, here or elsewhere; a timer wakes it for the next
 * retry due. With no webhook anywhere, a round writes nothing at all (every write is another
 * writer's snapshot gone on SQLite: see webhook-events.ts).
 */
export class WebhookSender implements ClusterWork {
  private readonly periodic: Periodic;
  private readonly poster: WebhookPoster;
  private chain: Promise<void> = Promise.resolve();
  private unsubscribe: (() => void)[] = [];
  private running = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private lastPrune = 0;
  /** The alarm events read so far: made anew at each start (a new leadership reads the kept cursor). */
  private events: AlarmEventReader | undefined;
  /** Accounts whose integrations changed: read again (their new webhooks get a secret at once). */
  private readonly changed = new Set<string>();
  private sweepAll = true;
  /**
   * The accounts with an enabled webhook, as last read. Alarm changes elsewhere wake nothing, and
   * with none anywhere a round reads no event: a server without webhooks does no work for them.
   */
  private readonly withWebhooks = new Set<string>();

  constructor(private readonly deps: WebhookSenderDeps) {
    this.poster = new WebhookPoster(deps.allowPrivate);
    this.periodic = new Periodic(
      () => this.wake(),
      deps.everyMs ?? WEBHOOK_EVERY_MS,
      (err) => deps.log.error('webhook round failed', { error: String(err) }),
      true,
    );
  }

  start(): void {
    this.running = true;
    this.sweepAll = true;
    this.events = new AlarmEventReader(this.deps.db, this.deps.clock);
    const feed = this.deps.feed;
    if (feed !== undefined)
      this.unsubscribe = [
        feed.subscribe((accountId, updates) => {
          this.heard(accountId, new Set(updates.map((u) => u.type)));
        }),
        feed.subscribeElsewhere((accountId, types) => this.heard(accountId, types)),
      ];
    this.periodic.start();
  }

  async stop(): Promise<void> {
    this.running = false;
    for (const off of this.unsubscribe) off();
    this.unsubscribe = [];
    if (this.retryTimer !== undefined) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    await this.periodic.stop();
    await this.chain;
    await this.events
      ?.save()
      .catch((err: unknown) =>
        this.deps.log.warn('webhook cursor not kept', { error: String(err) }),
      );
    this.events = undefined;
  }

  /** Closes the poster's connections (after `stop`, at the server's end). */
  close(): void {
    this.poster.close();
  }

  /** One round soon, after any running one (rounds never overlap). */
  wake(): Promise<void> {
    this.chain = this.chain
      .then(async () => {
        if (this.running) await this.round();
      })
      .catch((err: unknown) => this.deps.log.error('webhook round failed', { error: String(err) }));
    return this.chain;
  }

  /** One round now (tests drive it by hand too): answers how many posts were tried. */
  async round(): Promise<number> {
    const { clock } = this.deps;
    // Taken before the accounts are read: an event made while they are read (a webhook made just
    // before it, read too late) stays above the floor for the next round to find.
    const before = clock.now();
    await this.readAccounts();
    this.events ??= new AlarmEventReader(this.deps.db, clock);
    let events = 0;
    let tried = 0;
    if (this.withWebhooks.size === 0) {
      // Nothing wanted the events made before this round: a webhook made later starts from its
      // own time.
      this.events.passOver(before);
    } else {
      events = await this.events.round();
      tried = await this.sendDue();
    }
    if (clock.now() - this.lastPrune >= PRUNE_EVERY_MS) {
      this.lastPrune = clock.now();
      await this.prune();
      // Deliveries of webhooks turned off since wait for no round of theirs: ended here.
      if (this.withWebhooks.size === 0) tried = await this.sendDue();
    }
    if (events >= EVENT_BATCH || tried >= SEND_BATCH) setImmediate(() => void this.wake());
    else if (tried > 0) await this.timeNextRetry();
    return tried;
  }

  /** A change told by the feed: integrations read again; alarms of webhooks' accounts wake it. */
  private heard(accountId: string, types: ReadonlySet<string>): void {
    if (types.has(integrationModel.type)) {
      this.changed.add(accountId);
      void this.wake();
    } else if (
      this.withWebhooks.has(accountId) &&
      (types.has(alarmModel.type) || types.has(alarmAckModel.type))
    )
      void this.wake();
  }

  /**
   * Reads the webhooks of the accounts whose integrations changed (every account's at start):
   * which accounts have one, and a secret for each new one.
   */
  private async readAccounts(): Promise<void> {
    const { db, secrets, log } = this.deps;
    const accounts = this.sweepAll
      ? await new ModelRepository(db).accountsWithType(integrationModel.type)
      : [...this.changed];
    if (this.sweepAll) this.withWebhooks.clear();
    this.sweepAll = false;
    this.changed.clear();
    for (const accountId of accounts) {
      const webhooks = await webhooksOf(db, accountId);
      if (webhooks.length === 0) this.withWebhooks.delete(accountId);
      else this.withWebhooks.add(accountId);
      for (const webhook of webhooks) {
        try {
          await secrets.ensure(accountId, webhook.id);
        } catch (err) {
          log.warn('webhook secret not made', { integrationId: webhook.id, error: String(err) });
        }
      }
    }
  }

  private async sendDue(): Promise<number> {
    const due = await new WebhookRepository(this.deps.db).due(this.deps.clock.now(), SEND_BATCH);
    const byIntegration = new Map<string, DeliveryRow[]>();
    for (const row of due) {
      const list = byIntegration.get(row.integration_id) ?? [];
      list.push(row);
      byIntegration.set(row.integration_id, list);
    }
    const queues = [...byIntegration.values()];
    const workers = Array.from({ length: Math.min(PARALLEL, queues.length) }, async () => {
      for (let list = queues.shift(); list !== undefined; list = queues.shift())
        for (const row of list) if (this.running) await this.sendOne(row);
    });
    await Promise.all(workers);
    return due.length;
  }

  private async sendOne(row: DeliveryRow): Promise<void> {
    const { db, clock, log, secrets } = this.deps;
    const repo = new WebhookRepository(db);
    const claimedAt = clock.now();
    if (!(await repo.claim(row, claimedAt, claimedAt + LEASE_MS))) return;
    const stored = await new ModelRepository(db).find(
      row.account_id,
      integrationModel.type,
      row.integration_id,
    );
    if (stored === undefined) {
      // Deleted meanwhile: nothing of it is kept (its log, its secret).
      await repo.forget(row.account_id, row.integration_id);
      return;
    }
    const webhook = webhookOf(
      row.account_id,
      row.integration_id,
      JSON.parse(stored.attributes) as IntegrationAttributes,
    );
    let outcome: PostOutcome;
    const started = clock.now();
    if (webhook === undefined) {
      outcome = { error: INTEGRATION_TEXTS.turnedOff, final: true };
    } else if (!webhookCovers(webhook.webhook, row.asset_id)) {
      outcome = { error: INTEGRATION_TEXTS.notCovered, final: true };
    } else {
      try {
        const { secret } = await secrets.ensure(row.account_id, row.integration_id);
        const timestamp = String(Math.floor(clock.now() / 1000));
        outcome = await this.poster.post(
          webhook.webhook.url,
          {
            'Content-Type': 'application/json',
            'User-Agent': 'plant-webhooks/1',
            [WEBHOOK_HEADERS.delivery]: row.id,
            [WEBHOOK_HEADERS.event]: row.event_type,
            [WEBHOOK_HEADERS.timestamp]: timestamp,
            [WEBHOOK_HEADERS.signature]: webhookSignature(secret, timestamp, row.body),
          },
          row.body,
        );
      } catch (err) {
        outcome = {
          error: err instanceof DomainError ? err.message : INTEGRATION_TEXTS.secretUnreadable,
          final: false,
        };
        if (!(err instanceof DomainError))
          log.error('webhook not signed', { deliveryId: row.id, error: String(err) });
      }
    }
    const now = clock.now();
    const attempt: WebhookAttempt =
      'status' in outcome
        ? { at: started, status: outcome.status, error: null, ms: now - started }
        : { at: started, status: null, error: outcome.error, ms: now - started };
    const attempts = Number(row.attempts) + 1;
    const tries = [...(JSON.parse(row.attempt_log) as WebhookAttempt[]), attempt].slice(
      -WEBHOOK_MAX_ATTEMPTS,
    );
    const delivered = 'status' in outcome && outcome.status >= 200 && outcome.status < 300;
    const givenUp =
      !delivered && (('final' in outcome && outcome.final) || attempts >= WEBHOOK_MAX_ATTEMPTS);
    await repo.settle(row.account_id, row.id, {
      state: delivered ? 'sent' : givenUp ? 'failed' : 'waiting',
      attempts,
      attempt_log: JSON.stringify(tries),
      next_at: delivered || givenUp ? null : now + retryDelay(this.deps.retryBaseMs, attempts),
    });
    if (!delivered)
      log.info('webhook delivery not accepted', {
        deliveryId: row.id,
        integrationId: row.integration_id,
        attempts,
        status: attempt.status,
        error: attempt.error,
      });
  }

  /** Wakes the round when the next retry is due (sooner than the timer would). */
  private async timeNextRetry(): Promise<void> {
    if (!this.running) return;
    const next = await new WebhookRepository(this.deps.db).nextDue();
    if (this.retryTimer !== undefined) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    if (next === undefined) return;
    const wait = Math.max(0, next - this.deps.clock.now());
    if (wait >= (this.deps.everyMs ?? WEBHOOK_EVERY_MS)) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.wake();
    }, wait + 5);
    this.retryTimer.unref();
  }

  /** Keeps each integration's newest finished deliveries; forgets deleted integrations. */
  private async prune(): Promise<void> {
    const { db } = this.deps;
    const repo = new WebhookRepository(db);
    const models = new ModelRepository(db);
    for (const { account_id, integration_id } of await repo.integrationsWithRows()) {
      const stored = await models.find(account_id, integrationModel.type, integration_id);
      if (stored === undefined) await repo.forget(account_id, integration_id);
      else await repo.prune(account_id, integration_id, WEBHOOK_LOG_KEEP);
    }
  }
}
