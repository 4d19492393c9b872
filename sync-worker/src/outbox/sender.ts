import {
  ACCOUNT_CHANGED_MESSAGE,
  ACCOUNT_HEADER,
  apiPaths,
  batchAnswerSchema,
  BATCH_MAX_ITEMS,
  ERROR_TEXTS,
  MAX_BODY_BYTES,
  TIMINGS,
  type ModelUpdate,
} from '@plant/shared-schema';
import type { Logger } from '../log';
import type { OutboxDoc } from '../store/docs';
import type { Replica } from '../sync/replica';
import type { ApiClient, ApiError } from '../transport/http';

const METHODS = { create: 'POST', update: 'PUT', delete: 'DELETE' } as const;

/** Answers of something between us and the server: retried for as long as they last. */
const GATEWAY_STATUSES = new Set([502, 503, 504]);

export interface SenderTimings {
  /** Spec 000 §9: writes wait this long to go in one batch. */
  readonly batchWaitMs: number;
  /** Backoff after a failed send: from this, doubling, up to maxBackoffMs. */
  readonly minBackoffMs: number;
  readonly maxBackoffMs: number;
  /** A batch the server fails (5xx) this often is rejected and shown (spec 000 §8). */
  readonly maxServerFailures: number;
}

const DEFAULTS: SenderTimings = {
  batchWaitMs: TIMINGS.batchWaitMs,
  minBackoffMs: 1_000,
  maxBackoffMs: 30_000,
  maxServerFailures: 5,
};

export interface SenderEvents {
  /** A write answered: its `_events`, to apply in seq order like broker messages. */
  applied(events: readonly ModelUpdate[]): Promise<void>;
  /** The server refused a write: rolled back, kept as failed; the UI says why. */
  rejected(
    entry: OutboxDoc,
    message: string,
    fields?: Readonly<Record<string, readonly string[]>>,
  ): void;
  /** The session ended (401): sending stops until a new start. */
  unauthorized(): void;
}

/**
 * Drains the persisted outbox (DESIGN.md invariant 6): oldest first, in batches of the same
 * collection and kind (spec 000 §7 batch mode, 400 ms wait), each write with its mutation id so
 * that a batch sent again is answered, not applied twice.
 *
 * ```
 *   schedule() ──400 ms──► drain ──► batch sent ──► answered: each item confirmed or rejected
 *                            ▲           │ no answer (offline, reset, 502/503/504): pending
 *                            │           │ again, backoff, for as long as it lasts
 *                            │           │ other 5xx: the same; the 5th time: rejected
 *                            └───────────┘ 409 (another account): kept, sending stops
 * ```
 * A batch interrupted by a reload is found as `sending` and sent again (same ids).
 */
export class OutboxSender {
  private readonly timings: SenderTimings;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private draining: Promise<void> | undefined;
  private again = false;
  private running = false;
  private backoff = 0;
  private blocked: 'account' | 'auth' | undefined;

  constructor(
    private readonly replica: Replica,
    private readonly api: ApiClient,
    private readonly log: Logger,
    private readonly events: SenderEvents,
    timings: Partial<SenderTimings> = {},
  ) {
    this.timings = { ...DEFAULTS, ...timings };
  }

  start(): void {
    this.running = true;
    this.blocked = undefined;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    await this.draining;
  }

  /** Why sending stopped, if it did. */
  get blockedBy(): 'account' | 'auth' | undefined {
    return this.blocked;
  }

  /** A new local write (or the network came back): drain after the batch wait. */
  schedule(waitMs = this.timings.batchWaitMs): void {
    if (!this.running || this.blocked !== undefined) return;
    if (this.draining !== undefined) {
      this.again = true;
      return;
    }
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.drain();
    }, waitMs);
  }

  /** Tries now, forgetting the backoff (the broker reconnected, the user pressed retry). */
  nudge(): void {
    this.backoff = 0;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.schedule(0);
  }

  /** Resolves when nothing is being sent. */
  async settled(): Promise<void> {
    while (this.draining !== undefined) await this.draining;
  }

  private drain(): void {
    this.draining = this.drainAll()
      .catch((err: unknown) => {
        this.log.error('outbox drain failed', { error: String(err) });
        this.retryLater();
      })
      .finally(() => {
        this.draining = undefined;
        if (this.again) {
          this.again = false;
          this.schedule(0);
        }
      });
  }

  private async drainAll(): Promise<void> {
    while (this.running && this.blocked === undefined) {
      const batch = nextBatch(await this.replica.outbox(), this.replica.accountId);
      if (batch.length === 0) return;
      await this.replica.markOutbox(batch, { state: 'sending' });
      const sent = await this.send(batch);
      if (!sent) return;
      this.backoff = 0;
    }
  }

  /** Sends one batch; answers whether to go on with the next. */
  private async send(batch: readonly OutboxDoc[]): Promise<boolean> {
    const first = batch[0];
    if (first === undefined) return true;
    const answer = await this.api.call(
      METHODS[first.kind],
      apiPaths.collection(first.collection_name),
      {
        body: batch.map((e) => ({
          batch_id: e.mutation_id,
          data: { ...e.attributes, id: e.id, mutation_id: e.mutation_id },
        })),
        headers: { [ACCOUNT_HEADER]: this.replica.accountId },
        schema: batchAnswerSchema,
        quiet: true,
      },
    );
    if (!answer.ok) return this.failed(batch, answer.error);
    const byId = new Map(answer.data.data.map((item) => [String(item.batch_id), item.data]));
    for (const entry of batch) {
      const item = byId.get(entry.mutation_id);
      if (item === undefined) {
        await this.replica.markOutbox([entry], { state: 'pending' });
        continue;
      }
      if (item.success) {
        const events = item._events ?? [];
        await this.events.applied(events);
        await this.replica.confirm(entry, events);
      } else {
        const message = item.message ?? ERROR_TEXTS.unknown;
        const failed = await this.replica.reject(entry, message, true);
        if (failed !== undefined) this.events.rejected(failed, message, item.errors);
      }
    }
    return true;
  }

  /** The batch goes again later, with the same mutation ids (backoff). */
  private async sendLater(
    batch: readonly OutboxDoc[],
    attempts: number,
    error: ApiError,
  ): Promise<boolean> {
    await this.replica.markOutbox(batch, { state: 'pending', attempts, last_error: error.message });
    this.retryLater();
    return false;
  }

  private async failed(batch: readonly OutboxDoc[], error: ApiError): Promise<boolean> {
    const attempts = (batch[0]?.attempts ?? 0) + 1;
    // A gateway's 502/503/504 (nginx in front of a restarting server, the proxy of a plant
    // network) says as little as no answer at all: the server may or may not have the batch.
    if (error.kind === 'network' || GATEWAY_STATUSES.has(error.status)) {
      // No answer: the batch may or may not have been applied; the same ids go again.
      return this.sendLater(batch, attempts, error);
    }
    if (error.status === 409 && error.message === ACCOUNT_CHANGED_MESSAGE) {
      await this.replica.markOutbox(batch, { state: 'pending' });
      this.blocked = 'account';
      this.log.warn('outbox belongs to another account than the active one: kept');
      return false;
    }
    if (error.status === 401) {
      await this.replica.markOutbox(batch, { state: 'pending' });
      this.blocked = 'auth';
      this.events.unauthorized();
      return false;
    }
    const transient = error.status >= 500 || error.status === 429 || error.kind !== 'http';
    if (transient && attempts < this.timings.maxServerFailures) {
      return this.sendLater(batch, attempts, error);
    }
    // The batch failed as a whole: every item of it is rejected and shown (spec 000 §8).
    for (const entry of batch) {
      const failed = await this.replica.reject(entry, error.message, true);
      if (failed !== undefined) this.events.rejected(failed, error.message, error.fields);
    }
    return true;
  }

  private retryLater(): void {
    this.backoff =
      this.backoff === 0
        ? this.timings.minBackoffMs
        : Math.min(this.backoff * 2, this.timings.maxBackoffMs);
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.running) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.drain();
    }, this.backoff);
  }
}

/** A batch's body stays under this (the server refuses bodies past MAX_BODY_BYTES with 413). */
const BATCH_BODY_BUDGET = MAX_BODY_BYTES - 4 * 1024;

/** UTF-8 length of a string without encoding it (a surrogate pair is 2 units, 4 bytes). */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    bytes += unit < 0x80 ? 1 : unit < 0x800 || (unit >= 0xd800 && unit <= 0xdfff) ? 2 : 3;
  }
  return bytes;
}

function itemOf(entry: OutboxDoc) {
  return {
    batch_id: entry.mutation_id,
    data: { ...entry.attributes, id: entry.id, mutation_id: entry.mutation_id },
  };
}

/**
 * The oldest run of writes that can go in one request: same account, collection and kind, in
 * the order they were made, and a body the server accepts (a write too large on its own goes
 * alone, and is refused alone). Writes of another account wait for it; failed ones wait for the
 * user.
 */
export function nextBatch(outbox: readonly OutboxDoc[], accountId: string): OutboxDoc[] {
  const due = outbox.filter(
    (m) => (m.state === 'pending' || m.state === 'sending') && m.account_id === accountId,
  );
  const first = due[0];
  if (first === undefined) return [];
  const batch: OutboxDoc[] = [];
  let bytes = 2;
  for (const m of due) {
    if (m.collection_name !== first.collection_name || m.kind !== first.kind) break;
    const size = utf8Length(JSON.stringify(itemOf(m))) + 1;
    if (batch.length > 0 && bytes + size > BATCH_BODY_BUDGET) break;
    batch.push(m);
    bytes += size;
    if (batch.length === BATCH_MAX_ITEMS) break;
  }
  return batch;
}
