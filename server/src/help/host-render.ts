import { createHash } from 'node:crypto';
import {
  HELP_HOST_TEXTS,
  LANGUAGE_ENDONYMS,
  LANGUAGES,
  matchRanges,
  parseInline,
  readableBlocks,
  type ArticleBlock,
  type ArticleListItem,
  type InlineNode,
  type Language,
} from '@plant/shared-schema';
import type { Translate } from './host-catalogue';

/*
 * The help centre's host page as HTML (issue 33 item 6): the server's own renderer of the same
 * documents the app shows, built from the same allowlists (readableBlocks, parseInline), every
 * text escaped; no script at all, one style sheet allowed by its hash.
 */

/** Each content language by its own name (shared-schema: the app shows the same). */
export const LANGUAGE_NAMES = LANGUAGE_ENDONYMS;

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/** The page's address with these query parameters (the host serves its root only). */
type Query = Readonly<Record<string, string | number | null | undefined>>;

export function rootHref(params: Query): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== null && value !== '') query.set(key, String(value));
  const text = query.toString();
  return text === '' ? '/' : `/?${text}`;
}

function inlineHtml(nodes: readonly InlineNode[], lang: Language): string {
  return nodes
    .map((node) => {
      switch (node.kind) {
        case 'text':
          return escapeHtml(node.text);
        case 'br':
          return '<br>';
        case 'a': {
          const article = /^help\/(\d+)$/.exec(node.href)?.[1];
          const href = article === undefined ? node.href : rootHref({ article, lang });
          const outside = article === undefined ? ' rel="noopener noreferrer nofollow"' : '';
          return `<a href="${escapeHtml(href)}"${outside}>${inlineHtml(node.children, lang)}</a>`;
        }
        case 'b':
        case 'i':
        case 'code':
        case 'mark':
          return `<${node.kind}>${inlineHtml(node.children, lang)}</${node.kind}>`;
      }
    })
    .join('');
}

const inline = (html: string, lang: Language) => inlineHtml(parseInline(html), lang);

const plainText = (html: string) =>
  parseInline(html)
    .map((n) => (n.kind === 'text' ? n.text : ''))
    .join('');

function listHtml(items: readonly ArticleListItem[], ordered: boolean, lang: Language): string {
  const tag = ordered ? 'ol' : 'ul';
  const inner = items
    .map(
      (item) =>
        `<li>${inline(item.content, lang)}${
          item.items.length > 0 ? listHtml(item.items, ordered, lang) : ''
        }</li>`,
    )
    .join('');
  return `<${tag}>${inner}</${tag}>`;
}

function blockHtml(block: ArticleBlock, lang: Language, t: (source: string) => string): string {
  switch (block.type) {
    case 'paragraph':
      return `<p>${inline(block.data.text, lang)}</p>`;
    case 'header': {
      // The article's title is the page's h1: its headings start at h2.
      const level = Math.min(6, Math.max(2, block.data.level));
      return `<h${level}>${inline(block.data.text, lang)}</h${level}>`;
    }
    case 'list':
      return listHtml(block.data.items, block.data.style === 'ordered', lang);
    case 'image': {
      const { file, caption, withBorder, stretched, withBackground } = block.data;
      const classes = [
        withBorder ? 'border' : '',
        stretched ? 'stretched' : '',
        withBackground ? 'background' : '',
      ]
        .filter((c) => c !== '')
        .join(' ');
      const picture =
        file.file_id === null
          ? ''
          : `<img src="${escapeHtml(rootHref({ picture: file.file_id }))}" alt="${escapeHtml(
              plainText(caption),
            )}" loading="lazy">`;
      const text = caption === '' ? '' : `<figcaption>${inline(caption, lang)}</figcaption>`;
      return `<figure${classes === '' ? '' : ` class="${classes}"`}>${picture}${text}</figure>`;
    }
    case 'unknown':
      return `<p class="unknown">${escapeHtml(t(HELP_HOST_TEXTS.unknownBlock))}</p>`;
  }
}

/**
 * An article's document as HTML, each block normalised again on its own (the store may hold
 * anything): a bad block is a quiet note, the rest readable, as in the app.
 */
export function documentHtml(
  content: unknown,
  lang: Language,
  t: (source: string) => string,
): string {
  const unknown = `<p class="unknown">${escapeHtml(t(HELP_HOST_TEXTS.unknownBlock))}</p>`;
  const blocks = readableBlocks(content);
  if (blocks === null) return unknown;
  return blocks.map((block) => (block === null ? unknown : blockHtml(block, lang, t))).join('\n');
}

/** A search hit's snippet with its matches marked. */
export function markedHtml(text: string, query: string): string {
  let at = 0;
  let html = '';
  for (const [from, to] of matchRanges(text, query)) {
    html += `${escapeHtml(text.slice(at, from))}<mark>${escapeHtml(text.slice(from, to))}</mark>`;
    at = to;
  }
  return html + escapeHtml(text.slice(at));
}

const STYLE = `
:root { color-scheme: light dark; font-family: system-ui, sans-serif; line-height: 1.5; }
body { margin: 0 auto; max-width: 48rem; padding: 1rem; }
header { display: flex; flex-wrap: wrap; gap: 1rem; align-items: baseline; justify-content: space-between; }
header .home { font-size: 1.4rem; font-weight: 700; text-decoration: none; }
nav ul, ul.articles { list-style: none; padding: 0; }
nav ul { display: flex; gap: .75rem; margin: 0; }
nav [aria-current] { font-weight: 700; }
form { display: flex; flex-wrap: wrap; gap: .5rem; align-items: end; margin: 1rem 0; }
form label { flex-basis: 100%; font-weight: 600; }
input[type=search] { flex: 1; min-width: 12rem; font: inherit; padding: .4rem; }
button { font: inherit; padding: .4rem .9rem; }
ul.articles li { padding: .5rem 0; border-bottom: 1px solid #8884; }
.snippet, .note, .unknown, .lang { color: #666; }
.lang { font-size: .8rem; margin-left: .5rem; border: 1px solid #8886; border-radius: 3px; padding: 0 .3rem; }
.note { border-left: 3px solid #3b82f6; padding-left: .75rem; }
.problem { color: #b91c1c; }
figure { margin: 1rem 0; }
figure img { max-width: 100%; height: auto; }
figure.border img { border: 1px solid #888; }
figure.background { background: #8882; padding: 1rem; text-align: center; }
figure.stretched img { width: 100%; }
code { background: #8882; padding: 0 .2rem; border-radius: 3px; }
@media print { header nav, form, .noprint { display: none; } body { max-width: none; } a { color: inherit; } }
`;

/** The page's Content-Security-Policy: nothing runs, its one style sheet allowed by its hash. */
export const HOST_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "img-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

export interface PageParts {
  readonly lang: Language;
  readonly title: string;
  readonly body: string;
  /** The query to carry into the language links (a search, an article). */
  readonly keep?: Query;
  readonly query?: string;
  readonly translate: Translate;
}

/** The whole page: the help centre's header, the language switch, the search, then `body`. */
export function pageHtml(parts: PageParts): string {
  const { lang, translate } = parts;
  const t = (source: string) => translate(lang, source);
  const languages = LANGUAGES.map(
    (l) =>
      `<li><a href="${escapeHtml(rootHref({ ...parts.keep, lang: l }))}" hreflang="${
        l === 'plain' ? 'en' : l
      }" lang="${l === 'plain' ? 'en' : l}"${l === lang ? ' aria-current="true"' : ''}>${escapeHtml(
        LANGUAGE_NAMES[l],
      )}</a></li>`,
  ).join('');
  return `<!doctype html>
<html lang="${lang === 'plain' ? 'en' : lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(parts.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<a class="home" href="${escapeHtml(rootHref({ lang }))}">${escapeHtml(t(HELP_HOST_TEXTS.title))}</a>
<nav aria-label="${escapeHtml(t(HELP_HOST_TEXTS.language))}"><ul>${languages}</ul></nav>
</header>
<form role="search" action="/" method="get">
<label for="q">${escapeHtml(t(HELP_HOST_TEXTS.search))}</label>
<input id="q" name="q" type="search" maxlength="200" value="${escapeHtml(parts.query ?? '')}">
<input type="hidden" name="lang" value="${lang}">
<button type="submit">${escapeHtml(t(HELP_HOST_TEXTS.searchButton))}</button>
</form>
<main>
${parts.body}
</main>
</body>
</html>
`;
}
