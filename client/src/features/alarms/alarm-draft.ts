import {
  ALARM_TEXTS,
  alarmAttributesSchema,
  alarmProblems,
  alarmStreamProblems,
  fieldErrorsOf,
  notifyIntervalMs,
  ALARM_LIMITS,
  type AlarmAttributes,
  type AlarmChannel,
  type AlarmCondition,
  type AlarmInput,
  type AlarmKind,
  type AlarmRule,
  type AlarmSeverity,
} from '@plant/shared-schema';

/*
 * The alarm form's draft (texts as typed) and its check: the shared schema's field messages, the
 * rules between fields (`alarmProblems`) and against the stream (`alarmStreamProblems`), the same
 * the worker and the server apply, so the form says at once what they would refuse.
 */

export type DraftRecipient =
  | { readonly user_id: string; readonly channels: readonly AlarmChannel[] }
  | { readonly email: string; readonly channels: readonly AlarmChannel[] };

export interface AlarmDraft {
  readonly assetId: string;
  readonly streamId: string;
  readonly name: string;
  readonly kind: AlarmKind;
  readonly condition: AlarmCondition;
  readonly upper: string;
  readonly lower: string;
  readonly severity: AlarmSeverity;
  readonly unit: string;
  readonly delay: string;
  readonly hysteresis: string;
  /** Minutes, for no-data and offline alarms. */
  readonly afterMin: string;
  /** Minutes between two messages of the alarm to one recipient while it flaps. */
  readonly notifyEvery: string;
  /** The number of the help article it links ('' for none). */
  readonly helpArticle: string;
  readonly recipients: readonly DraftRecipient[];
  readonly enabled: boolean;
}

/** The fields in the form's order (the first with a problem gets the focus). */
export const DRAFT_FIELDS = [
  'asset_id',
  'datastream_id',
  'name',
  'kind',
  'condition',
  'upper_limit',
  'lower_limit',
  'severity',
  'unit',
  'delay_s',
  'hysteresis',
  'after_s',
  'notify_interval_min',
  'help_article',
  'recipients',
] as const;
export type DraftField = (typeof DRAFT_FIELDS)[number];

const num = (v: number | null) => (v === null ? '' : String(v));

export function draftOf(
  alarm: AlarmAttributes | null,
  start: { readonly assetId: string; readonly streamId: string; readonly unit: string },
): AlarmDraft {
  if (alarm === null) {
    return {
      assetId: start.assetId,
      streamId: start.streamId,
      name: '',
      kind: 'limit',
      condition: 'greater',
      upper: '',
      lower: '',
      severity: 'warning',
      unit: start.unit,
      delay: '0',
      hysteresis: '0',
      afterMin: '',
      notifyEvery: String(ALARM_LIMITS.defaultNotifyIntervalMin),
      helpArticle: '',
      recipients: [],
      enabled: true,
    };
  }
  return {
    assetId: alarm.asset_id,
    streamId: alarm.datastream_id,
    name: alarm.name,
    kind: alarm.kind,
    condition: alarm.condition,
    upper: num(alarm.upper_limit),
    lower: num(alarm.lower_limit),
    severity: alarm.severity,
    unit: alarm.unit ?? '',
    delay: String(alarm.delay_s),
    hysteresis: String(alarm.hysteresis),
    afterMin: alarm.after_s === null ? '' : String(alarm.after_s / 60),
    // An alarm stored before the field has the default.
    notifyEvery: String(notifyIntervalMs(alarm) / 60_000),
    helpArticle: alarm.help_article === null ? '' : String(alarm.help_article),
    recipients: alarm.recipients,
    enabled: alarm.enabled,
  };
}

export type DraftErrors = Partial<Record<DraftField | `recipients.${number}`, string>>;

export interface CheckedDraft {
  /** The attributes to write, when the draft has no problem. */
  readonly attributes: AlarmInput | null;
  readonly errors: DraftErrors;
  /** The rule as far as it can be read (for "try this rule"), null when it cannot be. */
  readonly rule: AlarmRule | null;
}

/** A typed number: '' is null, a comma is a decimal point; NaN when it is no number. */
function parseNumber(text: string): number | null {
  const t = text.trim().replace(',', '.');
  if (t === '') return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : Number.NaN;
}

/** Checks the draft against the stream it watches (null while none is chosen or known). */
export function checkDraft(
  draft: AlarmDraft,
  stream: { readonly type: string; readonly unit: string } | null,
): CheckedDraft {
  const errors: DraftErrors = {};
  const limitOf = (text: string, field: 'upper_limit' | 'lower_limit') => {
    const n = parseNumber(text);
    if (n !== null && Number.isNaN(n)) {
      errors[field] = ALARM_TEXTS.limitNotNumber;
      return null;
    }
    return n;
  };
  const upper = limitOf(draft.upper, 'upper_limit');
  const lower = limitOf(draft.lower, 'lower_limit');
  const delay = parseNumber(draft.delay);
  const hysteresis = parseNumber(draft.hysteresis);
  const afterMin = parseNumber(draft.afterMin);
  const notifyEvery = parseNumber(draft.notifyEvery);
  const helpArticle = parseNumber(draft.helpArticle);
  const limit = draft.kind === 'limit';
  const attributes = {
    asset_id: draft.assetId,
    datastream_id: draft.streamId,
    name: draft.name,
    kind: draft.kind,
    condition: draft.condition,
    upper_limit: limit ? upper : null,
    lower_limit: limit ? lower : null,
    severity: draft.severity,
    unit: draft.unit.trim() === '' ? null : draft.unit.trim(),
    // A text that is no number goes to the schema as such: its message is the field's.
    delay_s: delay ?? 0,
    hysteresis: limit ? (hysteresis ?? 0) : 0,
    after_s: limit || afterMin === null ? null : Math.round(afterMin * 60),
    // Empty is no number: the schema's message says what it takes.
    notify_interval_min: notifyEvery ?? Number.NaN,
    help_article: helpArticle,
    recipients: draft.recipients.map((r) => ({ ...r, channels: [...r.channels] })),
    enabled: draft.enabled,
  };
  if (draft.assetId === '') errors.asset_id = 'Field is required';
  if (draft.streamId === '') errors.datastream_id = 'Please select a stream';
  const parsed = alarmAttributesSchema.safeParse(attributes);
  if (!parsed.success) {
    for (const [path, messages] of Object.entries(fieldErrorsOf(parsed.error))) {
      const field = (
        path.startsWith('recipients.') ? path.split('.').slice(0, 2).join('.') : path
      ) as DraftField | `recipients.${number}`;
      const first = messages[0];
      if (first !== undefined) errors[field] ??= first;
    }
  }
  draft.recipients.forEach((r, i) => {
    if (r.channels.length === 0) errors[`recipients.${i}`] = ALARM_TEXTS.channelsRequired;
  });
  const between = alarmProblems({
    upper_limit: attributes.upper_limit,
    lower_limit: attributes.lower_limit,
    condition: attributes.condition,
    delay_s: attributes.delay_s,
    hysteresis: attributes.hysteresis,
    kind: attributes.kind,
    after_s: attributes.after_s,
    recipients: attributes.recipients,
  });
  for (const [field, message] of Object.entries(between)) {
    errors[field as DraftField] ??= message;
  }
  if (stream !== null) {
    const against = alarmStreamProblems({ unit: attributes.unit }, stream);
    for (const [field, message] of Object.entries(against)) {
      errors[field as DraftField] ??= message;
    }
  }
  const ruleOk =
    limit &&
    errors.upper_limit === undefined &&
    errors.lower_limit === undefined &&
    errors.delay_s === undefined &&
    errors.hysteresis === undefined &&
    errors.condition === undefined;
  const rule: AlarmRule | null = ruleOk
    ? {
        upper_limit: attributes.upper_limit,
        lower_limit: attributes.lower_limit,
        condition: attributes.condition,
        delay_s: attributes.delay_s,
        hysteresis: attributes.hysteresis,
      }
    : null;
  const ok = parsed.success && Object.keys(errors).length === 0;
  return { attributes: ok ? parsed.data : null, errors, rule };
}
