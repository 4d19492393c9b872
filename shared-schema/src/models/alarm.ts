import { z } from 'zod';
import { emailField, idField, modelNameField } from '../api/fields';
import type { ModelDefinition } from './registry-types';

/**
 * Alarms on data streams (spec 001 §3, §5; issue 17): limits, a condition, a severity, a delay
 * (the condition must hold that long before the alarm fires) and a hysteresis (it clears only
 * once the value is back past the limit by that margin), and who is told, on which channels.
 *
 * What each condition means (`alarms/evaluate.ts` is the one implementation):
 * - `greater`: in alarm while the value is greater than the upper limit (the only limit it uses);
 *   clears once the value is at or below `upper_limit - hysteresis`.
 * - `less`: in alarm while the value is less than the lower limit (the only limit it uses);
 *   clears once the value is at or above `lower_limit + hysteresis`.
 * - `exact`: in alarm while the value lies in the band from the lower to the upper limit, both
 *   included; with one limit the band is that one number, so the value must equal it exactly (a
 *   state stream's state 3; for a measured value give both limits as a tolerance). Clears once
 *   the value lies outside the band by more than the hysteresis.
 */
export const ALARM_CONDITIONS = ['exact', 'greater', 'less'] as const;
export type AlarmCondition = (typeof ALARM_CONDITIONS)[number];

export const ALARM_SEVERITIES = ['info', 'warning', 'critical'] as const;
export type AlarmSeverity = (typeof ALARM_SEVERITIES)[number];

export const ALARM_CHANNELS = ['mail', 'sms', 'push'] as const;
export type AlarmChannel = (typeof ALARM_CHANNELS)[number];

/** The stream types an alarm may watch: those whose values are numbers. */
export const ALARM_STREAM_TYPES = ['number', 'state'] as const;

/** Bounds of an alarm's fields. */
export const ALARM_LIMITS = {
  /** The longest delay: a day. */
  maxDelayS: 86_400,
  maxRecipients: 50,
} as const;

/** The texts of alarm checks (English message ids; the client translates them). */
export const ALARM_TEXTS = {
  /** Spec 001 §5: an alarm needs an upper or lower limit. */
  limitRequired: 'An alarm needs an upper or lower limit.',
  /** Spec 001 §5's text for a field that takes a number or nothing. */
  limitNotNumber: 'Must be a numerical value or empty',
  upperRequired: "A 'greater than' alarm needs an upper limit.",
  lowerRequired: "A 'less than' alarm needs a lower limit.",
  upperUnused: "A 'less than' alarm uses only the lower limit: leave the upper limit empty.",
  lowerUnused: "A 'greater than' alarm uses only the upper limit: leave the lower limit empty.",
  limitsCrossed: 'The lower limit must not be above the upper limit.',
  /** Spec 001 §5: "Must be at least {number}", for the delay and the hysteresis. */
  notNegative: 'Must be at least 0',
  delayTooLong: 'The delay may be at most 86,400 seconds (one day).',
  channelsRequired: 'Choose at least one channel.',
  channelTwice: 'A channel is listed twice.',
  recipientNeedsOne: 'A recipient is either a user or an email address.',
  tooManyRecipients: 'An alarm may have at most 50 recipients.',
  /** Spec 001 §5: the alarm's unit must match the stream's. */
  unitMismatch: "The alarm's unit must match the data stream's unit.",
  streamType: 'Alarms can only watch data streams of numbers or states.',
  streamOfOtherAsset: 'The data stream belongs to another asset.',
  /** A stream with alarms keeps a type they can watch. */
  streamHasAlarms: 'This data stream has alarms, which watch numbers or states only.',
  duplicateRecipient: 'This recipient is listed twice.',
} as const;

const channelsField = z
  .array(z.enum(ALARM_CHANNELS))
  .min(1, ALARM_TEXTS.channelsRequired)
  .max(ALARM_CHANNELS.length)
  .refine((list) => new Set(list).size === list.length, ALARM_TEXTS.channelTwice);

/** One who is told: a user of the account or an outside address, each with its channels. */
export const alarmRecipientSchema = z.union(
  [
    z.strictObject({ user_id: idField, channels: channelsField }),
    z.strictObject({ email: emailField, channels: channelsField }),
  ],
  { error: ALARM_TEXTS.recipientNeedsOne },
);
export type AlarmRecipient = z.infer<typeof alarmRecipientSchema>;

const limitField = z
  .number({ error: ALARM_TEXTS.limitNotNumber })
  .finite(ALARM_TEXTS.limitNotNumber)
  .nullable()
  .default(null);

/**
 * An alarm's attributes. The rules between fields (a limit at all, the limit the condition uses)
 * are in `alarmProblems`, not refinements: updates parse through `.partial()`, which zod 4
 * refuses on a refined object.
 */
export const alarmAttributesSchema = z.object({
  asset_id: idField,
  datastream_id: idField,
  name: modelNameField,
  upper_limit: limitField,
  lower_limit: limitField,
  condition: z.enum(ALARM_CONDITIONS).default('greater'),
  severity: z.enum(ALARM_SEVERITIES).default('warning'),
  /** Optional: when given, it must be the stream's unit (spec 001 §5). */
  unit: z.string().max(50).nullable().default(null),
  delay_s: z
    .number({ error: ALARM_TEXTS.notNegative })
    .int()
    .min(0, ALARM_TEXTS.notNegative)
    .max(ALARM_LIMITS.maxDelayS, ALARM_TEXTS.delayTooLong)
    .default(0),
  hysteresis: z
    .number({ error: ALARM_TEXTS.notNegative })
    .finite()
    .min(0, ALARM_TEXTS.notNegative)
    .default(0),
  recipients: z
    .array(alarmRecipientSchema)
    .max(ALARM_LIMITS.maxRecipients, ALARM_TEXTS.tooManyRecipients)
    .default([]),
  enabled: z.boolean().default(true),
});
export type AlarmAttributes = z.infer<typeof alarmAttributesSchema>;
/** What a create of an alarm takes (defaulted fields may be left out). */
export type AlarmInput = z.input<typeof alarmAttributesSchema>;

/** The fields of an alarm that decide when it fires (what the evaluator reads). */
export type AlarmRule = Pick<
  AlarmAttributes,
  'upper_limit' | 'lower_limit' | 'condition' | 'delay_s' | 'hysteresis'
>;

/**
 * The rules between an alarm's fields, per field (the server refuses a write with any; the form
 * shows them as the user types). Empty when the alarm is valid.
 */
export function alarmProblems(
  a: AlarmRule & Partial<Pick<AlarmAttributes, 'recipients'>>,
): Record<string, string> {
  const problems: Record<string, string> = {};
  const upper = a.upper_limit;
  const lower = a.lower_limit;
  if (upper === null && lower === null) {
    problems.upper_limit = ALARM_TEXTS.limitRequired;
    problems.lower_limit = ALARM_TEXTS.limitRequired;
    return problems;
  }
  if (a.condition === 'greater') {
    if (upper === null) problems.upper_limit = ALARM_TEXTS.upperRequired;
    if (lower !== null) problems.lower_limit = ALARM_TEXTS.lowerUnused;
  } else if (a.condition === 'less') {
    if (lower === null) problems.lower_limit = ALARM_TEXTS.lowerRequired;
    if (upper !== null) problems.upper_limit = ALARM_TEXTS.upperUnused;
  } else if (upper !== null && lower !== null && lower > upper) {
    problems.lower_limit = ALARM_TEXTS.limitsCrossed;
  }
  const seen = new Set<string>();
  for (const r of a.recipients ?? []) {
    const key = 'user_id' in r ? `u:${r.user_id}` : `e:${r.email}`;
    if (seen.has(key)) problems.recipients = ALARM_TEXTS.duplicateRecipient;
    seen.add(key);
  }
  return problems;
}

/** What an alarm's stream must be: of numbers, and of the alarm's unit when it names one. */
export function alarmStreamProblems(
  alarm: Pick<AlarmAttributes, 'unit'>,
  stream: { readonly type: string; readonly unit: string },
): Record<string, string> {
  const problems: Record<string, string> = {};
  if (!(ALARM_STREAM_TYPES as readonly string[]).includes(stream.type))
    problems.datastream_id = ALARM_TEXTS.streamType;
  if (alarm.unit !== null && alarm.unit.trim() !== stream.unit.trim())
    problems.unit = ALARM_TEXTS.unitMismatch;
  return problems;
}

export const alarmModel = {
  type: 'alarm',
  collection: 'alarms',
  parentType: 'datastream',
  parentField: 'datastream_id',
  attributes: alarmAttributesSchema,
  refs: { asset_id: 'asset', datastream_id: 'datastream' },
  fromParent: ['asset_id'],
  permissions: {
    view: 'alarm::view',
    create: 'alarm::create',
    update: 'alarm::edit',
    delete: 'alarm::delete',
  },
  sortField: 'name',
  asset: 'asset_id',
} as const satisfies ModelDefinition<'alarm', typeof alarmAttributesSchema>;
