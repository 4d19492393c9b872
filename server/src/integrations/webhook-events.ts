import { uuidv7, webhookCovers, type WebhookAlarmBody } from '@plant/shared-schema';
import type { Db } from '../db/database';
import type { Clock } from '../lib/clock';
import { assetName, readAlarm } from '../notify/alarm-facts';
import {
  WebhookRepository,
  webhooksOf,
  type AlarmEventRow,
  type EventCursor,
  type NewDelivery,
  type Webhook,
} from './webhook.repository';

/** Alarm events read per round (a full batch asks for the next round soon). */
export const EVENT_BATCH = 200;
/**
 * How far behind the cursor events are looked for again: an event whose transaction committed
 * after a later one's (another process, a clock a little behind) is not passed over.
 */
export const EVENT_LOOKBACK_MS = 60_000;
/** Ids read from the look-behind window per round (most of them seen already). */
const LOOKBACK_IDS = 5_000;

const EVENT_TYPES: Record<AlarmEventRow['kind'], WebhookAlarmBody['type']> = {
  raised: 'alarm.raised',
  cleared: 'alarm.cleared',
  acknowledged: 'alarm.acknowledged',
};

const after = (a: EventCursor, b: EventCursor) =>
  a.createdAt > b.createdAt || (a.createdAt === b.createdAt && a.id > b.id);

/**
 * Turns alarm events into webhook deliveries, on the cluster's leader (the seam the alarm
 * dispatcher reads too: `alarm_events`, written by the evaluator and acknowledgements).
 *
 * The reader keeps a cursor over the events in (created_at, id) order and looks again
 * EVENT_LOOKBACK_MS behind it for events committed late (their ids kept in memory meanwhile).
 * Each event of an account goes to that account's enabled webhooks that cover its asset, nowhere
 * else: the webhooks are read within the event's own account. A delivery's key is the event's id,
 * unique per integration, so an event is enqueued once per webhook, however often it is read (a
 * new leader, a restart, the look behind). The cursor is written with the deliveries it passed
 * (and at stop), never on its own per event: an event no webhook wants writes nothing. The body
 * is made here and fixed: every try posts the same bytes.
 */
export class AlarmEventReader {
  private cursor: EventCursor | undefined;
  /** Events already read within the look-behind window, by id: their created_at. */
  private readonly seen = new Map<string, number>();
  /** Events made up to this time are never read (passed over while no webhook wanted them). */
  private floor = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** Reads new events into deliveries; answers how many events were read. */
  async round(): Promise<number> {
    const repo = new WebhookRepository(this.db);
    this.cursor ??= (await repo.cursor()) ?? {
      createdAt: this.clock.now() - EVENT_LOOKBACK_MS,
      id: '',
    };
    const cursor = this.cursor;
    const since = Math.max(cursor.createdAt - EVENT_LOOKBACK_MS, this.floor);
    for (const [id, createdAt] of this.seen) if (createdAt <= since) this.seen.delete(id);
    const late = (await repo.eventIdsBetween(since, cursor.createdAt, LOOKBACK_IDS))
      .filter((e) => !this.seen.has(e.id))
      .slice(0, EVENT_BATCH)
      .map((e) => e.id);
    const events = [
      ...new Map(
        [...(await repo.eventsByIds(late)), ...(await repo.eventsAfter(cursor, EVENT_BATCH))].map(
          (e) => [e.id, e],
        ),
      ).values(),
    ];
    if (events.length === 0) return 0;
    let next = cursor;
    const byAccount = new Map<string, AlarmEventRow[]>();
    for (const event of events) {
      const at = { createdAt: Number(event.created_at), id: event.id };
      if (after(at, next)) next = at;
      const list = byAccount.get(event.account_id) ?? [];
      list.push(event);
      byAccount.set(event.account_id, list);
    }
    // Every account's deliveries first, then written together with the cursor: a failure leaves
    // the cursor where it was, and these events are read again next round.
    const deliveries = new Map<string, NewDelivery[]>();
    for (const [accountId, list] of byAccount) {
      const rows = await this.deliveriesOf(accountId, list);
      if (rows.length > 0) deliveries.set(accountId, rows);
    }
    if (deliveries.size > 0) await repo.enqueueEvents(deliveries, next);
    for (const event of events) this.seen.set(event.id, Number(event.created_at));
    this.cursor = next;
    return events.length;
  }

  /**
   * Moves past every event made up to `now` without reading them: no webhook exists to want them
   * (in memory only; nothing is written while no webhook exists).
   */
  passOver(now: number): void {
    const to = { createdAt: now, id: '' };
    if (this.cursor === undefined || after(to, this.cursor)) this.cursor = to;
    this.floor = Math.max(this.floor, now);
    this.seen.clear();
  }

  /** Keeps the cursor for the next leader (at stop: what no delivery carried yet). */
  async save(): Promise<void> {
    if (this.cursor !== undefined) await new WebhookRepository(this.db).saveCursor(this.cursor);
  }

  private async deliveriesOf(
    accountId: string,
    events: readonly AlarmEventRow[],
  ): Promise<NewDelivery[]> {
    const webhooks = await webhooksOf(this.db, accountId);
    if (webhooks.length === 0) return [];
    const now = this.clock.now();
    const rows: NewDelivery[] = [];
    for (const event of events) {
      if (event.asset_id === null) continue;
      const covering = webhooks.filter((w) => webhookCovers(w.webhook, event.asset_id));
      if (covering.length === 0) continue;
      const alarm = await readAlarm(this.db, accountId, event.alarm_id);
      const asset = {
        id: event.asset_id,
        name: await assetName(this.db, accountId, event.asset_id),
      };
      for (const webhook of covering) rows.push(delivery(webhook, event, alarm, asset, now));
    }
    return rows;
  }
}

function delivery(
  webhook: Webhook,
  event: AlarmEventRow,
  alarm: { readonly name: string; readonly severity: string } | undefined,
  asset: WebhookAlarmBody['asset'],
  now: number,
): NewDelivery {
  const id = uuidv7(now);
  const body: WebhookAlarmBody = {
    id,
    type: EVENT_TYPES[event.kind],
    account_id: webhook.accountId,
    integration_id: webhook.id,
    created_at: now,
    asset,
    alarm: {
      id: event.alarm_id,
      name: alarm?.name ?? event.alarm_id,
      severity: alarm?.severity ?? 'warning',
    },
    event: {
      id: event.id,
      kind: event.kind,
      ts: Number(event.ts),
      value: event.value === null ? null : Number(event.value),
      count: Number(event.count),
      by_user: event.by_user,
      note: event.note,
    },
  };
  return {
    id,
    integration_id: webhook.id,
    key: `alarm:${event.id}`,
    event_type: body.type,
    asset_id: asset.id,
    alarm_id: event.alarm_id,
    points: null,
    body: JSON.stringify(body),
    state: 'waiting',
    attempts: 0,
    attempt_log: '[]',
    next_at: now,
    lease_until: null,
    created_at: now,
  };
}
