import { z } from 'zod';
import { deferred } from '../deferred';
import { LANGUAGES } from '../constants';

/** GET articles/search (DESIGN.md §14): the query (3 characters at least) and the reader's language. */
export const articleSearchQuerySchema = /* @__PURE__ */ deferred(() =>
  z.object({
    q: z
      .string({ error: 'Search needs at least 3 characters' })
      .trim()
      .min(3, 'Search needs at least 3 characters')
      .max(200, 'The search may not be longer than 200 characters'),
    lang: z.enum(LANGUAGES).default('en'),
  }),
);
export type ArticleSearchQuery = z.infer<typeof articleSearchQuerySchema>;

/** One article found: the text in the reader's language when that one matched, else another. */
export const articleSearchHitSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    id: z.string(),
    number: z.number().int().nullable(),
    title: z.string(),
    snippet: z.string(),
    lang: z.enum(LANGUAGES),
  }),
);
export type ArticleSearchHit = z.infer<typeof articleSearchHitSchema>;

export const articleSearchAnswerSchema = /* @__PURE__ */ deferred(() =>
  z.object({ data: z.array(articleSearchHitSchema) }),
);
