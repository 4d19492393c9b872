import { TRANSLATION_TEXTS, translationModel, type ModelUpdate } from '@plant/shared-schema';
import type { Db } from '../db/database';
import { AccountRepository } from '../repositories/account.repository';
import { ManagedLog } from '../services/managed-log';
import { uniqueAttributeProblems } from '../services/unique-attribute';

/*
 * The server's rules of translations (issue 36 item 2) beside the generic model writes: one
 * translation per text and account; a change of an account's words reaches every browser of the
 * account and of the accounts below it (their `account` model's `texts_version` moves, and they
 * read GET translations/inherited again), in the same transaction as the change.
 */

/** A text has one translation per account. */
export function translationKeyProblems(
  trx: Db,
  accountId: string,
  id: string,
  attributes: Record<string, unknown>,
  touched: ReadonlySet<string>,
): Promise<Record<string, string[]>> {
  return uniqueAttributeProblems(
    trx,
    accountId,
    translationModel.type,
    id,
    'key',
    attributes,
    touched,
    TRANSLATION_TEXTS.keyTaken,
  );
}

/**
 * The account's words changed: its stamp moves on (never back, never twice to the same value), and
 * it and every account below it are logged anew (their `texts_version`). Answers the updates.
 */
export async function wordsChanged(
  trx: Db,
  accountId: string,
  nowMs: number,
): Promise<Map<string, ModelUpdate[]>> {
  const row = await trx
    .selectFrom('accounts')
    .select('texts_changed')
    .where('id', '=', accountId)
    .executeTakeFirst();
  const stamp = Math.max(nowMs, Number(row?.texts_changed ?? 0) + 1);
  await trx
    .updateTable('accounts')
    .set({ texts_changed: stamp })
    .where('id', '=', accountId)
    .execute();
  const log = new ManagedLog(trx);
  await log.account(accountId);
  for (const below of await new AccountRepository(trx).below(accountId))
    await log.account(below.id);
  return log.commit(nowMs);
}
