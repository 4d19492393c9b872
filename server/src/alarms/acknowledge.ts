import {
  ALARM_TEXTS,
  alarmModel,
  type AlarmAckAttributes,
  type AlarmAttributes,
  type AlarmStatus,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import { ModelRepository, type ModelRow } from '../repositories/model.repository';
import { invalidInput, notFound } from '../services/domain-error';
import { AlarmRepository } from '../repositories/alarm.repository';
import { INITIAL_ALARM_STATUS } from './alarm-status';

/*
 * What the server does with alarm writes beyond storing them (issue 17 item 2), inside the
 * write's transaction (the account's clock is held): an acknowledgement marks the latest raise,
 * a disabled or deleted alarm stops standing where it stood.
 */

/** What an acknowledgement changes: its own server fields, and its alarm's status. */
export interface Acknowledged {
  readonly ack: Pick<AlarmAckAttributes, 'by_user' | 'at' | 'raised_at'>;
  readonly alarm: ModelRow;
  readonly status: AlarmStatus;
}

/**
 * Acknowledges the alarm's latest raise, by `byUser` at `now`, with the note: the state row (the
 * next raise counts from 1 again), an `acknowledged` event in the history, and the status. Only
 * a raise not yet acknowledged can be: an acknowledgement given offline by a second user after
 * the first one's landed is refused with a text that says why.
 */
export async function acknowledgeIn(
  trx: Db,
  accountId: string,
  ack: Pick<AlarmAckAttributes, 'alarm_id' | 'note'>,
  byUser: string | null,
  now: number,
): Promise<Acknowledged> {
  const alarm = await new ModelRepository(trx).find(accountId, alarmModel.type, ack.alarm_id);
  if (alarm === undefined) throw notFound('Model');
  const status = (JSON.parse(alarm.attributes) as AlarmAttributes).status;
  if (status === null || status.raised_at === null || status.acknowledged)
    throw invalidInput({ alarm_id: [ALARM_TEXTS.nothingToAcknowledge] });
  const repo = new AlarmRepository(trx);
  await repo.acknowledge(accountId, ack.alarm_id);
  const note = ack.note === '' ? null : ack.note;
  await repo.addEvents(
    accountId,
    [
      {
        alarm_id: ack.alarm_id,
        asset_id: alarm.asset_id,
        kind: 'acknowledged',
        ts: now,
        value: null,
        count: status.count,
        by_user: byUser,
        note,
      },
    ],
    now,
  );
  return {
    ack: { by_user: byUser, at: now, raised_at: status.raised_at },
    alarm,
    status: {
      ...status,
      acknowledged: true,
      acknowledged_by: byUser,
      acknowledged_at: now,
      note,
    },
  };
}

/**
 * An alarm disabled (or deleted) stops where it stood: its state row goes, so enabling it again
 * starts from normal, and a status that was pending or active reads normal, cleared now. Answers
 * the status to write, or undefined when there is none to change.
 */
export async function standDownIn(
  trx: Db,
  accountId: string,
  alarmId: string,
  status: AlarmStatus | null,
  now: number,
): Promise<AlarmStatus | undefined> {
  await new AlarmRepository(trx).forget(accountId, [alarmId]);
  if (status === null || status.state === 'normal') return undefined;
  return {
    ...(status ?? INITIAL_ALARM_STATUS),
    state: 'normal',
    since: null,
    cleared_at: status.state === 'active' ? now : status.cleared_at,
  };
}
