import { isolate, type InsightCheckId } from '@plant/shared-schema';
import type { CheckResult } from './checks';

/** What each check is called in the digest (English, as the alarms' and reports' mails). */
const CHECK_TITLES: Readonly<Record<InsightCheckId, string>> = {
  second_factor: 'Members without a second factor',
  inactive_members: 'Members inactive for 90 days',
  admins: 'Number of admins',
  tokens: 'Tokens unused, older than 90 days or without expiry',
  gateway_agents: 'Gateways behind the active agent release',
  revoked_keys: 'Gateways with a revoked key still knocking',
  opcua_security: 'OPC UA connections without security',
  signin_refusals: 'Failed sign-ins',
  broker_refusals: 'Broker refusals',
};

/** The threat overview's figures of the digest's week. */
export interface WeekThreats {
  readonly signinFailed: number;
  readonly rateLimited: number;
  readonly brokerRefused: number;
  readonly cspReports: number;
}

/** ISO 8601 week of a moment (UTC), as `2026-W49`: the digest's key. */
export function isoWeek(ms: number): string {
  const date = new Date(ms);
  const day = date.getUTCDay() === 0 ? 7 : date.getUTCDay();
  // The Thursday of this week decides its year.
  const thursday = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + 4 - day);
  const year = new Date(thursday).getUTCFullYear();
  const week = Math.floor((thursday - Date.UTC(year, 0, 1)) / (7 * 86_400_000)) + 1;
  return `${year}-W${String(week).padStart(2, '0')}`;
}

/**
 * The weekly digest's mail to an account's admins: the checks that fail (dismissed ones named
 * apart), the week's threat figures, and the link to the overview. Names isolated.
 */
export function digestMail(
  accountName: string,
  results: readonly CheckResult[],
  dismissed: ReadonlySet<string>,
  threats: WeekThreats,
  link: string,
  now: number,
): { readonly subject: string; readonly text: string } {
  const failing = results.filter((r) => r.failing && !dismissed.has(r.id));
  const quiet = results.filter((r) => r.failing && dismissed.has(r.id));
  const name = isolate(accountName);
  const subject =
    failing.length === 0
      ? `Security insights of ${name}: every check passes`
      : `Security insights of ${name}: ${failing.length} ${failing.length === 1 ? 'check fails' : 'checks fail'}`;
  const lines = [
    `Security insights of ${name}, the week to ${new Date(now).toISOString().slice(0, 10)}.`,
    '',
  ];
  if (failing.length > 0) {
    lines.push('Failing:');
    for (const r of failing) lines.push(`- ${CHECK_TITLES[r.id]}: ${r.count}`);
    lines.push('');
  }
  if (quiet.length > 0) {
    lines.push('Dismissed:');
    for (const r of quiet) lines.push(`- ${CHECK_TITLES[r.id]}: ${r.count}`);
    lines.push('');
  }
  lines.push(
    'The last seven days:',
    `- Failed sign-ins: ${threats.signinFailed}`,
    `- Rate-limit hits: ${threats.rateLimited}`,
    `- Broker refusals: ${threats.brokerRefused}`,
    `- CSP reports: ${threats.cspReports}`,
    '',
    `Open the overview: ${link}`,
    '',
  );
  return { subject, text: lines.join('\n') };
}
