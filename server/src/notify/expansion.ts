import { uuidv7, type AlarmAttributes } from '@plant/shared-schema';
import type { Db } from '../db/database';
import type { Logger } from '../logger';
import {
  AlarmDeliveryRepository,
  type DeliveryRow,
  type EventRow,
  type NewDelivery,
} from './alarm-delivery.repository';
import { dueAt, isShelved, readAlarm } from './alarm-facts';
import type { DeliveryKind } from './messages';
import { RecipientInviteRepository } from './recipient-invite.repository';
import { resolveKeys, resolveRecipients, SKIP_REASONS, type Reachable } from './recipients';

/**
 * How long an active critical alarm may stay unacknowledged before its escalation's next step:
 * 15 minutes (the repeat to whoever was told, then the next recipient of the list, and so on).
 */
export const ESCALATION_AFTER_MS = 15 * 60_000;

/** Events expanded per round at most (a round that reaches it asks for another at once). */
export const EXPAND_BATCH = 500;

/** What an expansion or an escalation step made: the raises whose deliveries it touched. */
export type Touched = Map<string, { readonly accountId: string; readonly alarmId: string }>;

interface Planned {
  readonly key: string;
  readonly channel: DeliveryRow['channel'];
  readonly state: 'waiting' | 'skipped';
  readonly due: number;
  readonly reason: string | null;
}

function rowsOf(
  ev: EventRow,
  step: number,
  kind: DeliveryKind,
  planned: readonly Planned[],
  now: number,
): NewDelivery[] {
  return planned.map((p) => ({
    id: uuidv7(now),
    event_id: ev.id,
    alarm_id: ev.alarm_id,
    step,
    kind,
    recipient_key: p.key,
    channel: p.channel,
    due_at: p.due,
    state: p.state,
    attempts: 0,
    last_error: p.reason,
    created_at: now,
  }));
}

/** Whether the account lets this alarm through closed windows (critical, and the account says so). */
async function overrides(repo: AlarmDeliveryRepository, ev: EventRow, alarm: AlarmAttributes) {
  if (alarm.severity !== 'critical') return false;
  return (await repo.account(ev.account_id))?.alarm_critical_override === 1;
}

/**
 * Deliveries to recipients told before (by key and channel), resolved again now: a member who
 * left or an address that declined meanwhile is skipped; a shelved alarm skips everyone.
 */
async function toTold(
  repo: AlarmDeliveryRepository,
  invites: RecipientInviteRepository,
  ev: EventRow,
  told: readonly { key: string; channel: DeliveryRow['channel'] }[],
  alarm: AlarmAttributes,
  ts: number,
  now: number,
): Promise<Planned[]> {
  const reach = await resolveKeys(repo, invites, ev.account_id, [
    ...new Set(told.map((t) => t.key)),
  ]);
  const override = await overrides(repo, ev, alarm);
  const shelved = isShelved(alarm, now);
  return told.map(({ key, channel }): Planned => {
    const r: Reachable | string = reach.get(key) ?? SKIP_REASONS.notMember;
    if (typeof r === 'string') return { key, channel, state: 'skipped', due: now, reason: r };
    if (shelved) return { key, channel, state: 'skipped', due: now, reason: SKIP_REASONS.shelved };
    return {
      key,
      channel,
      state: 'waiting',
      due: dueAt(r.settings, ts, now, override),
      reason: null,
    };
  });
}

/**
 * A raise: a delivery per recipient and channel (skipped ones recorded with why). A critical
 * alarm's recipients are an escalation ladder: the raise goes to the first one that can be
 * reached; the others are told by its escalation (escalation.ts) while nobody acknowledges.
 */
async function planRaise(
  repo: AlarmDeliveryRepository,
  invites: RecipientInviteRepository,
  ev: EventRow,
  alarm: AlarmAttributes,
  now: number,
): Promise<Planned[]> {
  const resolved = await resolveRecipients(repo, invites, ev.account_id, alarm.recipients, now);
  const critical = alarm.severity === 'critical';
  const override = await overrides(repo, ev, alarm);
  const shelved = isShelved(alarm, now);
  const planned: Planned[] = [];
  let first = true;
  for (const r of resolved) {
    for (const s of r.skipped)
      planned.push({
        key: r.key,
        channel: s.channel,
        state: 'skipped',
        due: now,
        reason: s.reason,
      });
    if (r.reachable === null || r.channels.length === 0) continue;
    if (critical && !first) continue;
    first = false;
    const settings = r.reachable.settings;
    for (const channel of r.channels)
      planned.push(
        shelved
          ? { key: r.key, channel, state: 'skipped', due: now, reason: SKIP_REASONS.shelved }
          : {
              key: r.key,
              channel,
              state: 'waiting',
              due: dueAt(settings, ev.ts, now, override),
              reason: null,
            },
      );
  }
  return planned;
}

/** Who got (or is about to get) a raise, by key and channel, without repeats. */
export function toldOf(
  rows: readonly DeliveryRow[],
  states: readonly DeliveryRow['state'][],
): { key: string; channel: DeliveryRow['channel'] }[] {
  const seen = new Map<string, { key: string; channel: DeliveryRow['channel'] }>();
  for (const r of rows)
    if (states.includes(r.state))
      seen.set(`${r.recipient_key} ${r.channel}`, { key: r.recipient_key, channel: r.channel });
  return [...seen.values()];
}

type Outcome = 'expanded' | 'deferred' | 'taken';

/**
 * One event, in one transaction: the claim (compare-and-set on `expanded_at`) and the
 * deliveries it makes commit together, so a crash between them leaves the event to expand again
 * and a second process never expands it too.
 */
async function expandOne(db: Db, ev: EventRow, now: number, touched: Touched): Promise<Outcome> {
  return db.transaction().execute(async (trx) => {
    const repo = new AlarmDeliveryRepository(trx);
    const invites = new RecipientInviteRepository(trx);
    const accountId = ev.account_id;
    const alarm = await readAlarm(trx, accountId, ev.alarm_id);
    if (ev.kind === 'raised') {
      // Shelved too: its steps are then recorded as skipped, and whoever is next is told once
      // the shelving ended while the raise still stands unacknowledged.
      const escalates = alarm?.severity === 'critical';
      const escalateAt = escalates ? now + ESCALATION_AFTER_MS : null;
      if (!(await repo.claimEvent(accountId, ev.id, now, escalateAt))) return 'taken';
      if (alarm === undefined) return 'expanded';
      const planned = await planRaise(repo, invites, ev, alarm, now);
      const reachable = planned.some(
        (p) => p.state === 'waiting' || p.reason === SKIP_REASONS.shelved,
      );
      if (escalates && !reachable) await repo.stopEscalation(accountId, ev.id);
      await repo.insert(accountId, rowsOf(ev, 0, 'raised', planned, now));
      touched.set(ev.id, { accountId, alarmId: ev.alarm_id });
      return 'expanded';
    }
    const raise = await repo.latestRaise(accountId, ev.alarm_id, ev.ts);
    // A clear is told to whoever got its raise: wait until that raise's deliveries exist (another
    // process may be expanding it right now).
    if (raise !== undefined && (raise.expanded_at ?? null) === null) return 'deferred';
    if (!(await repo.claimEvent(accountId, ev.id, now, null))) return 'taken';
    if (raise !== undefined) await repo.stopEscalation(accountId, raise.id);
    // Info alarms tell of their raise only; acknowledgements end the escalation and tell nobody.
    if (ev.kind !== 'cleared' || raise === undefined || alarm === undefined) return 'expanded';
    if (alarm.severity === 'info') return 'expanded';
    const told = toldOf(await repo.ofEvents(accountId, [raise.id]), ['sent', 'sending', 'waiting']);
    const planned = await toTold(repo, invites, ev, told, alarm, ev.ts, now);
    await repo.insert(accountId, rowsOf(ev, 0, 'cleared', planned, now));
    return 'expanded';
  });
}

/**
 * Expands the events no process expanded yet, oldest first (the outbox). Answers how many it
 * read (EXPAND_BATCH: there may be more) and fills `touched` with the raises it expanded.
 */
export async function expandEvents(
  db: Db,
  now: number,
  log: Logger,
  touched: Touched,
): Promise<number> {
  const events = await new AlarmDeliveryRepository(db).unexpanded(EXPAND_BATCH);
  for (const ev of events) {
    try {
      await expandOne(db, ev, now, touched);
    } catch (err) {
      // Left unexpanded: the next round tries again; the others go on.
      log.error('alarm event expansion failed', { event: ev.id, error: String(err) });
    }
  }
  return events.length;
}

export { toTold, planRaise, rowsOf, type Planned };
