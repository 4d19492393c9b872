import {
  fileModel,
  type ModelUpdate,
  THEME_IMAGE_FIELDS,
  THEME_TEXTS,
  themeModel,
  type FileAttributes,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import { AccountRepository } from '../repositories/account.repository';
import { ModelRepository } from '../repositories/model.repository';
import type { AccessDecision } from '../services/access-decision';
import { forbidden, invalidInput } from '../services/domain-error';
import { ManagedLog } from '../services/managed-log';
import { ThemeResolver } from './theme-resolver';

/*
 * The server's rules of themes (issue 36) beside the generic model writes: a theme's images are
 * images uploaded for it; who writes them edits themes; a theme an account shows is not deleted;
 * a change of a theme reaches every account that shows it (their `account` model, whose design
 * the server resolves), in the same transaction as the change.
 */

/** A theme's image fields name files of that theme, of kind 'image'. */
export async function themeImageProblems(
  trx: Db,
  accountId: string,
  themeId: string,
  attributes: Record<string, unknown>,
  touched: ReadonlySet<string>,
): Promise<Record<string, string[]>> {
  const problems: Record<string, string[]> = {};
  const models = new ModelRepository(trx);
  for (const field of THEME_IMAGE_FIELDS) {
    const value = attributes[field];
    if (!touched.has(field) || typeof value !== 'string') continue;
    const row = await models.find(accountId, fileModel.type, value);
    const file = row === undefined ? undefined : (JSON.parse(row.attributes) as FileAttributes);
    if (file?.theme_id !== themeId || file.kind !== 'image')
      problems[field] = [THEME_TEXTS.imageOfTheme];
  }
  return problems;
}

/**
 * The images a saved change of a theme lets go: a value an image field held before the change,
 * named by none of its image fields after it (replaced or removed). Their files go in the same
 * transaction (a superseded logo was kept for good before, and nothing ever served it again).
 */
export function supersededImages(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  changed: readonly string[],
): string[] {
  const named = new Set(THEME_IMAGE_FIELDS.map((field) => after[field]));
  const gone = THEME_IMAGE_FIELDS.filter((field) => changed.includes(field))
    .map((field) => before[field])
    .filter((value): value is string => typeof value === 'string' && !named.has(value));
  return [...new Set(gone)];
}

/** A file of a theme is an image, and an image is a theme's. */
export function themeFileProblems(file: FileAttributes): Record<string, string[]> {
  if ((file.theme_id !== null) === (file.kind === 'image')) return {};
  return { kind: [THEME_TEXTS.imageOfTheme] };
}

/** Who adds or removes a theme's images: who edits themes. */
export function mayChangeThemeFile(access: AccessDecision | undefined): void {
  if (access !== undefined && !access.permits(themeModel.permissions.update)) throw forbidden();
}

/** A theme an account picked stays while it is picked. */
export async function mayRemoveTheme(trx: Db, themeId: string): Promise<void> {
  const user = await trx
    .selectFrom('accounts')
    .select('id')
    .where('theme_id', '=', themeId)
    .executeTakeFirst();
  if (user !== undefined) throw invalidInput({ title: [THEME_TEXTS.inUse] });
}

/**
 * The accounts whose logs a change of a theme of `accountId` may write to: the account, those
 * above it (they see the accounts below) and those below (which may show it). Locked first.
 */
export async function logsTouchedByTheme(trx: Db, accountId: string): Promise<string[]> {
  const accounts = new AccountRepository(trx);
  const [chain, below] = await Promise.all([
    accounts.chainUp(accountId),
    accounts.below(accountId),
  ]);
  return [...chain, ...below].map((a) => a.id);
}

/**
 * Every account below `accountId` (and itself) that shows the theme, logged anew with its design
 * (each in its own log and those of the accounts above it). Answers the updates per account.
 */
export async function relogThemeUsers(
  trx: Db,
  accountId: string,
  themeId: string,
  nowMs: number,
): Promise<Map<string, ModelUpdate[]>> {
  const accounts = new AccountRepository(trx);
  const own = await accounts.chainUp(accountId);
  const candidates = [...own.slice(0, 1), ...(await accounts.below(accountId))];
  const themes = new ThemeResolver(trx);
  const log = new ManagedLog(trx);
  for (const account of candidates) {
    if ((await themes.designOf(account)).themeId === themeId) await log.account(account.id);
  }
  return log.commit(nowMs);
}

/**
 * An account's pick changed: it and every account below it that shows its design now are logged
 * anew (the account itself by the caller's write).
 */
export async function relogBelow(trx: Db, log: ManagedLog, accountId: string): Promise<void> {
  for (const account of await new AccountRepository(trx).below(accountId)) {
    await log.account(account.id);
  }
}
