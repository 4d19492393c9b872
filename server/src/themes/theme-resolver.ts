import {
  designOfTheme,
  NO_DESIGN,
  themeAttributesSchema,
  themeModel,
  type AccountDesign,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import type { AccountRow } from '../repositories/account.repository';
import { ModelRepository } from '../repositories/model.repository';

/** An account's fields the resolver walks by. */
type AccountLink = Pick<AccountRow, 'id' | 'parent_id' | 'theme_id' | 'texts_changed'>;

/**
 * The design each account shows (issue 36): the theme it picked, else the one of the nearest
 * account above with a pick, else none. Read in the caller's transaction, each account and theme
 * once per resolver (a snapshot of many subaccounts walks their shared ancestors once). A pick
 * naming a theme that is gone counts as none at that account.
 */
export class ThemeResolver {
  private readonly accounts = new Map<string, AccountLink | null>();
  private readonly themes = new Map<string, AccountDesign | null>();

  constructor(private readonly db: Db) {}

  /** The design shown in `row`'s account. */
  async designOf(row: AccountLink): Promise<AccountDesign> {
    this.accounts.set(row.id, row);
    const seen = new Set<string>();
    for (let at: AccountLink | null = row; at !== null && !seen.has(at.id);) {
      seen.add(at.id);
      if (at.theme_id !== null) {
        const design = await this.theme(at.id, at.theme_id);
        if (design !== null) return design;
      }
      at = at.parent_id === null ? null : await this.account(at.parent_id);
    }
    return NO_DESIGN;
  }

  /**
   * When the words `row`'s members see last changed: its own translations' or those of an
   * account above it (issue 36), the latest.
   */
  async textsVersionOf(row: AccountLink): Promise<number> {
    this.accounts.set(row.id, row);
    let latest = 0;
    const seen = new Set<string>();
    for (let at: AccountLink | null = row; at !== null && !seen.has(at.id);) {
      seen.add(at.id);
      latest = Math.max(latest, Number(at.texts_changed));
      at = at.parent_id === null ? null : await this.account(at.parent_id);
    }
    return latest;
  }

  /** The theme `accountId` picked, if it is one of that account's or of an account above. */
  private async theme(accountId: string, themeId: string): Promise<AccountDesign | null> {
    const key = `${accountId} ${themeId}`;
    if (!this.themes.has(key)) {
      const row = await new ModelRepository(this.db).findAnyById(themeModel.type, themeId);
      const owners = row === undefined ? new Set<string>() : await this.chain(accountId);
      const parsed =
        row === undefined || !owners.has(row.account_id)
          ? null
          : themeAttributesSchema.safeParse(JSON.parse(row.attributes));
      this.themes.set(key, parsed?.success === true ? designOfTheme(themeId, parsed.data) : null);
    }
    return this.themes.get(key) ?? null;
  }

  /** The account and those above it. */
  private async chain(accountId: string): Promise<Set<string>> {
    const ids = new Set<string>();
    for (let at = await this.account(accountId); at !== null && !ids.has(at.id);) {
      ids.add(at.id);
      at = at.parent_id === null ? null : await this.account(at.parent_id);
    }
    return ids;
  }

  private async account(id: string): Promise<AccountLink | null> {
    if (!this.accounts.has(id)) {
      const row = await this.db
        .selectFrom('accounts')
        .select(['id', 'parent_id', 'theme_id', 'texts_changed'])
        .where('id', '=', id)
        .executeTakeFirst();
      this.accounts.set(id, row ?? null);
    }
    return this.accounts.get(id) ?? null;
  }
}
