import { useEffect, useMemo, useState } from 'react';
import { articleDraftModel, readerLanguage, type Language } from '@plant/shared-schema';
import type { LocalModel } from '@plant/sync-worker/api';
import { useCan } from '../../permissions/permissions';
import { useLiveModel, useLiveQuery } from '../../sync/hooks';
import { syncWorker } from '../../sync/worker';

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
      const entry = entryOf(
        article,
        textsOf.get(article.id) ?? [],
        draftsOf.get(article.id) ?? [],
        lang,
        author,
      );
      if (entry !== undefined) entries.push(entry);
    }
    return entries;
  }, [articles, texts, drafts, author, lang]);
}

/** One article as a reader in `lang` meets it (undefined: a draft, to one who may not edit). */
function entryOf(
  article: LocalModel<'article'>,
  own: readonly LocalModel<'article_text'>[],
  drafts: readonly LocalModel<'article_draft'>[],
  lang: Language,
  author: boolean,
): HelpEntry | undefined {
  const published = own.map((t) => t.attributes.lang);
  const isPublished = article.attributes.state === 'published' && own.length > 0;
  if (!isPublished && !author) return undefined;
  const pool = isPublished ? own : drafts;
  const shown = readerLanguage(
    lang,
    article.attributes.languages,
    pool.map((t) => t.attributes.lang),
  );
  const text = shown === undefined ? undefined : pool.find((t) => t.attributes.lang === shown.lang);
  return { article, text, fallback: shown?.fallback ?? false, draft: !isPublished, published };
}

/**
 * One article by its number, from the store, live (offline too), read alone: the worker names
 * the article of that number, then only it, its texts and (authors) its drafts are watched,
 * however many articles the help centre holds. Undefined while loading; null: no such article
 * here (or a draft to a reader).
 */
export function useHelpArticle(lang: Language, number: number): HelpEntry | null | undefined {
  const can = useCan();
  const author = can(articleDraftModel.permissions.view);
  // Asked again when the number of articles here changes (one arriving by sync).
  const count = useLiveQuery({ type: 'article', limit: 1 })?.total;
  const [found, setFound] = useState<{ number: number; id: string | null }>();
  useEffect(() => {
    let closed = false;
    void syncWorker()
      .help.articleId(number)
      .then((id) => {
        if (!closed) setFound({ number, id });
      });
    return () => {
      closed = true;
    };
  }, [number, count]);
  const id = found?.number === number ? found.id : undefined;
  const article = useLiveModel('article', id ?? '');
  const parent = id === undefined || id === null ? null : { type: 'article', id };
  const texts = useLiveQuery(parent === null ? null : { type: 'article_text', parent, limit: 10 });
  const drafts = useLiveQuery(
    parent === null || !author ? null : { type: 'article_draft', parent, limit: 10 },
  );
  return useMemo(() => {
    if (id === undefined) return undefined;
    if (id === null || article.name === 'missing') return null;
    if (article.name === 'loading' || texts === undefined) return undefined;
    // A list of the article before may answer a moment longer: only this article's own.
    const own = texts.items.filter((t) => t.attributes.article_id === id);
    const its = (drafts?.items ?? []).filter((d) => d.attributes.article_id === id);
    return entryOf(article.model, own, its, lang, author) ?? null;
  }, [id, article, texts, drafts, lang, author]);
}
