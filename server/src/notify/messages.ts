import {
  isolate,
  type AlarmAttributes,
  type AlarmSeverity,
  type AlarmStatus,
} from '@plant/shared-schema';
import type { OutgoingMessage } from './contract';

/*
 * The texts of alarm notifications (English; issue 17 item 6's pages translate the app, these
 * go out as written) and how a raise's deliveries show on the alarm (`status.delivery`). Pure.
 * Every name in them (alarm, asset, account) is isolated (U+2068 … U+2069): a name with
 * bidirectional controls cannot reorder the rest of a subject, an SMS or a push.
 */

/** What a delivery tells: the transition itself, a repeat of a raise, or its escalation. */
export type DeliveryKind = 'raised' | 'cleared' | 'repeat' | 'escalated';

/** One alarm transition as a message tells it. */
export interface MessageItem {
  readonly kind: DeliveryKind;
  readonly alarmId: string;
  readonly alarm: Pick<
    AlarmAttributes,
    'name' | 'kind' | 'condition' | 'upper_limit' | 'lower_limit' | 'unit' | 'after_s'
  > &
    Partial<Pick<AlarmAttributes, 'notify_interval_min' | 'help_article'>>;
  readonly severity: AlarmSeverity;
  readonly assetName: string;
  /** The value judged (null for no-data and offline alarms). */
  readonly value: number | null;
  /** When the transition happened (epoch ms). */
  readonly ts: number;
  /**
   * Earlier transitions of the same alarm this message stands for (held by the alarm's message
   * interval, or waiting for a window): how many, since when, and the interval in minutes.
   */
  readonly omitted?: { readonly count: number; readonly since: number; readonly everyMin: number };
}

const SEVERITY_RANK: Record<AlarmSeverity, number> = { info: 0, warning: 1, critical: 2 };

export function worstSeverity(items: readonly { severity: AlarmSeverity }[]): AlarmSeverity {
  let worst: AlarmSeverity = 'info';
  for (const i of items) if (SEVERITY_RANK[i.severity] > SEVERITY_RANK[worst]) worst = i.severity;
  return worst;
}

const SEVERITY_LABEL: Record<AlarmSeverity, string> = {
  info: 'Info',
  warning: 'Warning',
  critical: 'Critical',
};

function withUnit(value: number, unit: string | null): string {
  return unit === null || unit === '' ? String(value) : `${value} ${unit}`;
}

/** The limit in words ("above 80 °C"). */
export function limitText(alarm: MessageItem['alarm']): string {
  const { upper_limit: upper, lower_limit: lower, unit } = alarm;
  if (alarm.kind === 'no_data') return `no data for ${Math.round((alarm.after_s ?? 0) / 60)} min`;
  if (alarm.kind === 'offline')
    return `gateway offline for ${Math.round((alarm.after_s ?? 0) / 60)} min`;
  switch (alarm.condition) {
    case 'greater':
      return upper === null ? '-' : `above ${withUnit(upper, unit)}`;
    case 'less':
      return lower === null ? '-' : `below ${withUnit(lower, unit)}`;
    case 'exact': {
      if (upper !== null && lower !== null && upper !== lower)
        return `between ${withUnit(lower, unit)} and ${withUnit(upper, unit)}`;
      const only = upper ?? lower;
      return only === null ? '-' : `equal to ${withUnit(only, unit)}`;
    }
    default: {
      const never: never = alarm.condition;
      return String(never);
    }
  }
}

/** A time as the recipient reads it: in its time zone when known, else UTC. */
export function timeText(ms: number, timezone: string | null): string {
  const zone = timezone ?? 'UTC';
  const text = new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(ms));
  return `${text} (${zone})`;
}

function headline(item: MessageItem): string {
  const what = `${isolate(item.alarm.name)} on ${isolate(item.assetName)}`;
  switch (item.kind) {
    case 'raised':
      return `${SEVERITY_LABEL[item.severity]}: ${what}`;
    case 'cleared':
      return `Cleared: ${what}`;
    case 'repeat':
      return `Still active, not acknowledged: ${what}`;
    case 'escalated':
      return `Escalated to you: ${what}`;
    default: {
      const never: never = item.kind;
      return String(never);
    }
  }
}

const alarmUrl = (appUrl: string, alarmId: string) =>
  `${appUrl}/app/alarms/${encodeURIComponent(alarmId)}`;

function details(item: MessageItem, appUrl: string, timezone: string | null): string[] {
  const lines = [`Severity: ${item.severity}`];
  if (item.value !== null) lines.push(`Value: ${withUnit(item.value, item.alarm.unit)}`);
  lines.push(`Limit: ${limitText(item.alarm)}`);
  lines.push(`${item.kind === 'cleared' ? 'Cleared' : 'Since'}: ${timeText(item.ts, timezone)}`);
  const omitted = item.omitted;
  if (omitted !== undefined)
    lines.push(
      `${omittedText(omitted.count)} since ${timeText(omitted.since, timezone)} ${omitted.everyMin > 0 ? `(at most one message per ${omitted.everyMin} min while it flaps)` : '(they came due together)'}.`,
    );
  lines.push(`Open: ${alarmUrl(appUrl, item.alarmId)}`);
  // The help article the alarm links (issue 33 item 5): what to do, readable offline in the app.
  const help = item.alarm.help_article;
  if (help !== undefined && help !== null) lines.push(`Help: ${appUrl}/app/help/${help}`);
  return lines;
}

/** "1 earlier state change not sent" / "N earlier state changes not sent". */
function omittedText(count: number): string {
  return count === 1
    ? '1 earlier state change not sent on its own'
    : `${count} earlier state changes not sent on their own`;
}

/** A headline with the count of what it stands for. */
function titled(item: MessageItem): string {
  const omitted = item.omitted;
  if (omitted === undefined) return headline(item);
  return `${headline(item)} (+${omitted.count} state ${omitted.count === 1 ? 'change' : 'changes'})`;
}

/** One transition, one message. */
export function singleMessage(
  accountId: string,
  item: MessageItem,
  tag: string,
  appUrl: string,
  timezone: string | null,
): OutgoingMessage {
  const subject = titled(item);
  return {
    accountId,
    subject,
    text: [subject, '', ...details(item, appUrl, timezone)].join('\n'),
    url: alarmUrl(appUrl, item.alarmId),
    tag,
    severity: item.severity,
  };
}

/** Several transitions for one recipient on one channel at once: one message listing them. */
export function digestMessage(
  accountId: string,
  accountName: string,
  items: readonly MessageItem[],
  tag: string,
  appUrl: string,
  timezone: string | null,
): OutgoingMessage {
  const subject = `${items.length} alarms in ${isolate(accountName)}`;
  const blocks = [...items]
    .sort((a, b) => a.ts - b.ts)
    .map((item) => [titled(item), ...details(item, appUrl, timezone)].join('\n'));
  return {
    accountId,
    subject,
    text: [subject, '', blocks.join('\n\n'), '', `All alarms: ${appUrl}/app/alarms`].join('\n'),
    url: `${appUrl}/app/alarms`,
    tag,
    severity: worstSeverity(items),
  };
}

/** The invitation of an outside address (spec 001 §3: it confirms before it gets anything). */
export function inviteMessage(
  accountId: string,
  accountName: string,
  link: string,
  tag: string,
): OutgoingMessage {
  const account = isolate(accountName);
  const subject = `Alarm notifications from ${account}: please confirm`;
  return {
    accountId,
    subject,
    text: [
      `An alarm in ${account} names this address as a recipient of its notifications.`,
      'Nothing is sent to it until you confirm. Open this link to confirm or decline:',
      '',
      link,
      '',
      'If you did not expect this, decline or ignore this mail.',
    ].join('\n'),
    url: link,
    tag,
    severity: 'info',
  };
}

type Delivery = AlarmStatus['delivery'];

/**
 * How a raise's deliveries went, as the alarm shows it: still being retried, waiting (for a
 * window, or to be sent), failed (any recipient, given up), sent; none when nobody was told
 * (no recipient, all skipped: shelved, unconfirmed, nothing to send to).
 */
export function deliveryStatus(
  rows: readonly { state: string; attempts: number; last_error: string | null }[],
): Delivery {
  const pending = rows.filter((r) => r.state === 'waiting' || r.state === 'sending');
  const attempts = rows.reduce((max, r) => Math.max(max, r.attempts), 0);
  const retrying = pending.find((r) => r.attempts > 0 && r.last_error !== null);
  if (retrying !== undefined) return { state: 'retrying', attempts, error: retrying.last_error };
  if (pending.length > 0) return { state: 'waiting', attempts, error: null };
  const failed = rows.find((r) => r.state === 'failed');
  if (failed !== undefined) return { state: 'failed', attempts, error: failed.last_error };
  if (rows.some((r) => r.state === 'sent')) return { state: 'sent', attempts, error: null };
  return { state: 'none', attempts, error: null };
}
