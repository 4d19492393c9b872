import { z } from 'zod';
import { deferred } from '../deferred';
import { helpArticleField } from './help-article-field';
import { emailField, idField, modelNameField } from '../api/fields';
import type { ModelDefinition } from './registry-types';
import { ownPermissions } from './model-permissions';

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

/**
 * What an alarm watches: `limit`, its stream's values against its limits; `no_data`, its stream
 * silent for `after_s` (and longer than its source is expected to be), or at once while its
 * source reports failing (`streamFreshness`, freshness.ts); `offline`, the stream's gateway
 * offline for `after_s`. The last two use no limit, condition or hysteresis.
 */
export const ALARM_KINDS = ['limit', 'no_data', 'offline'] as const;
export type AlarmKind = (typeof ALARM_KINDS)[number];

/** Where an alarm stands, as every screen shows it (`status`, written by the server only). */
export const ALARM_STATUS_STATES = ['normal', 'pending', 'active'] as const;

/** How the latest raise's notifications went (shown on the alarm; spec: failures are shown). */
export const ALARM_DELIVERY_STATES = ['none', 'waiting', 'sent', 'retrying', 'failed'] as const;
export type AlarmChannel = (typeof ALARM_CHANNELS)[number];

/** The stream types an alarm may watch: those whose values are numbers. */
export const ALARM_STREAM_TYPES = ['number', 'state'] as const;

/** Bounds of an alarm's fields. */
export const ALARM_LIMITS = {
  /** The longest delay: a day. */
  maxDelayS: 86_400,
  maxRecipients: 50,
  /** `after_s` of a no-data or offline alarm: a minute to a week. */
  minAfterS: 60,
  maxAfterS: 604_800,
  /** An acknowledgement's note. */
  maxNote: 500,
  /**
   * At most one message per alarm and recipient (and channel) in this many minutes while the
   * alarm flaps (issue 30 item 2); what is held back goes out at the period's end, counted.
   * 0: every state change is told at once.
   */
  defaultNotifyIntervalMin: 15,
  maxNotifyIntervalMin: 1_440,
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
  notifyIntervalRange: 'Whole minutes from 0 to 1,440 (one day).',
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
  afterRequired: 'Say after how many minutes the alarm fires.',
  afterRange: 'Between 1 minute and 7 days.',
  limitsUnused: 'This kind of alarm uses no limits: leave them empty.',
  /** An acknowledgement of an alarm that is not raised, or was acknowledged already. */
  nothingToAcknowledge: 'This alarm has nothing to acknowledge.',
} as const;

const channelsField = /* @__PURE__ */ deferred(() =>
  z
    .array(z.enum(ALARM_CHANNELS))
    .min(1, ALARM_TEXTS.channelsRequired)
    .max(ALARM_CHANNELS.length)
    .refine((list) => new Set(list).size === list.length, ALARM_TEXTS.channelTwice),
);

/** One who is told: a user of the account or an outside address, each with its channels. */
export const alarmRecipientSchema = /* @__PURE__ */ deferred(() =>
  z.union(
    [
      z.strictObject({ user_id: idField, channels: channelsField }),
      z.strictObject({ email: emailField, channels: channelsField }),
    ],
    { error: ALARM_TEXTS.recipientNeedsOne },
  ),
);
export type AlarmRecipient = z.infer<typeof alarmRecipientSchema>;

const limitField = /* @__PURE__ */ deferred(() =>
  z
    .number({ error: ALARM_TEXTS.limitNotNumber })
    .finite(ALARM_TEXTS.limitNotNumber)
    .nullable()
    .default(null),
);

/**
 * Where an alarm stands (server field `status`; null before its first evaluation). Times are
 * epoch milliseconds.
 */
export const alarmStatusSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    state: z.enum(ALARM_STATUS_STATES),
    /** Since when the state holds (active: when it was raised), null when normal. */
    since: z.number().nullable(),
    /** The latest value judged (null for no-data and offline alarms). */
    value: z.number().nullable(),
    /** Raises since the last acknowledgement. */
    count: z.number().int(),
    /** When the latest raise happened, null while none was. */
    raised_at: z.number().nullable(),
    /** When the latest raise cleared, null while it is active or none was raised. */
    cleared_at: z.number().nullable(),
    /** Whether the latest raise was acknowledged (true while none was raised). */
    acknowledged: z.boolean(),
    acknowledged_by: z.string().nullable(),
    acknowledged_at: z.number().nullable(),
    note: z.string().nullable(),
    /** How the latest raise's notifications went. */
    delivery: z.object({
      state: z.enum(ALARM_DELIVERY_STATES),
      attempts: z.number().int(),
      error: z.string().nullable(),
    }),
  }),
);
export type AlarmStatus = z.infer<typeof alarmStatusSchema>;

/**
 * An alarm's attributes. The rules between fields (a limit at all, the limit the condition uses)
 * are in `alarmProblems`, not refinements: updates parse through `.partial()`, which zod 4
 * refuses on a refined object.
 */
export const alarmAttributesSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    asset_id: idField,
    datastream_id: idField,
    name: modelNameField,
    kind: z.enum(ALARM_KINDS).default('limit'),
    /** No-data and offline alarms: seconds without data (or offline) before the alarm fires. */
    after_s: z
      .number({ error: ALARM_TEXTS.afterRange })
      .int(ALARM_TEXTS.afterRange)
      .min(ALARM_LIMITS.minAfterS, ALARM_TEXTS.afterRange)
      .max(ALARM_LIMITS.maxAfterS, ALARM_TEXTS.afterRange)
      .nullable()
      .default(null),
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
    /**
     * Minutes between two messages of this alarm to one recipient on one channel (issue 30 item
     * 2): the state changes in between are held and told together, counted, when the period ends.
     * 0: each at once. Alarms stored before the field read as the default (`notifyIntervalMs`).
     */
    notify_interval_min: z
      .number({ error: ALARM_TEXTS.notifyIntervalRange })
      .int(ALARM_TEXTS.notifyIntervalRange)
      .min(0, ALARM_TEXTS.notifyIntervalRange)
      .max(ALARM_LIMITS.maxNotifyIntervalMin, ALARM_TEXTS.notifyIntervalRange)
      .default(ALARM_LIMITS.defaultNotifyIntervalMin),
    recipients: z
      .array(alarmRecipientSchema)
      .max(ALARM_LIMITS.maxRecipients, ALARM_TEXTS.tooManyRecipients)
      .default([]),
    /** The help article that tells what to do (links like help/136). */
    help_article: helpArticleField,
    enabled: z.boolean().default(true),
    /**
     * Shelved for maintenance until then (epoch ms): evaluated and shown, nobody is told. Null:
     * not shelved.
     */
    shelved_until: z.number().int().positive().nullable().default(null),
    /** Server field: where the alarm stands. */
    status: alarmStatusSchema.nullable().default(null),
  }),
);
export type AlarmAttributes = z.infer<typeof alarmAttributesSchema>;
/** What a create of an alarm takes (defaulted fields may be left out). */
export type AlarmInput = z.input<typeof alarmAttributesSchema>;

/** The fields of an alarm that decide when it fires (what the evaluator reads). */
export type AlarmRule = Pick<
  AlarmAttributes,
  'upper_limit' | 'lower_limit' | 'condition' | 'delay_s' | 'hysteresis'
>;

/**
 * An alarm's message interval in milliseconds; an alarm stored before the field existed (its
 * attributes as stored, not parsed) has the default.
 */
export function notifyIntervalMs(alarm: { readonly notify_interval_min?: number | null }): number {
  const min = alarm.notify_interval_min ?? ALARM_LIMITS.defaultNotifyIntervalMin;
  return min * 60_000;
}

/**
 * The rules between an alarm's fields, per field (the server refuses a write with any; the form
 * shows them as the user types). Empty when the alarm is valid.
 */
export function alarmProblems(
  a: AlarmRule & Partial<Pick<AlarmAttributes, 'recipients' | 'kind' | 'after_s'>>,
): Record<string, string> {
  const problems: Record<string, string> = {};
  const upper = a.upper_limit;
  const lower = a.lower_limit;
  if (a.kind !== undefined && a.kind !== 'limit') {
    if (a.after_s === null || a.after_s === undefined) problems.after_s = ALARM_TEXTS.afterRequired;
    if (upper !== null) problems.upper_limit = ALARM_TEXTS.limitsUnused;
    if (lower !== null) problems.lower_limit = ALARM_TEXTS.limitsUnused;
    duplicates(a.recipients, problems);
    return problems;
  }
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
  duplicates(a.recipients, problems);
  return problems;
}

function duplicates(
  recipients: readonly AlarmRecipient[] | undefined,
  problems: Record<string, string>,
): void {
  const seen = new Set<string>();
  for (const r of recipients ?? []) {
    const key = 'user_id' in r ? `u:${r.user_id}` : `e:${r.email.toLowerCase()}`;
    if (seen.has(key)) problems.recipients = ALARM_TEXTS.duplicateRecipient;
    seen.add(key);
  }
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
  permissions: ownPermissions('alarm'),
  sortField: 'name',
  asset: 'asset_id',
  serverFields: ['status'],
} as const satisfies ModelDefinition<'alarm', typeof alarmAttributesSchema>;

/**
 * An acknowledgement of an alarm's latest raise (issue 17 item 6), a model of its own so that it
 * is written like any other change: offline it waits in the outbox, through reloads, and lands
 * once (its id is made by the client). The server records who and when, and marks the alarm's
 * status acknowledged in the same transaction; one that finds nothing to acknowledge is refused.
 */
export const alarmAckAttributesSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    alarm_id: idField,
    asset_id: idField,
    note: z.string().trim().max(ALARM_LIMITS.maxNote).default(''),
    /** Server fields: who acknowledged, when (epoch ms), and the raise it acknowledged. */
    by_user: z.string().nullable().default(null),
    at: z.number().nullable().default(null),
    raised_at: z.number().nullable().default(null),
  }),
);
export type AlarmAckAttributes = z.infer<typeof alarmAckAttributesSchema>;

export const alarmAckModel = {
  type: 'alarm_ack',
  collection: 'alarm_acks',
  parentType: 'alarm',
  parentField: 'alarm_id',
  attributes: alarmAckAttributesSchema,
  refs: { asset_id: 'asset', alarm_id: 'alarm' },
  fromParent: ['asset_id'],
  permissions: {
    view: 'alarm::view',
    create: 'alarm::acknowledge',
    update: 'alarm::delete',
    delete: 'alarm::delete',
  },
  sortField: 'at',
  asset: 'asset_id',
  serverFields: ['by_user', 'at', 'raised_at'],
  fixed: ['alarm_id', 'note'],
} as const satisfies ModelDefinition<'alarm_ack', typeof alarmAckAttributesSchema>;
