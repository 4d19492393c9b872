import { useEffect, useMemo, useState } from 'react';
import { articleDraftModel, shownText, type Language } from '@plant/shared-schema';
import type { HelpListEntry, LocalModel, RemoteUnsubscribe } from '@plant/sync-worker/api';
import { useCan } from '../../permissions/permissions';
import { useLiveModel, useLiveQuery, useWorkerSubscription } from '../../sync/hooks';
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

/**
 * The help centre's list from the local store, live (offline too): every article as a reader in
 * `lang` meets it, by number; readers get published articles, who may edit also drafts. The
 * worker reads the store's lists in windows, so a help centre of thousands lists whole.
 */
export function useHelpList(lang: Language): readonly HelpListEntry[] | undefined {
  const can = useCan();
  const author = can(articleDraftModel.permissions.view);
  const key = `${lang}:${String(author)}`;
  const [state, setState] = useState<{ key: string; entries: readonly HelpListEntry[] }>();
  useWorkerSubscription<readonly HelpListEntry[]>(
    key,
    (callback) =>
      syncWorker().help.watchList(lang, author, callback) as unknown as Promise<RemoteUnsubscribe>,
    (entries) => setState({ key, entries }),
  );
  return state?.key === key ? state.entries : undefined;
}

/** One article as a reader in `lang` meets it (undefined: a draft, to one who may not edit). */
function entryOf(
  article: LocalModel<'article'>,
  own: readonly LocalModel<'article_text'>[],
  drafts: readonly LocalModel<'article_draft'>[],
  lang: Language,
  author: boolean,
): HelpEntry | undefined {
  const shown = shownText<LocalModel<'article_text'> | LocalModel<'article_draft'>>(
    article.attributes,
    own,
    drafts,
    lang,
    author,
  );
  if (shown === undefined) return undefined;
  return { article, ...shown, published: own.map((t) => t.attributes.lang) };
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
