import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import {
  ALARM_TEXTS,
  type AlarmChannel,
  type AlarmCondition,
  type AlarmKind,
} from '@plant/shared-schema';
import { translateServerText } from '../../i18n/server-texts';

/*
 * The alarm screens' words for the model's values, and the shared schema's alarm checks
 * (ALARM_TEXTS: English message ids) in the chosen language. Kept here rather than in
 * server-texts.ts: only the lazily loaded alarm pages need them.
 */

export { severityColor, severityLabel } from './alarm-summary';

const CONDITION_LABELS: Record<AlarmCondition, MessageDescriptor> = {
  greater: msg`Above the upper limit`,
  less: msg`Below the lower limit`,
  exact: msg`Within the limits (or equal to one)`,
};

export function conditionLabel(i18n: I18n, condition: AlarmCondition): string {
  return i18n._(CONDITION_LABELS[condition]);
}

const KIND_LABELS: Record<AlarmKind, MessageDescriptor> = {
  limit: msg`A value past a limit`,
  no_data: msg`No data for some minutes`,
  offline: msg`Gateway offline for some minutes`,
};

export function kindLabel(i18n: I18n, kind: AlarmKind): string {
  return i18n._(KIND_LABELS[kind]);
}

const CHANNEL_LABELS: Record<AlarmChannel, MessageDescriptor> = {
  mail: msg`Mail`,
  sms: msg`SMS`,
  push: msg`Push`,
};

export function channelLabel(i18n: I18n, channel: AlarmChannel): string {
  return i18n._(CHANNEL_LABELS[channel]);
}

const CHECKS = new Map<string, MessageDescriptor>([
  [ALARM_TEXTS.limitRequired, msg`An alarm needs an upper or lower limit.`],
  [ALARM_TEXTS.limitNotNumber, msg`Must be a numerical value or empty`],
  [ALARM_TEXTS.upperRequired, msg`A 'greater than' alarm needs an upper limit.`],
  [ALARM_TEXTS.lowerRequired, msg`A 'less than' alarm needs a lower limit.`],
  [
    ALARM_TEXTS.upperUnused,
    msg`A 'less than' alarm uses only the lower limit: leave the upper limit empty.`,
  ],
  [
    ALARM_TEXTS.lowerUnused,
    msg`A 'greater than' alarm uses only the upper limit: leave the lower limit empty.`,
  ],
  [ALARM_TEXTS.limitsCrossed, msg`The lower limit must not be above the upper limit.`],
  [ALARM_TEXTS.notNegative, msg`Must be at least 0`],
  [ALARM_TEXTS.delayTooLong, msg`The delay may be at most 86,400 seconds (one day).`],
  [ALARM_TEXTS.notifyIntervalRange, msg`Whole minutes from 0 to 1,440 (one day).`],
  [ALARM_TEXTS.channelsRequired, msg`Choose at least one channel.`],
  [ALARM_TEXTS.channelTwice, msg`A channel is listed twice.`],
  [ALARM_TEXTS.recipientNeedsOne, msg`A recipient is either a user or an email address.`],
  [ALARM_TEXTS.tooManyRecipients, msg`An alarm may have at most 50 recipients.`],
  [ALARM_TEXTS.unitMismatch, msg`The alarm's unit must match the data stream's unit.`],
  [ALARM_TEXTS.streamType, msg`Alarms can only watch data streams of numbers or states.`],
  [ALARM_TEXTS.streamOfOtherAsset, msg`The data stream belongs to another asset.`],
  [
    ALARM_TEXTS.streamHasAlarms,
    msg`This data stream has alarms, which watch numbers or states only.`,
  ],
  [ALARM_TEXTS.duplicateRecipient, msg`This recipient is listed twice.`],
  [ALARM_TEXTS.afterRequired, msg`Say after how many minutes the alarm fires.`],
  [ALARM_TEXTS.afterRange, msg`Between 1 minute and 7 days.`],
  [ALARM_TEXTS.limitsUnused, msg`This kind of alarm uses no limits: leave them empty.`],
  [ALARM_TEXTS.nothingToAcknowledge, msg`This alarm has nothing to acknowledge.`],
]);

/** A text of an alarm check (the form's, the worker's or the server's) in the chosen language. */
export function alarmText(i18n: I18n, text: string): string {
  const known = CHECKS.get(text);
  return known === undefined ? translateServerText(i18n, text) : i18n._(known);
}
