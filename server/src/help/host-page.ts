import { Readable } from 'node:stream';
import { Hono, type Context } from 'hono';
import {
  articleAttributesSchema,
  articleModel,
  articleTextModel,
  HELP_HOST_TEXTS,
  LANGUAGES,
  readerLanguage,
  searchable,
  type ArticleAttributes,
  type ArticleTextAttributes,
  type Language,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import type { FileService } from '../files/file.service';
import type { AppEnv } from '../http/context';
import { hostName } from '../http/host-name';
import { readerLang } from '../http/reader-language';
import type { Logger } from '../logger';
import { AccountRepository } from '../repositories/account.repository';
import { ModelRepository } from '../repositories/model.repository';
import type { ArticleService } from './article.service';
import type { Translate } from './host-catalogue';
import {
  documentHtml,
  escapeHtml,
  HOST_CSP,
  LANGUAGE_NAMES,
  markedHtml,
  pageHtml,
  rootHref,
} from './host-render';

/*
 * The help centre's own host (issue 33 item 6, spec 000 §1): requests whose Host is
 * HELPCENTER_HOST get the help centre's root screen (the published articles of one account,
 * the search, the language switch; an article and its pictures open on the same root by query)
 * or its error screen, as plain HTML from the server. No app shell, no sign-in, no script, no
 * other route of the server: the API, the app, the service worker and the broker answer nothing
 * on this host.
 */

export interface HelpHostDeps {
  readonly db: Db;
  readonly articles: ArticleService;
  readonly files: FileService;
  readonly translate: Translate;
  readonly log: Logger;
  /** HELPCENTER_ACCOUNT: the account shown (else the first top-level account). */
  readonly account?: string;
}

/** Whether a request's Host header names the help centre's host (its port aside). */
export function isHelpHost(hostHeader: string | undefined, helpHost: string): boolean {
  if (hostHeader === undefined) return false;
  return hostName(hostHeader) === helpHost.toLowerCase().replace(/:\d+$/, '');
}

/** One published article with its texts by language. */
interface Published {
  readonly id: string;
  readonly article: ArticleAttributes;
  readonly texts: ReadonlyMap<Language, ArticleTextAttributes>;
}

export function helpHostApp(deps: HelpHostDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const accounts = new AccountRepository(deps.db);
  const models = new ModelRepository(deps.db);

  const html = (c: Context<AppEnv>, body: string, status: 200 | 404 = 200) => {
    c.header('Content-Security-Policy', HOST_CSP);
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Referrer-Policy', 'no-referrer');
    c.header('X-Frame-Options', 'DENY');
    c.header('Cache-Control', 'no-cache');
    return c.html(body, status);
  };

  /** Every published article of the account with its texts. */
  async function published(accountId: string): Promise<Published[]> {
    const rows = await models.allOfTypes(accountId, [articleModel.type, articleTextModel.type]);
    const texts = new Map<string, Map<Language, ArticleTextAttributes>>();
    for (const row of rows) {
      if (row.type !== articleTextModel.type) continue;
      // As the server stored it (checked and sanitised when written); the document is
      // normalised again when it is shown.
      const text = JSON.parse(row.attributes) as ArticleTextAttributes;
      if (!(LANGUAGES as readonly string[]).includes(text.lang)) continue;
      const of = texts.get(text.article_id) ?? new Map<Language, ArticleTextAttributes>();
      of.set(text.lang, text);
      texts.set(text.article_id, of);
    }
    const list: Published[] = [];
    for (const row of rows) {
      if (row.type !== articleModel.type) continue;
      const article = articleAttributesSchema.safeParse(JSON.parse(row.attributes));
      if (!article.success || article.data.state !== 'published') continue;
      const own = texts.get(row.id);
      if (own === undefined || own.size === 0) continue;
      list.push({ id: row.id, article: article.data, texts: own });
    }
    return list.sort((a, b) => (a.article.number ?? 0) - (b.article.number ?? 0));
  }

  /** The text a reader of `lang` sees of an article (theirs, else its first language). */
  const textFor = (entry: Published, lang: Language) => {
    const chosen = readerLanguage(lang, entry.article.languages, [...entry.texts.keys()]);
    const text = chosen === undefined ? undefined : entry.texts.get(chosen.lang);
    return text === undefined || chosen === undefined
      ? undefined
      : { text, fallback: chosen.fallback };
  };

  const errorScreen = (c: Context<AppEnv>, lang: Language) => {
    const t = (source: string) => deps.translate(lang, source);
    return html(
      c,
      pageHtml({
        lang,
        translate: deps.translate,
        title: t(HELP_HOST_TEXTS.notFound),
        body: `<section data-screen="error"><h1>${escapeHtml(t(HELP_HOST_TEXTS.notFound))}</h1>
<p>${escapeHtml(t(HELP_HOST_TEXTS.notFoundHint))}</p>
<p><a href="${escapeHtml(rootHref({ lang }))}">${escapeHtml(t(HELP_HOST_TEXTS.allArticles))}</a></p></section>`,
      }),
      404,
    );
  };

  app.get('/', async (c) => {
    const lang = readerLang(c);
    const t = (source: string) => deps.translate(lang, source);
    const accountId = await accounts.helpCentreAccount(deps.account);
    if (accountId === undefined) return errorScreen(c, lang);

    // A picture of a published article.
    const pictureId = c.req.query('picture');
    if (pictureId !== undefined) {
      const picture = await deps.files.articlePicture(accountId, pictureId, async (articleId) => {
        const row = await models.find(accountId, articleModel.type, articleId);
        return (
          row !== undefined &&
          (JSON.parse(row.attributes) as ArticleAttributes).state === 'published'
        );
      });
      if (picture === undefined) return errorScreen(c, lang);
      return new Response(Readable.toWeb(picture.body) as ReadableStream<Uint8Array>, {
        headers: {
          'Content-Type': picture.type,
          'Content-Length': String(picture.size),
          'Cache-Control': 'public, max-age=300',
          ETag: `"${picture.sha256}"`,
          'Content-Security-Policy': "default-src 'none'; sandbox",
          'X-Content-Type-Options': 'nosniff',
        },
      });
    }

    const list = await published(accountId);

    // One article.
    const number = c.req.query('article');
    if (number !== undefined) {
      const entry = /^\d{1,9}$/.test(number)
        ? list.find((a) => a.article.number === Number(number))
        : undefined;
      const shown = entry === undefined ? undefined : textFor(entry, lang);
      if (entry === undefined || shown === undefined) return errorScreen(c, lang);
      const { text, fallback } = shown;
      const textLang = text.lang === 'plain' ? 'en' : text.lang;
      const note = fallback
        ? `<p class="note" data-fallback>${escapeHtml(
            deps.translate(
              lang,
              HELP_HOST_TEXTS.fallback,
              LANGUAGE_NAMES[lang],
              LANGUAGE_NAMES[text.lang],
            ),
          )}</p>`
        : '';
      return html(
        c,
        pageHtml({
          lang,
          translate: deps.translate,
          title: `${text.title} · ${t(HELP_HOST_TEXTS.title)}`,
          keep: { article: number },
          body: `<article data-screen="article" data-number="${entry.article.number ?? ''}" lang="${textLang}">
<h1>${escapeHtml(text.title)}</h1>
${note}
${documentHtml(text.content, lang, t)}
</article>
<p class="noprint"><a href="${escapeHtml(rootHref({ lang }))}">${escapeHtml(t(HELP_HOST_TEXTS.allArticles))}</a></p>`,
        }),
      );
    }

    // A search, or the list.
    const query = (c.req.query('q') ?? '').trim().slice(0, 200);
    let body: string;
    if (query !== '') {
      if (!searchable(query)) {
        body = `<p class="problem" role="alert">${escapeHtml(t(HELP_HOST_TEXTS.tooShort))}</p>`;
      } else {
        const hits = await deps.articles.searchIn(accountId, { q: query, lang });
        body =
          hits.length === 0
            ? `<p>${escapeHtml(t(HELP_HOST_TEXTS.noHits))}</p>`
            : `<ul class="articles" data-screen="results">${hits
                .map(
                  (hit) =>
                    `<li><a href="${escapeHtml(rootHref({ article: hit.number, lang }))}">${markedHtml(
                      hit.title,
                      query,
                    )}</a><div class="snippet" lang="${hit.lang === 'plain' ? 'en' : hit.lang}">${markedHtml(
                      hit.snippet,
                      query,
                    )}</div></li>`,
                )
                .join('')}</ul>`;
      }
    } else {
      const items = list
        .map((entry) => {
          const shown = textFor(entry, lang);
          if (shown === undefined) return '';
          const other = shown.fallback
            ? ` <span class="lang" lang="en">${escapeHtml(shown.text.lang.toUpperCase())}</span>`
            : '';
          return `<li><a href="${escapeHtml(
            rootHref({ article: entry.article.number, lang }),
          )}">${escapeHtml(shown.text.title)}</a>${other}</li>`;
        })
        .join('');
      body =
        items === ''
          ? `<p>${escapeHtml(t(HELP_HOST_TEXTS.noArticles))}</p>`
          : `<ul class="articles" data-screen="list">${items}</ul>`;
    }
    return html(
      c,
      pageHtml({
        lang,
        translate: deps.translate,
        title: t(HELP_HOST_TEXTS.title),
        keep: { q: query },
        query,
        body,
      }),
    );
  });

  // Nothing else answers on this host: every other path and method is the error screen.
  app.all('*', (c) => errorScreen(c, readerLang(c)));
  app.onError((err, c) => {
    deps.log.error('help centre host page failed', { error: String(err) });
    return errorScreen(c, 'en');
  });
  return app;
}
