import { JOB_TEXTS, jobModel } from '@plant/shared-schema';
import type { Db } from '../db/database';
import { forbidden } from '../services/domain-error';
import { uniqueAttributeProblems } from '../services/unique-attribute';

/*
 * The server's rules of jobs (issue 36 item 3) beside the generic model writes: only the top
 * account (the machine builder's, whose jobs the public pages show) writes them, and a job's
 * address (slug) is its own within the account.
 */

/** Jobs are written in a top-level account only. */
export async function mayWriteJobs(trx: Db, accountId: string): Promise<void> {
  const row = await trx
    .selectFrom('accounts')
    .select('parent_id')
    .where('id', '=', accountId)
    .executeTakeFirst();
  if (row === undefined || row.parent_id !== null) throw forbidden(JOB_TEXTS.topAccount);
}

/** A slug no other job of the account has. */
export function jobSlugProblems(
  trx: Db,
  accountId: string,
  jobId: string,
  attributes: Record<string, unknown>,
  touched: ReadonlySet<string>,
): Promise<Record<string, string[]>> {
  return uniqueAttributeProblems(
    trx,
    accountId,
    jobModel.type,
    jobId,
    'slug',
    attributes,
    touched,
    JOB_TEXTS.slugTaken,
  );
}
