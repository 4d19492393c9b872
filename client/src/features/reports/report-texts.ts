import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import {
  REPORT_SKIP_TEXTS,
  REPORT_TEXTS,
  type RangeUnit,
  type ReportRun,
  type ReportSchedule,
} from '@plant/shared-schema';
import { translateServerText } from '../../i18n/server-texts';

/*
 * The report screens' words for the model's values, and the shared schema's report texts
 * (REPORT_TEXTS, REPORT_SKIP_TEXTS: English message ids) in the chosen language.
 */

const CHECKS = new Map<string, MessageDescriptor>([
  [REPORT_TEXTS.pdfFailed, msg`There was a problem creating your PDF`],
  [REPORT_TEXTS.whenRequired, msg`Choose a schedule or a sending interval.`],
  [REPORT_TEXTS.whenTwice, msg`A report has a schedule or a sending interval, not both.`],
  [REPORT_TEXTS.timeFormat, msg`The time needs to be valid`],
  [REPORT_TEXTS.intervalRange, msg`Between one minute and 31 days.`],
  [REPORT_TEXTS.weekdayRequired, msg`Choose the day of the week.`],
  [REPORT_TEXTS.monthdayRequired, msg`Choose the day of the month.`],
  [REPORT_TEXTS.attachmentsRequired, msg`Choose PDF, CSV or both.`],
  [REPORT_TEXTS.recipientNeedsOne, msg`A recipient is either a user or an email address.`],
  [REPORT_TEXTS.duplicateRecipient, msg`This recipient is listed twice.`],
  [REPORT_TEXTS.tooManyRecipients, msg`A report may have at most 50 recipients.`],
  [REPORT_TEXTS.timeZone, msg`This time zone is not known.`],
  [REPORT_SKIP_TEXTS.notMember, msg`Not a member of the account.`],
  [REPORT_SKIP_TEXTS.seesNothing, msg`This recipient may see none of the data of this report.`],
  [REPORT_SKIP_TEXTS.unconfirmed, msg`The address has not confirmed yet.`],
  [REPORT_SKIP_TEXTS.restricted, msg`Outside addresses get only data every member may see.`],
  [REPORT_SKIP_TEXTS.mailFailed, msg`The mail could not be sent.`],
  ['This report is paused.', msg`This report is paused.`],
  ['This user is not a member of the account.', msg`This user is not a member of the account.`],
]);

/** A text of a report check or run (the form's, the worker's or the server's), translated. */
export function reportText(i18n: I18n, text: string): string {
  const known = CHECKS.get(text);
  return known === undefined ? translateServerText(i18n, text) : i18n._(known);
}

const UNITS: Record<RangeUnit, MessageDescriptor> = {
  hours: msg`hours`,
  days: msg`days`,
  weeks: msg`weeks`,
  months: msg`months`,
};

export function unitLabel(i18n: I18n, unit: RangeUnit): string {
  return i18n._(UNITS[unit]);
}

const WEEKDAYS: readonly MessageDescriptor[] = [
  msg`Monday`,
  msg`Tuesday`,
  msg`Wednesday`,
  msg`Thursday`,
  msg`Friday`,
  msg`Saturday`,
  msg`Sunday`,
];

export function weekdayLabel(i18n: I18n, weekday: number): string {
  const d = WEEKDAYS[weekday - 1];
  return d === undefined ? String(weekday) : i18n._(d);
}

/** "Every Monday at 07:00 (Europe/Berlin)", "Every 15 minutes". */
export function whenText(
  i18n: I18n,
  report: { readonly schedule: ReportSchedule | null; readonly interval_ms: number | null },
): string {
  const s = report.schedule;
  if (s !== null) {
    const { at, tz } = s;
    if (s.every === 'day') return i18n._(msg`Every day at ${at} (${tz})`);
    if (s.every === 'week') {
      const day = weekdayLabel(i18n, s.weekday ?? 1);
      return i18n._(msg`Every ${day} at ${at} (${tz})`);
    }
    const monthday = s.monthday ?? 1;
    return i18n._(msg`Every month on day ${monthday} at ${at} (${tz})`);
  }
  const ms = report.interval_ms;
  if (ms === null) return '';
  if (ms % 3_600_000 === 0) {
    const hours = ms / 3_600_000;
    return hours === 1 ? i18n._(msg`Every hour`) : i18n._(msg`Every ${hours} hours`);
  }
  if (ms % 60_000 === 0) {
    const minutes = ms / 60_000;
    return minutes === 1 ? i18n._(msg`Every minute`) : i18n._(msg`Every ${minutes} minutes`);
  }
  const seconds = ms / 1000;
  return i18n._(msg`Every ${seconds} seconds`);
}

const RUN_STATES: Record<ReportRun['state'], MessageDescriptor> = {
  running: msg`Running`,
  sent: msg`Sent`,
  failed: msg`Failed`,
  nobody: msg`Sent to nobody`,
};

export function runStateLabel(i18n: I18n, state: ReportRun['state']): string {
  return i18n._(RUN_STATES[state]);
}

const DELIVERY_STATES: Record<ReportRun['recipients'][number]['state'], MessageDescriptor> = {
  sent: msg`Sent`,
  failed: msg`Failed`,
  skipped: msg`Skipped`,
  waiting: msg`Waiting`,
};

export function deliveryLabel(i18n: I18n, state: ReportRun['recipients'][number]['state']): string {
  return i18n._(DELIVERY_STATES[state]);
}

/** A time as the report screens write it: in the user's language and zone. */
export function timeText(i18n: I18n, ms: number): string {
  return new Intl.DateTimeFormat(i18n.locale, { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(ms),
  );
}
