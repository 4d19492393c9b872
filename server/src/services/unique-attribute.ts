import type { Db } from '../db/database';
import { ModelRepository } from '../repositories/model.repository';

/**
 * A written attribute that no other model of the type in the account may hold too (a job's slug,
 * a translation's key): its field's message when another one holds the value, else nothing.
 */
export async function uniqueAttributeProblems(
  trx: Db,
  accountId: string,
  type: string,
  id: string,
  field: string,
  attributes: Record<string, unknown>,
  touched: ReadonlySet<string>,
  message: string,
): Promise<Record<string, string[]>> {
  const value = attributes[field];
  if (!touched.has(field) || typeof value !== 'string') return {};
  const rows = await new ModelRepository(trx).allOfTypes(accountId, [type]);
  const taken = rows.some(
    (row) =>
      row.id !== id && (JSON.parse(row.attributes) as Record<string, unknown>)[field] === value,
  );
  return taken ? { [field]: [message] } : {};
}
