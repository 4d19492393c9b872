import { sql, type Kysely } from 'kysely';
import { isPostgres, textType } from './dialect';

/**
 * The help centre's search (issue 33 item 4, DESIGN.md §14): one row per published article text
 * (an `article_text` model), written by the server in the transaction that writes the text.
 * `terms` is the text's words as the server folded them (shared-schema help/fold.ts: ß as ss,
 * umlauts also in their e-spelling), `title` and `body` the original words for snippets. The
 * database's own full-text index answers the search: on SQLite an FTS5 table that triggers keep
 * equal to `article_search` (a deleted account's rows go by the foreign key, and their index rows
 * with them); on Postgres a GIN index over `to_tsvector('simple', terms)`. `article_numbers`:
 * the last article number each account gave.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const text = textType(db);
  await db.schema
    .createTable('article_search')
    .addColumn('text_id', text, (c) => c.primaryKey())
    .addColumn('account_id', text, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('article_id', text, (c) => c.notNull())
    .addColumn('number', 'bigint')
    .addColumn('lang', text, (c) => c.notNull())
    .addColumn('title', text, (c) => c.notNull())
    .addColumn('body', text, (c) => c.notNull())
    .addColumn('terms', text, (c) => c.notNull())
    .execute();
  // The highest article number each account gave: numbers only go up (a deleted article's
  // number is never given again, so old help/N links never open another article).
  await db.schema
    .createTable('article_numbers')
    .addColumn('account_id', text, (c) =>
      c.primaryKey().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('last', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('article_search_article')
    .on('article_search')
    .columns(['account_id', 'article_id'])
    .execute();
  if (isPostgres(db)) {
    await sql`create index article_search_terms on article_search
      using gin (to_tsvector('simple', terms))`.execute(db);
    return;
  }
  // The index's rows share their rowid with article_search's: a delete finds its row at once.
  await sql`create virtual table article_fts using fts5(
    terms, tokenize = 'unicode61 remove_diacritics 2'
  )`.execute(db);
  await sql`create trigger article_search_ai after insert on article_search begin
    insert into article_fts (rowid, terms) values (new.rowid, new.terms);
  end`.execute(db);
  await sql`create trigger article_search_ad after delete on article_search begin
    delete from article_fts where rowid = old.rowid;
  end`.execute(db);
  await sql`create trigger article_search_au after update on article_search begin
    delete from article_fts where rowid = old.rowid;
    insert into article_fts (rowid, terms) values (new.rowid, new.terms);
  end`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) {
    await sql`drop trigger if exists article_search_au`.execute(db);
    await sql`drop trigger if exists article_search_ad`.execute(db);
    await sql`drop trigger if exists article_search_ai`.execute(db);
    await sql`drop table if exists article_fts`.execute(db);
  }
  await db.schema.dropTable('article_search').execute();
  await db.schema.dropTable('article_numbers').execute();
}
