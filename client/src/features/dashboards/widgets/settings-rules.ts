import type { z } from 'zod';
import { WIDGET_OPTION_TEXTS, WIDGET_STREAM_LIMITS, type WidgetType } from '@plant/shared-schema';

/*
 * The widget settings form's draft and its check (pure, unit-tested): the fields as typed, turned
 * into the type's options and checked by the type's shared schema, each problem under its field.
 */

export interface SettingsDraft {
  readonly title: string;
  readonly streams: readonly string[];
  readonly min: string;
  readonly max: string;
  readonly decimals: string;
  readonly bucket: string;
  readonly aggregate: string;
  readonly raisedOnly: boolean;
  readonly text: string;
}

/** The option fields each type's form has. */
const FIELDS: Record<WidgetType, readonly (keyof SettingsDraft)[]> = {
  line: ['min', 'max'],
  value: ['decimals'],
  gauge: ['min', 'max', 'decimals'],
  state: [],
  bar: ['bucket', 'aggregate'],
  table: ['decimals'],
  alarms: ['raisedOnly'],
  map: [],
  text: ['text'],
};

/**
 * The options a draft gives and the problems found: field name to message id (a shared text, or
 * one of the form's own keys: 'choose-stream', 'not-a-number'). `options` is null when there are
 * problems. `unseen`: streams the widget keeps that the user may not see (they count too).
 */
export function settingsProblems(
  type: WidgetType,
  draft: SettingsDraft,
  unseen: number,
  schema: z.ZodType,
): { options: Record<string, unknown> | null; problems: Record<string, string> } {
  const problems: Record<string, string> = {};
  const options: Record<string, unknown> = {};
  for (const field of FIELDS[type]) {
    if (field === 'min' || field === 'max' || field === 'decimals') {
      const text = draft[field].trim();
      if (text === '') options[field] = null;
      else if (!Number.isFinite(Number(text))) problems[field] = 'not-a-number';
      else options[field] = Number(text);
    } else if (field === 'raisedOnly') {
      options.raised_only = draft.raisedOnly;
    } else if (field === 'bucket' || field === 'aggregate' || field === 'text') {
      options[field] = draft[field];
    }
  }
  const limits = WIDGET_STREAM_LIMITS[type];
  const count = draft.streams.length + unseen;
  if (limits.min > 0 && count < limits.min) problems.streams = 'choose-stream';
  else if (count > limits.max) {
    problems.streams =
      limits.max === 1
        ? WIDGET_OPTION_TEXTS.oneStream
        : limits.max === 0
          ? WIDGET_OPTION_TEXTS.noStreams
          : 'too-many-streams';
  }
  const parsed = schema.safeParse(options);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? 'options');
      problems[field] ??= issue.message;
    }
  }
  return { options: Object.keys(problems).length === 0 ? options : null, problems };
}
