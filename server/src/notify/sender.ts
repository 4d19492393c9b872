import { notifyIntervalMs, uuidv7, type AlarmAttributes } from '@plant/shared-schema';
import type { Db } from '../db/database';
import type { Logger } from '../logger';
import {
  AlarmDeliveryRepository,
  type DeliveryRow,
  type EventRow,
} from './alarm-delivery.repository';
import { assetName, isShelved, readAlarm } from './alarm-facts';
import { PermanentDeliveryError, type Channel, type SendOutcome } from './contract';
import type { Touched } from './expansion';
import { digestMessage, singleMessage, type MessageItem } from './messages';
import { errorText, LEASE_MS, MAX_ATTEMPTS, RETRY_BACKOFF_MS } from './recipient-invites';
import { RecipientInviteRepository } from './recipient-invite.repository';
import { resolveKeys, SKIP_REASONS } from './recipients';

/** Deliveries read per round at most. */
export const SEND_BATCH = 500;

/**
 * Rows of one alarm told in one message at most (a day's flapping at 1 Hz held by a closed
 * window is more): the rest go in the next one.
 */
export const FOLD_MAX = 5_000;

export interface SendContext {
  readonly db: Db;
  readonly log: Logger;
  readonly channels: ReadonlyMap<string, Channel>;
  readonly appUrl: string;
}

/** Facts read once per send, by id. */
class Facts {
  private readonly alarms = new Map<string, Promise<AlarmAttributes | undefined>>();
  private readonly assets = new Map<string, Promise<string>>();

  constructor(
    private readonly db: Db,
    private readonly accountId: string,
  ) {}

  alarm(id: string) {
    let found = this.alarms.get(id);
    if (found === undefined) {
      found = readAlarm(this.db, this.accountId, id);
      this.alarms.set(id, found);
    }
    return found;
  }

  asset(id: string) {
    let found = this.assets.get(id);
    if (found === undefined) {
      found = assetName(this.db, this.accountId, id);
      this.assets.set(id, found);
    }
    return found;
  }
}

/**
 * Sends what is due now. Rows of one recipient on one channel due in the same round go out as
 * one message (a digest when there are several: many alarms at once, or what waited for a
 * window); each group is claimed first (waiting -> sending, with a lease), so two processes never
 * both send a row. Fills `touched` with the raises whose deliveries moved. Answers the messages
 * handed to a channel.
 */
export async function sendDue(ctx: SendContext, now: number, touched: Touched): Promise<number> {
  const repo = new AlarmDeliveryRepository(ctx.db);
  const groups = new Map<string, DeliveryRow[]>();
  for (const row of await repo.dueDeliveries(now, SEND_BATCH)) {
    const key = `${row.account_id} ${row.recipient_key} ${row.channel}`;
    const list = groups.get(key) ?? [];
    list.push(row);
    groups.set(key, list);
  }
  let messages = 0;
  for (const group of groups.values()) {
    const first = group[0];
    if (first === undefined) continue;
    const rows = await holdWithinInterval(ctx.db, repo, group, now);
    if (rows.length === 0) continue;
    const digestId = uuidv7(now);
    const ids = rows.map((r) => r.id);
    const claimed = await repo.claim(first.account_id, ids, digestId, now, now + LEASE_MS);
    if (claimed.length === 0) continue;
    for (const r of claimed)
      if (r.kind !== 'cleared')
        touched.set(r.event_id, { accountId: r.account_id, alarmId: r.alarm_id });
    try {
      if (await sendGroup(ctx, repo, claimed, digestId, now)) messages += 1;
    } catch (err) {
      // Left as sending: the lease runs out and a later round takes them again.
      ctx.log.error('alarm delivery failed unexpectedly', { digest: digestId, error: String(err) });
    }
  }
  return messages;
}

/**
 * The message interval (issue 30 item 2): of one recipient's due rows on one channel, those of an
 * alarm that reached this recipient on this channel less than its `notify_interval_min` ago are
 * held until the interval ends (still waiting, due then); the others are answered. Held rows of
 * one alarm then come due together and go out as one item that counts them (`foldByAlarm`), so
 * a flapping alarm tells each recipient at most once per interval, and nothing is dropped. The
 * state is the rows themselves: a restart holds and releases the same.
 */
async function holdWithinInterval(
  db: Db,
  repo: AlarmDeliveryRepository,
  rows: readonly DeliveryRow[],
  now: number,
): Promise<DeliveryRow[]> {
  const first = rows[0];
  if (first === undefined) return [];
  const byAlarm = new Map<string, DeliveryRow[]>();
  for (const row of rows) byAlarm.set(row.alarm_id, [...(byAlarm.get(row.alarm_id) ?? []), row]);
  const due: DeliveryRow[] = [];
  for (const [alarmId, ofAlarm] of byAlarm) {
    const alarm = await readAlarm(db, first.account_id, alarmId);
    const interval = alarm === undefined ? 0 : notifyIntervalMs(alarm);
    const last =
      interval === 0
        ? undefined
        : await repo.lastSent(first.account_id, alarmId, first.recipient_key, first.channel);
    if (last === undefined || now >= last + interval) {
      // All of it at once, not only what this round's batch read: else the rest would wait
      // for another interval behind the message sent now.
      const all = await repo.dueOfAlarm(
        first.account_id,
        alarmId,
        first.recipient_key,
        first.channel,
        now,
        FOLD_MAX,
      );
      const ids = new Set(all.map((r) => r.id));
      due.push(...all, ...ofAlarm.filter((r) => !ids.has(r.id)));
      continue;
    }
    await repo.hold(
      first.account_id,
      ofAlarm.map((r) => r.id),
      last + interval,
      now,
    );
  }
  return due;
}

/**
 * One message item per alarm: rows of one alarm due together (held by its message interval, or
 * waiting for a window) are told as their latest transition, with how many earlier ones it
 * stands for and since when.
 */
function foldByAlarm(
  items: readonly { row: DeliveryRow; item: MessageItem }[],
): { rows: DeliveryRow[]; item: MessageItem }[] {
  const byAlarm = new Map<string, { row: DeliveryRow; item: MessageItem }[]>();
  for (const i of items) byAlarm.set(i.row.alarm_id, [...(byAlarm.get(i.row.alarm_id) ?? []), i]);
  const out: { rows: DeliveryRow[]; item: MessageItem }[] = [];
  for (const list of byAlarm.values()) {
    const sorted = [...list].sort((a, b) => a.item.ts - b.item.ts || a.row.step - b.row.step);
    const latest = sorted[sorted.length - 1];
    const earliest = sorted[0];
    if (latest === undefined || earliest === undefined) continue;
    out.push({
      rows: sorted.map((i) => i.row),
      item:
        sorted.length === 1
          ? latest.item
          : {
              ...latest.item,
              omitted: {
                count: sorted.length - 1,
                since: earliest.item.ts,
                everyMin: Math.round(notifyIntervalMs(latest.item.alarm) / 60_000),
              },
            },
    });
  }
  return out;
}

async function sendGroup(
  ctx: SendContext,
  repo: AlarmDeliveryRepository,
  rows: readonly DeliveryRow[],
  digestId: string,
  now: number,
): Promise<boolean> {
  const first = rows[0];
  if (first === undefined) return false;
  const accountId = first.account_id;
  const finish = (row: DeliveryRow, values: Parameters<AlarmDeliveryRepository['finish']>[3]) =>
    repo.finish(accountId, row.id, digestId, values);
  const skip = (row: DeliveryRow, reason: string) =>
    finish(row, { state: 'skipped', last_error: reason, sent_at: null });

  const reach = (
    await resolveKeys(repo, new RecipientInviteRepository(ctx.db), accountId, [first.recipient_key])
  ).get(first.recipient_key);
  if (reach === undefined || typeof reach === 'string') {
    for (const row of rows) await skip(row, reach ?? SKIP_REASONS.notMember);
    return false;
  }
  const channel = ctx.channels.get(first.channel);
  if (channel === undefined) {
    for (const row of rows) await skip(row, SKIP_REASONS.noChannel);
    return false;
  }

  const facts = new Facts(ctx.db, accountId);
  const events = new Map<string, EventRow>(
    (
      await repo.eventsByIds(
        accountId,
        rows.map((r) => r.event_id),
      )
    ).map((e) => [e.id, e]),
  );
  const items: { row: DeliveryRow; item: MessageItem }[] = [];
  for (const row of rows) {
    const alarm = await facts.alarm(row.alarm_id);
    const ev = events.get(row.event_id);
    if (alarm === undefined || ev === undefined) await skip(row, SKIP_REASONS.alarmGone);
    else if (isShelved(alarm, now)) await skip(row, SKIP_REASONS.shelved);
    else
      items.push({
        row,
        item: {
          kind: row.kind,
          alarmId: row.alarm_id,
          alarm,
          severity: alarm.severity,
          assetName: await facts.asset(alarm.asset_id),
          value: ev.value,
          ts: ev.ts,
        },
      });
  }
  const folded = foldByAlarm(items);
  const only = folded[0];
  const onlyRow = only?.rows[only.rows.length - 1];
  if (only === undefined || onlyRow === undefined) return false;
  const timezone = reach.settings?.window?.timezone ?? null;
  const account = await repo.account(accountId);
  const message =
    folded.length === 1
      ? singleMessage(
          accountId,
          only.item,
          `alarm:${onlyRow.alarm_id}:${onlyRow.event_id}:${onlyRow.step}`,
          ctx.appUrl,
          timezone,
        )
      : digestMessage(
          accountId,
          account?.name ?? '',
          folded.map((i) => i.item),
          `digest:${digestId}`,
          ctx.appUrl,
          timezone,
        );

  let outcome: SendOutcome;
  try {
    outcome = await channel.send(reach.to, message);
  } catch (err) {
    const error = errorText(err);
    const permanent = err instanceof PermanentDeliveryError;
    ctx.log.warn('alarm delivery failed', {
      digest: digestId,
      channel: channel.name,
      error,
      permanent,
    });
    for (const { row } of items) {
      const backoff = RETRY_BACKOFF_MS[row.attempts - 1];
      if (permanent || backoff === undefined || row.attempts >= MAX_ATTEMPTS)
        await finish(row, { state: 'failed', last_error: error, sent_at: null });
      else
        await finish(row, {
          state: 'waiting',
          last_error: error,
          sent_at: null,
          due_at: now + backoff,
        });
    }
    return false;
  }
  for (const { row } of items) {
    if (outcome.kind === 'sent')
      await finish(row, { state: 'sent', last_error: null, sent_at: now });
    else await skip(row, outcome.reason);
  }
  return outcome.kind === 'sent';
}
