import { reportProblems, type ReportAttributes } from '@plant/shared-schema';
import type { Db } from '../db/database';
import { scopeTo } from '../repositories/account-scope';

/** A user named as a recipient who is no member of the account. */
export const NOT_A_MEMBER = 'This user is not a member of the account.';

/**
 * A report's rules on every write that touches them (model-transaction's check): those between
 * its fields (`reportProblems`: a schedule or an interval, no recipient twice), and its users
 * being members of the account today (alarms' rule; outside addresses confirm before they get
 * anything, which the run checks).
 */
export async function reportWriteProblems(
  trx: Db,
  accountId: string,
  report: ReportAttributes,
  touched: ReadonlySet<string>,
): Promise<Record<string, string[]>> {
  const problems: Record<string, string[]> = {};
  for (const [field, text] of Object.entries(reportProblems(report))) problems[field] = [text];
  if (!touched.has('recipients')) return problems;
  const userIds = report.recipients.flatMap((r) => ('user_id' in r ? [r.user_id] : []));
  if (userIds.length === 0) return problems;
  const rows = await scopeTo(trx, accountId)
    .selectFrom('memberships')
    .where('memberships.user_id', 'in', userIds)
    .select('memberships.user_id')
    .execute();
  const members = new Set(rows.map((r) => r.user_id));
  report.recipients.forEach((r, i) => {
    if ('user_id' in r && !members.has(r.user_id)) problems[`recipients.${i}`] ??= [NOT_A_MEMBER];
  });
  return problems;
}
