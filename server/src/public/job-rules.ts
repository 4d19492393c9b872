import { JOB_TEXTS, jobModel } from '@plant/shared-schema';
import type { Db } from '../db/database';
import { ModelRepository } from '../repositories/model.repository';
import { forbidden } from '../services/domain-error';

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
export async function jobSlugProblems(
  trx: Db,
  accountId: string,
  jobId: string,
  attributes: Record<string, unknown>,
  touched: ReadonlySet<string>,
): Promise<Record<string, string[]>> {
  if (!touched.has('slug') || typeof attributes.slug !== 'string') return {};
  const others = await new ModelRepository(trx).allOfTypes(accountId, [jobModel.type]);
  const taken = others.some(
    (row) =>
      row.id !== jobId &&
      (JSON.parse(row.attributes) as { slug?: unknown }).slug === attributes.slug,
  );
  return taken ? { slug: [JOB_TEXTS.slugTaken] } : {};
}
