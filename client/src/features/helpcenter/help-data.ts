import { useMemo } from 'react';
import { articleDraftModel, readerLanguage, type Language } from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';
import { useCan } from '../../permissions/permissions';
import { useLiveQuery } from '../../sync/hooks';

/** One article as a reader (or an author) meets it in a language. */
export interface HelpEntry {
  readonly article: LocalModel<'article'>;
  /** The text shown: the reader's language, else the first written one (`fallback`). */
  readonly text: LocalModel<'article_text'> | LocalModel<'article_draft'> | undefined;
  readonly fallback: boolean;
  /** Whether the text shown is the authors' draft (an article not published in any language). */
  readonly draft: boolean;
  /** Its languages with a published text. */
  readonly published: readonly Language[];
}

/** At most this many of each (the store's list limit); a larger help centre pages later. */
const LIMIT = 1000;

/**
 * The help centre from the local store, live (offline too): every article with the text a reader
 * in `lang` is shown. Readers get published articles; who may edit also sees drafts.
 */
export function useHelpEntries(lang: Language): readonly HelpEntry[] | undefined {
  const can = useCan();
  const author = can(articleDraftModel.permissions.view);
  const articles = useLiveQuery({ type: 'article', limit: LIMIT });
  const texts = useLiveQuery({ type: 'article_text', limit: LIMIT });
  const drafts = useLiveQuery(author ? { type: 'article_draft', limit: LIMIT } : null);
  return useMemo(() => {
    if (articles === undefined || texts === undefined) return undefined;
    const byArticle = <T extends { readonly attributes: { readonly article_id: string } }>(
      items: readonly T[],
    ) => {
      const map = new Map<string, T[]>();
      for (const item of items) {
        const list = map.get(item.attributes.article_id) ?? [];
        list.push(item);
        map.set(item.attributes.article_id, list);
      }
      return map;
    };
    const textsOf = byArticle(texts.items);
    const draftsOf = byArticle(drafts?.items ?? []);
    const entries: HelpEntry[] = [];
    for (const article of articles.items) {
      const own = textsOf.get(article.id) ?? [];
      const published = own.map((t) => t.attributes.lang);
      const isPublished = article.attributes.state === 'published' && own.length > 0;
      if (!isPublished && !author) continue;
      const pool = isPublished ? own : (draftsOf.get(article.id) ?? []);
      const shown = readerLanguage(
        lang,
        article.attributes.languages,
        pool.map((t) => t.attributes.lang),
      );
      const text =
        shown === undefined ? undefined : pool.find((t) => t.attributes.lang === shown.lang);
      entries.push({
        article,
        text,
        fallback: shown?.fallback ?? false,
        draft: !isPublished,
        published,
      });
    }
    return entries;
  }, [articles, texts, drafts, author, lang]);
}
