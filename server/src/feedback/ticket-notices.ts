import { isolate, ticketModel, type TicketAttributes } from '@plant/shared-schema';
import type { ClusterWork } from '../cluster/leader';
import type { Db } from '../db/database';
import type { TicketNoticesTable } from '../db/types';
import type { Clock } from '../lib/clock';
import { Periodic } from '../lib/periodic';
import type { Logger } from '../logger';
import { ModelRepository } from '../repositories/model.repository';
import type { ChangeFeed } from '../services/change-feed';
import type { Mailer } from '../services/mail.service';

/** How often the leader looks for notices without a wake (retries, a missed wake). */
export const NOTICE_EVERY_MS = 5_000;
/** A claimed notice's lease: a process that died mid-send leaves it to be taken again. */
export const NOTICE_LEASE_MS = 60_000;
/** Tries of one notice; then it stays unsent with its error. */
export const NOTICE_MAX_ATTEMPTS = 5;
const RETRY_AFTER_MS = [30_000, 120_000, 600_000, 3_600_000];
const BATCH = 50;

export interface TicketNoticeDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly log: Logger;
  readonly mailer: Mailer;
  /** The app's address, for the link to the ticket. */
  readonly appUrl: string;
  /** Ticket changes (here and in other processes) wake it. */
  readonly feed?: ChangeFeed;
  readonly everyMs?: number;
}

/** The mail of one notice (English, as the alarms' mails; names isolated). */
export function noticeMail(
  notice: Pick<TicketNoticesTable, 'kind' | 'title' | 'body'>,
  link: string,
): { readonly subject: string; readonly text: string } {
  const title = isolate(notice.title);
  const subject =
    notice.kind === 'declined'
      ? `Your report ${title} was declined`
      : notice.kind === 'answered'
        ? `Your report ${title} was answered`
        : `Your report ${title}: ${notice.body}`;
  const lead =
    notice.kind === 'progress'
      ? `Progress of your report ${title}: ${notice.body}.`
      : `${notice.kind === 'declined' ? 'Declined' : 'Answered'}: ${title}\n\n${notice.body}`;
  return { subject, text: `${lead}\n\nOpen it: ${link}\n` };
}

/**
 * Sends the feedback centre's mails to reporters (issue 34 item 1) from the `ticket_notices`
 * outbox: on the cluster's leader, woken by ticket changes and every NOTICE_EVERY_MS; each notice
 * claimed with a lease (compare-and-set), marked sent once the mail went, retried with backoff.
 */
export class TicketNotices implements ClusterWork {
  private readonly periodic: Periodic;
  private chain: Promise<void> = Promise.resolve();
  private unsubscribe: (() => void)[] = [];
  private running = false;

  constructor(private readonly deps: TicketNoticeDeps) {
    this.periodic = new Periodic(
      () => this.wake(),
      deps.everyMs ?? NOTICE_EVERY_MS,
      (err) => deps.log.error('ticket notices failed', { err }),
      true,
    );
  }

  start(): void {
    this.running = true;
    const feed = this.deps.feed;
    if (feed !== undefined)
      this.unsubscribe = [
        feed.subscribe((_account, updates) => {
          if (updates.some((u) => u.type === ticketModel.type)) void this.wake();
        }),
        feed.subscribeElsewhere((_account, types) => {
          if (types.has(ticketModel.type)) void this.wake();
        }),
      ];
    this.periodic.start();
  }

  async stop(): Promise<void> {
    this.running = false;
    for (const off of this.unsubscribe) off();
    this.unsubscribe = [];
    await this.periodic.stop();
    await this.chain;
  }

  /** One round soon, after any running one (rounds never overlap). */
  wake(): Promise<void> {
    this.chain = this.chain
      .then(async () => {
        if (this.running) await this.tick();
      })
      .catch((err: unknown) => this.deps.log.error('ticket notices failed', { err }));
    return this.chain;
  }

  /** Sends what is due now; answers how many mails went. */
  async tick(): Promise<number> {
    const { db, clock } = this.deps;
    const now = clock.now();
    const due = await db
      .selectFrom('ticket_notices')
      .selectAll()
      .where('sent_at', 'is', null)
      .where('attempts', '<', NOTICE_MAX_ATTEMPTS)
      .where((eb) => eb.or([eb('retry_at', 'is', null), eb('retry_at', '<=', now)]))
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
      .orderBy('created_at')
      .limit(BATCH)
      .execute();
    let sent = 0;
    for (const notice of due) if (await this.send(notice, now)) sent += 1;
    return sent;
  }

  private async send(notice: TicketNoticesTable, now: number): Promise<boolean> {
    const { db, clock } = this.deps;
    const claimed = await db
      .updateTable('ticket_notices')
      .set({ lease_until: now + NOTICE_LEASE_MS })
      .where('id', '=', notice.id)
      .where('sent_at', 'is', null)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return false;
    try {
      const user = await db
        .selectFrom('users')
        .select('email')
        .where('id', '=', notice.user_id)
        .executeTakeFirst();
      // A reporter who left the product is told nothing (the notice is done).
      if (user !== undefined)
        await this.deps.mailer.send({
          to: user.email,
          ...noticeMail(notice, await this.link(notice)),
        });
      await db
        .updateTable('ticket_notices')
        .set({ sent_at: clock.now(), lease_until: null, error: null })
        .where('id', '=', notice.id)
        .execute();
      return user !== undefined;
    } catch (err) {
      const attempts = Number(notice.attempts) + 1;
      await db
        .updateTable('ticket_notices')
        .set({
          attempts,
          lease_until: null,
          retry_at: clock.now() + (RETRY_AFTER_MS[attempts - 1] ?? RETRY_AFTER_MS.at(-1) ?? 0),
          error: err instanceof Error ? err.message.slice(0, 500) : 'failed',
        })
        .where('id', '=', notice.id)
        .execute();
      this.deps.log.warn('ticket notice not sent', { id: notice.id, attempts, err });
      return false;
    }
  }

  /** The ticket's page (its board's, as stored now). */
  private async link(notice: TicketNoticesTable): Promise<string> {
    const row = await new ModelRepository(this.deps.db).find(
      notice.account_id,
      ticketModel.type,
      notice.ticket_id,
    );
    const board =
      row === undefined ? 'platform' : (JSON.parse(row.attributes) as TicketAttributes).board;
    const base = this.deps.appUrl.replace(/\/+$/, '');
    return `${base}/app/feedback/${board}/${encodeURIComponent(notice.ticket_id)}`;
  }
}
