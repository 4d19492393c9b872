import type { AlarmAttributes } from '@plant/shared-schema';
import type { Db } from '../db/database';
import type { Logger } from '../logger';
import { AlarmDeliveryRepository, type EventRow } from './alarm-delivery.repository';
import { dueAt, isShelved, readAlarm } from './alarm-facts';
import {
  ESCALATION_AFTER_MS,
  rowsOf,
  toldOf,
  toTold,
  type Planned,
  type Touched,
} from './expansion';
import { RecipientInviteRepository } from './recipient-invite.repository';
import { resolveRecipients, SKIP_REASONS } from './recipients';

/*
 * Escalation of an unacknowledged critical raise (issue 17 item 4). Every ESCALATION_AFTER_MS
 * while the alarm stays active, unacknowledged and this raise is its latest:
 *
 *   raise ──15 min──► step 1: repeat ──15 min──► step 2: next ──15 min──► step 3: repeat ─► …
 *   (first reachable     (to everyone whose         recipient of the list    (everyone told,
 *    recipient)           message was sent)          not told yet             the new one too)
 *
 * Odd steps repeat, even steps escalate; an even step that finds nobody left ends it (so the
 * repeat after the last escalation is the last message). An acknowledgement (the alarm's
 * status, or an `acknowledged` event), a clear or a newer raise ends it at the next step, or at
 * once when its event is expanded. While the alarm is shelved, the steps run but their
 * deliveries are recorded as skipped.
 */

async function ended(
  repo: AlarmDeliveryRepository,
  alarm: AlarmAttributes,
  ev: EventRow,
): Promise<boolean> {
  const status = alarm.status;
  if (alarm.severity !== 'critical' || status === null) return true;
  if (status.raised_at !== ev.ts || status.state !== 'active' || status.acknowledged) return true;
  return repo.endedAfter(ev.account_id, ev);
}

async function stepOne(db: Db, ev: EventRow, now: number, touched: Touched): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const repo = new AlarmDeliveryRepository(trx);
    const invites = new RecipientInviteRepository(trx);
    const accountId = ev.account_id;
    const from = ev.escalation_step ?? 0;
    const step = from + 1;
    const alarm = await readAlarm(trx, accountId, ev.alarm_id);
    if (alarm === undefined || (await ended(repo, alarm, ev))) {
      await repo.advanceEscalation(accountId, ev.id, from, null);
      return;
    }
    const existing = await repo.ofEvents(accountId, [ev.id]);
    let planned: Planned[];
    let kind: 'repeat' | 'escalated';
    if (step % 2 === 1) {
      kind = 'repeat';
      planned = await toTold(repo, invites, ev, toldOf(existing, ['sent']), alarm, now, now);
    } else {
      kind = 'escalated';
      const told = new Set(
        existing
          .filter((r) => r.state !== 'skipped' && r.state !== 'failed')
          .map((r) => r.recipient_key),
      );
      const resolved = await resolveRecipients(repo, invites, accountId, alarm.recipients, now);
      const next = resolved.find(
        (r) => r.reachable !== null && r.channels.length > 0 && !told.has(r.key),
      );
      if (next === undefined || next.reachable === null) {
        await repo.advanceEscalation(accountId, ev.id, from, null);
        return;
      }
      const account = await repo.account(accountId);
      const override = account?.alarm_critical_override === 1;
      const shelved = isShelved(alarm, now);
      const settings = next.reachable.settings;
      planned = next.channels.map((channel): Planned =>
        shelved
          ? { key: next.key, channel, state: 'skipped', due: now, reason: SKIP_REASONS.shelved }
          : {
              key: next.key,
              channel,
              state: 'waiting',
              due: dueAt(settings, now, now, override),
              reason: null,
            },
      );
    }
    // The step is this process's only if it moves the step first (compare-and-set).
    if (!(await repo.advanceEscalation(accountId, ev.id, from, now + ESCALATION_AFTER_MS))) return;
    await repo.insert(accountId, rowsOf(ev, step, kind, planned, now));
    touched.set(ev.id, { accountId, alarmId: ev.alarm_id });
  });
}

/** Runs the escalation steps that are due. */
export async function escalate(db: Db, now: number, log: Logger, touched: Touched): Promise<void> {
  for (const ev of await new AlarmDeliveryRepository(db).dueEscalations(now, 200)) {
    try {
      await stepOne(db, ev, now, touched);
    } catch (err) {
      log.error('alarm escalation step failed', { event: ev.id, error: String(err) });
    }
  }
}
