import {
  fieldErrorsOf,
  reportAttributesSchema,
  reportProblems,
  REPORT_EVERY,
  RANGE_UNITS,
  type RangeUnit,
  type ReportAttributes,
  type ReportRecipient,
} from '@plant/shared-schema';

/*
 * The report form's draft (texts as typed) and its check: the shared schema's field messages and
 * the rules between fields (`reportProblems`), the same the worker and the server apply.
 */

export interface ReportDraft {
  readonly name: string;
  readonly dashboardId: string;
  readonly last: string;
  readonly unit: RangeUnit;
  readonly when: 'schedule' | 'interval';
  readonly every: (typeof REPORT_EVERY)[number];
  readonly at: string;
  readonly weekday: string;
  readonly monthday: string;
  readonly tz: string;
  readonly interval: string;
  readonly intervalUnit: 's' | 'ms';
  readonly recipients: readonly ReportRecipient[];
  readonly pdf: boolean;
  readonly csv: boolean;
  readonly active: boolean;
}

/** The user's own time zone (a new schedule's default). */
export function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

export function draftOf(report: ReportAttributes | null, dashboardId = ''): ReportDraft {
  const range = report?.range;
  const s = report?.schedule ?? null;
  const interval = report?.interval_ms ?? null;
  return {
    name: report?.name ?? '',
    dashboardId: report?.dashboard_id ?? dashboardId,
    last: range?.kind === 'relative' ? String(range.last) : '7',
    unit: range?.kind === 'relative' ? range.unit : 'days',
    when: interval !== null ? 'interval' : 'schedule',
    every: s?.every ?? 'week',
    at: s?.at ?? '07:00',
    weekday: String(s?.weekday ?? 1),
    monthday: String(s?.monthday ?? 1),
    tz: s?.tz ?? localTimeZone(),
    interval:
      interval === null
        ? '3600'
        : interval % 1000 === 0
          ? String(interval / 1000)
          : String(interval),
    intervalUnit: interval !== null && interval % 1000 !== 0 ? 'ms' : 's',
    recipients: report?.recipients ?? [],
    pdf: report?.attachments.includes('pdf') ?? true,
    csv: report?.attachments.includes('csv') ?? false,
    active: (report?.state ?? 'active') === 'active',
  };
}

export type DraftErrors = Partial<Record<string, string>>;

export interface CheckedDraft {
  /** What to write, or null while something is wrong. */
  readonly attributes: Omit<ReportAttributes, 'next_at' | 'last_run' | 'asset_id'> | null;
  readonly errors: DraftErrors;
}

const number = (text: string): number => (text.trim() === '' ? Number.NaN : Number(text.trim()));

/** The fields in the form's order (the first with a problem gets the focus). */
export const DRAFT_FIELDS = [
  'name',
  'dashboard_id',
  'range',
  'schedule',
  'interval_ms',
  'recipients',
  'attachments',
] as const;

export function checkDraft(draft: ReportDraft): CheckedDraft {
  const interval = number(draft.interval);
  const attributes = {
    name: draft.name,
    dashboard_id: draft.dashboardId,
    range: { kind: 'relative' as const, last: number(draft.last), unit: draft.unit },
    schedule:
      draft.when === 'schedule'
        ? {
            every: draft.every,
            at: draft.at,
            weekday: draft.every === 'week' ? number(draft.weekday) : null,
            monthday: draft.every === 'month' ? number(draft.monthday) : null,
            tz: draft.tz.trim(),
          }
        : null,
    interval_ms:
      draft.when === 'interval'
        ? Math.round(draft.intervalUnit === 's' ? interval * 1000 : interval)
        : null,
    recipients: [...draft.recipients],
    attachments: [...(draft.pdf ? ['pdf' as const] : []), ...(draft.csv ? ['csv' as const] : [])],
    state: draft.active ? ('active' as const) : ('paused' as const),
  };
  const errors: DraftErrors = {};
  const parsed = reportAttributesSchema
    .omit({ next_at: true, last_run: true, asset_id: true })
    .safeParse(attributes);
  if (!parsed.success) {
    for (const [field, list] of Object.entries(fieldErrorsOf(parsed.error))) {
      // range.last, schedule.at, …: shown on the field itself.
      errors[field] ??= list[0];
    }
  }
  if (draft.dashboardId === '') errors.dashboard_id = 'Field is required';
  for (const [field, text] of Object.entries(reportProblems(attributes))) errors[field] ??= text;
  const ok = parsed.success && Object.keys(errors).length === 0;
  return { attributes: ok ? parsed.data : null, errors };
}

export { RANGE_UNITS, REPORT_EVERY };
