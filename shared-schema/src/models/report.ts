import { z } from 'zod';
import { deferred } from '../deferred';
import { emailField, idField, modelNameField } from '../api/fields';
import type { ModelDefinition } from './registry-types';
import { ownPermissions } from './model-permissions';
import { dashboardRangeSchema, DEFAULT_DASHBOARD_RANGE } from './dashboard';

/**
 * Reports (DESIGN.md §12, spec 001 §4, §9): a dashboard mailed as a PDF (and/or CSV of its
 * values) on a schedule, or every `interval_ms`, to members and confirmed outside addresses, each
 * recipient's PDF made with that recipient's access. Active, or paused (sends nothing until
 * re-activated). A report belongs to the account, or to an asset (`asset_id`).
 */

export const REPORT_EVERY = ['day', 'week', 'month'] as const;
export const REPORT_ATTACHMENTS = ['pdf', 'csv'] as const;
export const REPORT_STATES = ['active', 'paused'] as const;
export const REPORT_RUN_STATES = ['running', 'sent', 'failed', 'nobody'] as const;

export const REPORT_LIMITS = {
  maxRecipients: 50,
  /** Spec 001 §9: an interval in ms or s; at least a minute, at most 31 days. */
  minIntervalMs: 60_000,
  maxIntervalMs: 31 * 86_400_000,
} as const;

/** The texts of report checks and states (English message ids; the client translates them). */
export const REPORT_TEXTS = {
  /** Spec 001 §8. */
  pdfFailed: 'There was a problem creating your PDF',
  whenRequired: 'Choose a schedule or a sending interval.',
  whenTwice: 'A report has a schedule or a sending interval, not both.',
  timeFormat: 'The time needs to be valid',
  intervalRange: 'Between one minute and 31 days.',
  weekdayRequired: 'Choose the day of the week.',
  monthdayRequired: 'Choose the day of the month.',
  attachmentsRequired: 'Choose PDF, CSV or both.',
  recipientNeedsOne: 'A recipient is either a user or an email address.',
  duplicateRecipient: 'This recipient is listed twice.',
  tooManyRecipients: 'A report may have at most 50 recipients.',
  timeZone: 'This time zone is not known.',
} as const;

function knownTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/**
 * When a scheduled report goes out: every day, week (on `weekday`, 1 Monday to 7 Sunday) or
 * month (on `monthday`; a month without that day sends on its last), at `at` in the time zone
 * `tz` (IANA).
 */
export const reportScheduleSchema = /* @__PURE__ */ deferred(() =>
  z
    .strictObject({
      every: z.enum(REPORT_EVERY),
      at: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, REPORT_TEXTS.timeFormat),
      weekday: z.number().int().min(1).max(7).nullable().default(null),
      monthday: z.number().int().min(1).max(31).nullable().default(null),
      tz: z.string().min(1).max(64).refine(knownTimeZone, REPORT_TEXTS.timeZone),
    })
    .refine((s) => s.every !== 'week' || s.weekday !== null, {
      error: REPORT_TEXTS.weekdayRequired,
      path: ['weekday'],
    })
    .refine((s) => s.every !== 'month' || s.monthday !== null, {
      error: REPORT_TEXTS.monthdayRequired,
      path: ['monthday'],
    }),
);
export type ReportSchedule = z.infer<typeof reportScheduleSchema>;

/** One who gets the report by mail: a member of the account, or a confirmed outside address. */
export const reportRecipientSchema = /* @__PURE__ */ deferred(() =>
  z.union([z.strictObject({ user_id: idField }), z.strictObject({ email: emailField })], {
    error: REPORT_TEXTS.recipientNeedsOne,
  }),
);
export type ReportRecipient = z.infer<typeof reportRecipientSchema>;

/** How the latest run went (server field). Times are epoch ms. */
export const reportLastRunSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    id: z.string(),
    at: z.number(),
    state: z.enum(REPORT_RUN_STATES),
    /** Set when it failed: the text shown (REPORT_TEXTS.pdfFailed). */
    error: z.string().nullable(),
  }),
);

/**
 * A report's attributes. The rules between fields (a schedule or an interval, not both; no
 * recipient twice) are in `reportProblems`, not refinements: updates parse through `.partial()`.
 */
export const reportAttributesSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    name: modelNameField,
    asset_id: idField.nullable().default(null),
    dashboard_id: idField,
    range: dashboardRangeSchema.default(DEFAULT_DASHBOARD_RANGE),
    schedule: reportScheduleSchema.nullable().default(null),
    interval_ms: z
      .number({ error: REPORT_TEXTS.intervalRange })
      .int(REPORT_TEXTS.intervalRange)
      .min(REPORT_LIMITS.minIntervalMs, REPORT_TEXTS.intervalRange)
      .max(REPORT_LIMITS.maxIntervalMs, REPORT_TEXTS.intervalRange)
      .nullable()
      .default(null),
    recipients: z
      .array(reportRecipientSchema)
      .max(REPORT_LIMITS.maxRecipients, REPORT_TEXTS.tooManyRecipients)
      .default([]),
    attachments: z
      .array(z.enum(REPORT_ATTACHMENTS))
      .min(1, REPORT_TEXTS.attachmentsRequired)
      .max(2)
      .refine((list) => new Set(list).size === list.length, REPORT_TEXTS.attachmentsRequired)
      .default(['pdf']),
    state: z.enum(REPORT_STATES).default('active'),
    /** When it goes out next (epoch ms; the server sets it), null while paused. */
    next_at: z.number().nullable().default(null),
    last_run: reportLastRunSchema.nullable().default(null),
  }),
);
export type ReportAttributes = z.infer<typeof reportAttributesSchema>;

/** What is wrong between a report's fields, by field (empty: nothing). */
export function reportProblems(
  report: Pick<ReportAttributes, 'schedule' | 'interval_ms' | 'recipients'>,
): Record<string, string> {
  const problems: Record<string, string> = {};
  if (report.schedule === null && report.interval_ms === null) {
    problems.schedule = REPORT_TEXTS.whenRequired;
  } else if (report.schedule !== null && report.interval_ms !== null) {
    problems.interval_ms = REPORT_TEXTS.whenTwice;
  }
  const seen = new Set<string>();
  report.recipients.forEach((r, i) => {
    const key = 'user_id' in r ? `u:${r.user_id}` : `e:${r.email}`;
    if (seen.has(key)) problems[`recipients.${i}`] = REPORT_TEXTS.duplicateRecipient;
    seen.add(key);
  });
  return problems;
}

export const reportModel = {
  type: 'report',
  collection: 'reports',
  parentType: 'account',
  attributes: reportAttributesSchema,
  refs: { asset_id: 'asset', dashboard_id: 'dashboard' },
  permissions: ownPermissions('report'),
  sortField: 'name',
  serverFields: ['next_at', 'last_run'],
  fixed: ['asset_id'],
  asset: 'asset_id',
  assetOptional: true,
} as const satisfies ModelDefinition<'report', typeof reportAttributesSchema>;
