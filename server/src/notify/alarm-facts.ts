import {
  alarmModel,
  nextDeliverySlot,
  type AlarmAttributes,
  type NotificationSettings,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import { ModelRepository } from '../repositories/model.repository';

/** An alarm's attributes as stored, or undefined when it is gone. */
export async function readAlarm(
  db: Db,
  accountId: string,
  alarmId: string,
): Promise<AlarmAttributes | undefined> {
  const row = await new ModelRepository(db).find(accountId, alarmModel.type, alarmId);
  return row === undefined ? undefined : (JSON.parse(row.attributes) as AlarmAttributes);
}

/** An asset's name for a message (its id when the asset is gone or has no name). */
export async function assetName(db: Db, accountId: string, assetId: string): Promise<string> {
  const row = await new ModelRepository(db).find(accountId, 'asset', assetId);
  if (row === undefined) return assetId;
  const name = (JSON.parse(row.attributes) as { name?: unknown }).name;
  return typeof name === 'string' && name !== '' ? name : assetId;
}

/** Shelved for maintenance at `now`: nothing is sent (issue 17 item 2). */
export function isShelved(alarm: Pick<AlarmAttributes, 'shelved_until'>, now: number): boolean {
  return alarm.shelved_until !== null && alarm.shelved_until > now;
}

/**
 * When a delivery is due: a user's at the next slot of its notification window from the
 * transition's time (never later than it would be from now: a point stamped ahead by a
 * gateway's clock waits for nothing); an outside address, or a critical alarm of an account
 * that lets critical alarms override windows, at once.
 */
export function dueAt(
  settings: NotificationSettings | null,
  ts: number,
  now: number,
  overrideWindow: boolean,
): number {
  if (settings === null || overrideWindow) return now;
  return nextDeliverySlot(settings, Math.min(ts, now));
}
