import {
  ARTICLE_TEXTS,
  articleDraftModel,
  articleModel,
  articleTextModel,
  documentText,
  type ArticleAttributes,
  type ArticleTextAttributes,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import { ArticleSearchRepository } from '../repositories/article-search.repository';
import { ModelRepository } from '../repositories/model.repository';
import { scopeTo } from '../repositories/account-scope';

/**
 * The help centre's rules on the generic model writes (issue 33, DESIGN.md §14), called by the
 * model transaction inside its database transaction (which holds the account's clock lock on
 * Postgres, so two writers never hand out one number).
 */

/** The three models of an article: who wrote each and when is the server's to stamp. */
export const HELP_TYPES: ReadonlySet<string> = new Set([
  articleModel.type,
  articleTextModel.type,
  articleDraftModel.type,
]);

/** The account's articles by number (the numbers' checks read it). */
async function articleIdsByNumber(trx: Db, accountId: string): Promise<Map<number, string>> {
  const byNumber = new Map<number, string>();
  for (const row of await new ModelRepository(trx).allOfTypes(accountId, [articleModel.type])) {
    const n = (JSON.parse(row.attributes) as ArticleAttributes).number;
    if (n !== null) byNumber.set(n, row.id);
  }
  return byNumber;
}

/**
 * The account's next article number (the first is 1): one more than the last it gave, kept in
 * `article_numbers` (every create notes its number there, the seed's too), so a deleted
 * article's number is never given again (old help/N links never open another article).
 */
export async function nextArticleNumber(trx: Db, accountId: string): Promise<number> {
  const given = await scopeTo(trx, accountId)
    .selectFrom('article_numbers')
    .select('last')
    .executeTakeFirst();
  const next = Number(given?.last ?? 0) + 1;
  await noteArticleNumber(trx, accountId, next);
  return next;
}

/** Remembers that the account gave `number` (the seed's numbers too). */
export async function noteArticleNumber(trx: Db, accountId: string, number: number): Promise<void> {
  const scope = scopeTo(trx, accountId);
  const given = await scope.selectFrom('article_numbers').select('last').executeTakeFirst();
  if (given === undefined) await scope.insertInto('article_numbers', [{ last: number }]).execute();
  else if (Number(given.last) < number)
    await scope.updateTable('article_numbers').set({ last: number }).execute();
}

/**
 * Problems of a help model's write: one text per language and article, a number used once, and
 * an article published only with a published text.
 */
export async function helpProblems(
  trx: Db,
  accountId: string,
  type: string,
  attributes: Record<string, unknown>,
  touched: ReadonlySet<string>,
  selfId: string,
): Promise<Record<string, string[]>> {
  const models = new ModelRepository(trx);
  if (type === articleTextModel.type || type === articleDraftModel.type) {
    if (!touched.has('lang') && !touched.has('article_id')) return {};
    const text = attributes as ArticleTextAttributes;
    const siblings = await models.children(accountId, articleModel.type, text.article_id);
    const twice = siblings.some(
      (row) =>
        row.type === type &&
        row.id !== selfId &&
        (JSON.parse(row.attributes) as ArticleTextAttributes).lang === text.lang,
    );
    return twice ? { lang: [ARTICLE_TEXTS.languageTwice] } : {};
  }
  if (type !== articleModel.type) return {};
  const article = attributes as ArticleAttributes;
  const problems: Record<string, string[]> = {};
  if (touched.has('state') && article.state === 'published') {
    const texts = await models.children(accountId, articleModel.type, selfId);
    if (!texts.some((row) => row.type === articleTextModel.type))
      problems.state = [ARTICLE_TEXTS.oneTranslation];
  }
  if (touched.has('number') && article.number !== null) {
    const holder = (await articleIdsByNumber(trx, accountId)).get(article.number);
    if (holder !== undefined && holder !== selfId)
      problems.number = ['This article number is taken.'];
  }
  return problems;
}

/** A published text into the search index (its article's number with it). */
export async function indexArticleText(
  trx: Db,
  accountId: string,
  textId: string,
  text: ArticleTextAttributes,
): Promise<void> {
  const article = await new ModelRepository(trx).find(
    accountId,
    articleModel.type,
    text.article_id,
  );
  const number =
    article === undefined ? null : (JSON.parse(article.attributes) as ArticleAttributes).number;
  await new ArticleSearchRepository(trx).put(accountId, {
    textId,
    articleId: text.article_id,
    number,
    lang: text.lang,
    title: text.title,
    body: documentText(text.content),
  });
}

export async function unindexArticleTexts(
  trx: Db,
  accountId: string,
  textIds: readonly string[],
): Promise<void> {
  await new ArticleSearchRepository(trx).remove(accountId, textIds);
}

/** A model that links a help article (`help_article`) names one the account has. */
export async function linkedArticleProblems(
  trx: Db,
  accountId: string,
  attributes: Record<string, unknown>,
  touched: ReadonlySet<string>,
): Promise<Record<string, string[]>> {
  const number = attributes.help_article;
  if (!touched.has('help_article') || typeof number !== 'number') return {};
  const known = (await articleIdsByNumber(trx, accountId)).has(number);
  return known ? {} : { help_article: [ARTICLE_TEXTS.unknownArticle] };
}
