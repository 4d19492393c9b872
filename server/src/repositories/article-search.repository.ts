import { sql } from 'kysely';
import { indexedText, searchTerms } from '@plant/shared-schema';
import { databaseKind, type Db } from '../db/database';
import type { ArticleSearchTable } from '../db/types';
import { scopeTo } from './account-scope';

/** What the index keeps of one published text (the server writes it with the text). */
export interface IndexedText {
  readonly textId: string;
  readonly articleId: string;
  readonly number: number | null;
  readonly lang: string;
  readonly title: string;
  /** The text's words without markup (blocks and captions in order). */
  readonly body: string;
}

export type SearchRow = Pick<
  ArticleSearchTable,
  'text_id' | 'article_id' | 'number' | 'lang' | 'title' | 'body'
>;

/**
 * The help centre's full-text index (migration 20261130000100): FTS5 on SQLite, a tsvector GIN
 * index on Postgres, over the folded words of each published text (shared-schema help/fold.ts).
 */
export class ArticleSearchRepository {
  constructor(private readonly db: Db) {}

  async put(accountId: string, text: IndexedText): Promise<void> {
    const terms = indexedText(`${text.title}\n${text.body}`);
    const scope = scopeTo(this.db, accountId);
    await scope.deleteFrom('article_search').where('text_id', '=', text.textId).execute();
    await scope
      .insertInto('article_search', [
        {
          text_id: text.textId,
          article_id: text.articleId,
          number: text.number,
          lang: text.lang,
          title: text.title,
          body: text.body,
          terms,
        },
      ])
      .execute();
  }

  async remove(accountId: string, textIds: readonly string[]): Promise<void> {
    if (textIds.length === 0) return;
    await scopeTo(this.db, accountId)
      .deleteFrom('article_search')
      .where('text_id', 'in', textIds)
      .execute();
  }

  /**
   * The texts whose words start with every word of the query (folded), best first, at most
   * `limit`. An empty query (no words) finds nothing.
   */
  async search(accountId: string, query: string, limit: number): Promise<SearchRow[]> {
    const terms = searchTerms(query);
    if (terms.length === 0) return [];
    const columns = ['text_id', 'article_id', 'number', 'lang', 'title', 'body'] as const;
    if (databaseKind(this.db) === 'postgres') {
      const tsquery = terms.map((t) => `${t}:*`).join(' & ');
      return scopeTo(this.db, accountId)
        .selectFrom('article_search')
        .select(columns)
        .where(sql<boolean>`to_tsvector('simple', terms) @@ to_tsquery('simple', ${tsquery})`)
        .orderBy(
          sql`ts_rank(to_tsvector('simple', terms), to_tsquery('simple', ${tsquery}))`,
          'desc',
        )
        .orderBy('number')
        .limit(limit)
        .execute();
    }
    // Words of letters and digits only: quoted, each a prefix; FTS5 ANDs them.
    const match = terms.map((t) => `"${t}"*`).join(' ');
    return scopeTo(this.db, accountId)
      .selectFrom('article_search')
      .innerJoin('article_fts', (join) =>
        join.on(sql<boolean>`article_fts.rowid = article_search.rowid`),
      )
      .select(columns.map((c) => `article_search.${c}` as const))
      .where(sql<boolean>`article_fts match ${match}`)
      .orderBy(sql`article_fts.rank`)
      .orderBy('article_search.number')
      .limit(limit)
      .execute();
  }

  /** The same rows found by a plain LIKE over the texts (the benchmark's baseline). */
  async searchLike(accountId: string, query: string, limit: number): Promise<SearchRow[]> {
    let q = scopeTo(this.db, accountId)
      .selectFrom('article_search')
      .select(['text_id', 'article_id', 'number', 'lang', 'title', 'body']);
    for (const word of query.split(/\s+/).filter((w) => w.length > 0))
      q = q.where((eb) =>
        eb.or([eb('title', 'like', `%${word}%`), eb('body', 'like', `%${word}%`)]),
      );
    return q.limit(limit).execute();
  }
}
