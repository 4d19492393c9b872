import { z } from 'zod';
import { deferred } from '../deferred';
import type { ModelDefinition } from './registry-types';
import { ownPermissions } from './model-permissions';

/*
 * Translations (DESIGN.md §16, issue 36 item 2): an account's own words for a text of the product,
 * by the text's message id (the id lingui gives it, which the language "Plain" shows on screen),
 * per language. They apply to the account and every account below it that does not say
 * otherwise, at run time, over the product's catalogues.
 */

export const TRANSLATION_TEXTS = {
  /** Spec 001 §5. */
  atLeastOne: 'Please fill in at least one translation',
  key: 'Choose a text of the product.',
  keyTaken: 'This text has words of this account already: change those.',
} as const;

/** The languages a translation may give words in (the product's, Plain among them). */
export const TRANSLATION_LANGUAGES = ['en', 'de', 'pt', 'ru', 'plain'] as const;
export type TranslationLanguage = (typeof TRANSLATION_LANGUAGES)[number];

const words = /* @__PURE__ */ deferred(() => z.string().max(5000).optional());

export const translationTextsSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    en: words,
    de: words,
    pt: words,
    ru: words,
    plain: words,
  }),
);
export type TranslationTexts = z.infer<typeof translationTextsSchema>;

export const translationAttributesSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    /** The text's message id. */
    key: z
      .string({ error: TRANSLATION_TEXTS.key })
      .min(1, TRANSLATION_TEXTS.key)
      .max(200, TRANSLATION_TEXTS.key)
      .regex(/^\S+$/, TRANSLATION_TEXTS.key),
    texts: translationTextsSchema.refine(
      (texts) => Object.values(texts).some((text) => text !== undefined && text.trim() !== ''),
      TRANSLATION_TEXTS.atLeastOne,
    ),
  }),
);
export type TranslationAttributes = z.infer<typeof translationAttributesSchema>;

export const translationModel = {
  type: 'translation',
  collection: 'translations',
  parentType: 'account',
  attributes: translationAttributesSchema,
  permissions: ownPermissions('translation'),
  sortField: 'key',
} as const satisfies ModelDefinition<'translation', typeof translationAttributesSchema>;

/** GET translations/inherited: the words every member of the account sees, by message id. */
export const inheritedTextsSchema = /* @__PURE__ */ deferred(() =>
  z.array(z.object({ key: z.string(), texts: translationTextsSchema })),
);
export type InheritedTexts = z.infer<typeof inheritedTextsSchema>;
