import {
  articleModel,
  can,
  snippetOf,
  type ArticleAttributes,
  type ArticleSearchHit,
  type ArticleSearchQuery,
  type Language,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import { ArticleSearchRepository } from '../repositories/article-search.repository';
import { ModelRepository } from '../repositories/model.repository';
import { forbidden } from '../services/domain-error';
import type { Session } from '../services/user.service';

/** At most this many articles answer a search. */
export const SEARCH_LIMIT = 20;

/** The help centre's routes beside the generic model writes: the search (DESIGN.md §14). */
export class ArticleService {
  constructor(private readonly db: Db) {}

  /**
   * Published articles of the active account whose words start with every word of the query
   * (the database's full-text index), best first, one hit per article: its text in the reader's
   * language when that one matched, else the best match of another language.
   */
  async search(session: Session, q: ArticleSearchQuery): Promise<ArticleSearchHit[]> {
    const accountId = session.activeAccount?.id;
    if (accountId === undefined || !can(session.ctx, articleModel.permissions.view))
      throw forbidden();
    return this.searchIn(accountId, q);
  }

  /** The same search in one account, for whom the caller decided may read it (the host page). */
  async searchIn(accountId: string, q: ArticleSearchQuery): Promise<ArticleSearchHit[]> {
    const rows = await new ArticleSearchRepository(this.db).search(
      accountId,
      q.q,
      SEARCH_LIMIT * 5,
    );
    // Only articles published now (a text whose article went back to draft waits for its delete).
    const articles = await new ModelRepository(this.db).findMany(accountId, articleModel.type, [
      ...new Set(rows.map((r) => r.article_id)),
    ]);
    const published = new Set(
      articles
        .filter((row) => (JSON.parse(row.attributes) as ArticleAttributes).state === 'published')
        .map((row) => row.id),
    );
    const best = new Map<string, (typeof rows)[number]>();
    for (const row of rows) {
      if (!published.has(row.article_id)) continue;
      const kept = best.get(row.article_id);
      if (kept === undefined || (kept.lang !== q.lang && row.lang === q.lang))
        best.set(row.article_id, row);
    }
    return [...best.values()].slice(0, SEARCH_LIMIT).map((row) => ({
      id: row.article_id,
      number: row.number,
      title: row.title,
      snippet: snippetOf(row.body, q.q),
      lang: row.lang as Language,
    }));
  }
}
