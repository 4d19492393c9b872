import { sql, type Kysely } from 'kysely';
import { isPostgres, textType } from './dialect';

/**
 * The help centre's search (issue 33 item 4, DESIGN.md §14): one row per published article text
 * (an `article_text` model), written by the server in the transaction that writes the text.
 * `terms` is the text's words as the server folded them (shared-schema help/fold.ts: ß as ss,
 * umlauts also in their e-spelling), `title` and `body` the original words for snippets. The
 * database's own full-text index answers the search: on SQLite an FTS5 table that triggers keep
 * equal to `article_search` (a deleted account's rows go by the foreign key, and their index rows
 * with them); on Postgres a GIN index over `to_tsvector('simple', terms)`.
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
  await sql`create virtual table article_fts using fts5(
    text_id unindexed, account_id unindexed, terms, tokenize = 'unicode61 remove_diacritics 2'
  )`.execute(db);
  await sql`create trigger article_search_ai after insert on article_search begin
    insert into article_fts (text_id, account_id, terms)
      values (new.text_id, new.account_id, new.terms);
  end`.execute(db);
  await sql`create trigger article_search_ad after delete on article_search begin
    delete from article_fts where text_id = old.text_id;
  end`.execute(db);
  await sql`create trigger article_search_au after update on article_search begin
    delete from article_fts where text_id = old.text_id;
    insert into article_fts (text_id, account_id, terms)
      values (new.text_id, new.account_id, new.terms);
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
}
