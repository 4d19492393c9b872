import type MiniSearch from 'minisearch';
import {
  documentText,
  indexedText,
  searchTerms,
  shownText,
  snippetOf,
  type Language,
} from '@plant/shared-schema';
import type { HelpHit, HelpListEntry, LocalModel, QueryResult } from '../api';
import type { QueryHub } from '../query/query-hub';

/** Models per window of the store's live lists (the hub's largest). */
const WINDOW = 1000;
/** At most this many articles answer a search (as the server's). */
export const HELP_SEARCH_LIMIT = 20;
/** How long a first search waits for the store's lists. */
const READY_MS = 5_000;

interface IndexedDoc {
  readonly id: string;
  readonly title: string;
  readonly body: string;
}

/**
 * Every model of one type from the store, live, in windows of the hub's list size: a window more
 * is watched as soon as the total passes the last one.
 */
class AllOfType<T extends 'article' | 'article_text' | 'article_draft'> {
  private readonly windows = new Map<number, readonly LocalModel<T>[]>();
  private readonly offs: (() => void)[] = [];
  /** Told after every answer of a window (the list's watchers). */
  readonly listeners = new Set<() => void>();
  private readonly answered = new Set<number>();
  private waiting: (() => void)[] = [];
  version = 0;

  constructor(
    private readonly hub: QueryHub,
    private readonly type: T,
  ) {
    this.watch(0);
  }

  private watch(offset: number): void {
    this.offs.push(
      this.hub.subscribe({ type: this.type, offset, limit: WINDOW }, (result: QueryResult) => {
        this.windows.set(offset, result.items as readonly LocalModel<T>[]);
        this.answered.add(offset);
        this.version += 1;
        const next = offset + WINDOW;
        if (result.total > next && !this.windows.has(next) && !this.answered.has(next)) {
          this.windows.set(next, []);
          this.watch(next);
        }
        if (this.ready) for (const resolve of this.waiting.splice(0)) resolve();
        for (const listener of this.listeners) listener();
      }),
    );
  }

  /** Every watched window has answered once. */
  get ready(): boolean {
    return [...this.windows.keys(), 0].every((offset) => this.answered.has(offset));
  }

  whenReady(): Promise<void> {
    if (this.ready) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  items(): LocalModel<T>[] {
    return [...this.windows.values()].flat();
  }

  close(): void {
    for (const off of this.offs.splice(0)) off();
    for (const resolve of this.waiting.splice(0)) resolve();
  }
}

/**
 * The help centre's search in the worker (issue 33 item 4): MiniSearch over the published texts
 * in the store, with the words folded as the server folds them (shared-schema help/fold.ts: ß as
 * ss, umlauts also in their e-spelling), every word of the query a prefix of a word of the text.
 * The index is built on the first search after a change of the texts, not on every change.
 */
export class HelpIndex {
  /** Every text: watched from the first search on (an article's page needs the articles only). */
  private watchedTexts: AllOfType<'article_text'> | undefined;
  /** The authors' drafts: watched from the first list an author opens. */
  private watchedDrafts: AllOfType<'article_draft'> | undefined;
  private readonly articles: AllOfType<'article'>;
  private built: { version: string; search: MiniSearch<IndexedDoc> } | undefined;
  private readonly docs = new Map<string, LocalModel<'article_text'>>();
  private readonly bodies = new Map<string, string>();

  constructor(private readonly hub: QueryHub) {
    this.articles = new AllOfType(hub, 'article');
  }

  private get texts(): AllOfType<'article_text'> {
    this.watchedTexts ??= new AllOfType(this.hub, 'article_text');
    return this.watchedTexts;
  }

  /** Waits until the lists answered (at most READY_MS: a store still loading answers what it has). */
  private async settled(lists: readonly { whenReady(): Promise<void> }[]): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      Promise.all(lists.map((l) => l.whenReady())),
      new Promise((resolve) => (timer = setTimeout(resolve, READY_MS))),
    ]);
    clearTimeout(timer);
  }

  async articleId(number: number): Promise<string | null> {
    await this.settled([this.articles]);
    return this.articles.items().find((a) => a.attributes.number === number)?.id ?? null;
  }

  private async index(): Promise<MiniSearch<IndexedDoc>> {
    await this.settled([this.texts, this.articles]);
    const version = `${this.texts.version}`;
    if (this.built?.version === version) return this.built.search;
    // MiniSearch loads with the first search (a chunk of its own): no start pays for it.
    const { default: Search } = await import('minisearch');
    const search = new Search<IndexedDoc>({
      fields: ['title', 'body'],
      idField: 'id',
      // The words as the server indexes them; the query's as it searches (searchTerms).
      tokenize: (text) => (text === '' ? [] : indexedText(text).split(' ')),
      processTerm: (term) => term,
      searchOptions: {
        tokenize: (query) => searchTerms(query),
        processTerm: (term) => term,
        prefix: true,
        combineWith: 'AND',
        boost: { title: 2 },
      },
    });
    this.docs.clear();
    this.bodies.clear();
    // A text may stand in two windows for a moment (an insert shifts them): once by id.
    for (const text of this.texts.items()) this.docs.set(text.id, text);
    const docs: IndexedDoc[] = [];
    for (const text of this.docs.values()) {
      const body = documentText(text.attributes.content);
      this.bodies.set(text.id, body);
      docs.push({ id: text.id, title: text.attributes.title, body });
    }
    search.addAll(docs);
    this.built = { version, search };
    return search;
  }

  /** Published articles whose texts hold every word of the query, best first. */
  async search(query: string, lang: Language): Promise<HelpHit[]> {
    if (searchTerms(query).length === 0) return [];
    const search = await this.index();
    const published = new Map(
      this.articles
        .items()
        .filter((a) => a.attributes.state === 'published')
        .map((a) => [a.id, a] as const),
    );
    const best = new Map<string, LocalModel<'article_text'>>();
    for (const result of search.search(query)) {
      const text = this.docs.get(String(result.id));
      if (text === undefined || !published.has(text.attributes.article_id)) continue;
      const kept = best.get(text.attributes.article_id);
      if (kept === undefined || (kept.attributes.lang !== lang && text.attributes.lang === lang))
        best.set(text.attributes.article_id, text);
    }
    return [...best.values()].slice(0, HELP_SEARCH_LIMIT).map((text) => ({
      articleId: text.attributes.article_id,
      number: published.get(text.attributes.article_id)?.attributes.number ?? null,
      lang: text.attributes.lang,
      title: text.attributes.title,
      snippet: snippetOf(this.bodies.get(text.id) ?? '', query),
    }));
  }

  /**
   * The list as a reader in `lang` meets it (authors: drafts too), by number, told now and after
   * every change of the articles, texts or drafts (at most once a frame's worth of changes).
   */
  watchList(
    lang: Language,
    author: boolean,
    callback: (entries: readonly HelpListEntry[]) => void,
  ): () => void {
    const lists: AllOfType<'article' | 'article_text' | 'article_draft'>[] = [
      this.articles,
      this.texts,
    ];
    if (author) {
      this.watchedDrafts ??= new AllOfType(this.hub, 'article_draft');
      lists.push(this.watchedDrafts);
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const tell = () => {
      if (stopped || !lists.every((l) => l.ready)) return;
      callback(this.listFor(lang, author));
    };
    const changed = () => {
      clearTimeout(timer);
      timer = setTimeout(tell, 16);
    };
    for (const list of lists) list.listeners.add(changed);
    void this.settled(lists).then(tell);
    return () => {
      stopped = true;
      clearTimeout(timer);
      for (const list of lists) list.listeners.delete(changed);
    };
  }

  private listFor(lang: Language, author: boolean): HelpListEntry[] {
    const byArticle = <M extends LocalModel<'article_text'> | LocalModel<'article_draft'>>(
      items: readonly M[],
    ) => {
      const map = new Map<string, M[]>();
      // A model may stand in two windows for a moment (an insert shifts them): once by id.
      const seen = new Set<string>();
      for (const item of items) {
        if (seen.has(item.id)) continue;
        seen.add(item.id);
        const list = map.get(item.attributes.article_id) ?? [];
        list.push(item);
        map.set(item.attributes.article_id, list);
      }
      return map;
    };
    const texts = byArticle(this.texts.items());
    const drafts = byArticle(author ? (this.watchedDrafts?.items() ?? []) : []);
    const entries = new Map<string, HelpListEntry>();
    for (const article of this.articles.items()) {
      const shown = shownText<LocalModel<'article_text'> | LocalModel<'article_draft'>>(
        article.attributes,
        texts.get(article.id) ?? [],
        drafts.get(article.id) ?? [],
        lang,
        author,
      );
      if (shown === undefined) continue;
      entries.set(article.id, {
        id: article.id,
        number: article.attributes.number,
        tags: article.attributes.tags,
        categories: article.attributes.categories,
        pending: article.pending,
        title: shown.text?.attributes.title || null,
        lang: shown.text?.attributes.lang ?? null,
        fallback: shown.fallback,
        draft: shown.draft,
      });
    }
    // By number; articles the server has not numbered yet (made here, offline) first.
    return [...entries.values()].sort((a, b) => (a.number ?? 0) - (b.number ?? 0));
  }

  close(): void {
    this.watchedTexts?.close();
    this.watchedDrafts?.close();
    this.articles.close();
  }
}
