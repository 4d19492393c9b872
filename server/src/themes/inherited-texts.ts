import {
  TRANSLATION_LANGUAGES,
  translationAttributesSchema,
  translationModel,
  type InheritedTexts,
  type TranslationTexts,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import { AccountRepository } from '../repositories/account.repository';
import { ModelRepository } from '../repositories/model.repository';

/**
 * The words the members of `accountId` see, by message id (issue 36 item 2): per language, the
 * nearest account's (its own first, then those above it).
 */
export async function inheritedTexts(db: Db, accountId: string): Promise<InheritedTexts> {
  const chain = await new AccountRepository(db).chainUp(accountId);
  const models = new ModelRepository(db);
  const merged = new Map<string, TranslationTexts>();
  for (const account of chain) {
    for (const row of await models.allOfTypes(account.id, [translationModel.type])) {
      const parsed = translationAttributesSchema.safeParse(JSON.parse(row.attributes));
      if (!parsed.success) continue;
      const next: TranslationTexts = { ...(merged.get(parsed.data.key) ?? {}) };
      for (const lang of TRANSLATION_LANGUAGES) {
        const text = parsed.data.texts[lang];
        if (next[lang] === undefined && text !== undefined && text.trim() !== '') next[lang] = text;
      }
      merged.set(parsed.data.key, next);
    }
  }
  return [...merged].map(([key, texts]) => ({ key, texts }));
}
