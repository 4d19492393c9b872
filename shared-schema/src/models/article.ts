import { z } from 'zod';
import { deferred } from '../deferred';
import { idField } from '../api/fields';
import { LANGUAGES, type Language } from '../constants';
import { withinJsonBounds } from '../api/json-value';
import { inlineText, parseInline, sanitizeInline } from '../help/inline';
import type { ModelDefinition } from './registry-types';
import { viewEditPermissions } from './model-permissions';
import { ARTICLE_TEXTS } from './article-texts';

/**
 * The help centre (DESIGN.md §14, issue 33). An article is three kinds of model, so that a reader
 * never receives what is not published:
 *
 * - `article`: the numbered entry every reader syncs (helpcenter::view): its number (links like
 *   `help/136`), state, tags, categories, its languages in the order they were written.
 * - `article_text`: one language of a PUBLISHED article (title and Editor.js document), under the
 *   article; readers sync these. Publishing writes them, unpublishing deletes them.
 * - `article_draft`: one language as its authors are writing it, under the article; only who may
 *   edit the help centre (helpcenter::edit) syncs these.
 *
 * One language per model keeps each write within the 64 KiB a request may carry.
 */

export { ARTICLE_TEXTS } from './article-texts';

export const ARTICLE_STATES = ['draft', 'published'] as const;

export { helpArticleField } from './help-article-field';
export type ArticleState = (typeof ARTICLE_STATES)[number];

export const ARTICLE_MAX_BLOCKS = 600;
export const LIST_MAX_DEPTH = 8;
export const LIST_MAX_ITEMS = 2000;
const INLINE_MAX = 20_000;

export interface ArticleListItem {
  readonly content: string;
  readonly items: readonly ArticleListItem[];
}

/** The blocks we write and read; others are kept as they came and shown as a quiet placeholder. */
export type ArticleBlock =
  | { readonly id: string; readonly type: 'paragraph'; readonly data: { readonly text: string } }
  | {
      readonly id: string;
      readonly type: 'header';
      readonly data: { readonly text: string; readonly level: number };
    }
  | {
      readonly id: string;
      readonly type: 'list';
      readonly data: {
        readonly style: 'ordered' | 'unordered';
        readonly items: readonly ArticleListItem[];
      };
    }
  | {
      readonly id: string;
      readonly type: 'image';
      readonly data: {
        /** The picture: a `file` model of the help centre (uploaded through the file path). */
        readonly file: { readonly file_id: string | null; readonly url: string | null };
        readonly caption: string;
        readonly withBorder: boolean;
        readonly stretched: boolean;
        readonly withBackground: boolean;
      };
    }
  | { readonly id: string; readonly type: 'unknown'; readonly data: { readonly type: string } };

/** An Editor.js 2.27 document as stored: `{ time, blocks, version }`. */
export interface ArticleDocument {
  readonly time: number;
  readonly blocks: readonly ArticleBlock[];
  readonly version: string;
}

export const EMPTY_DOCUMENT: ArticleDocument = { time: 0, blocks: [], version: '2.27.0' };

type Problem = { readonly problem: string };

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function inline(v: unknown): string | Problem {
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') return { problem: ARTICLE_TEXTS.blockInvalid };
  if (v.length > INLINE_MAX) return { problem: ARTICLE_TEXTS.blockInvalid };
  return sanitizeInline(v);
}

/**
 * A list's items (Editor.js list 1.x: strings; 2.x: `{ content, items }`), walked without
 * recursion so that a hostile depth cannot exhaust the stack; deeper than LIST_MAX_DEPTH or more
 * than LIST_MAX_ITEMS in all is refused.
 */
function listItems(raw: unknown): ArticleListItem[] | Problem {
  if (!Array.isArray(raw)) return { problem: ARTICLE_TEXTS.blockInvalid };
  const top: ArticleListItem[] = [];
  const work: { items: readonly unknown[]; into: ArticleListItem[]; depth: number }[] = [
    { items: raw, into: top, depth: 1 },
  ];
  let count = 0;
  while (work.length > 0) {
    const { items, into, depth } = work.pop()!;
    if (depth > LIST_MAX_DEPTH) return { problem: ARTICLE_TEXTS.listTooDeep };
    for (const item of items) {
      if (++count > LIST_MAX_ITEMS) return { problem: ARTICLE_TEXTS.listTooDeep };
      const content = inline(isRecord(item) ? item.content : item);
      if (typeof content !== 'string') return content;
      const children: ArticleListItem[] = [];
      into.push({ content, items: children });
      if (isRecord(item) && item.items !== undefined) {
        if (!Array.isArray(item.items)) return { problem: ARTICLE_TEXTS.blockInvalid };
        if (item.items.length > 0)
          work.push({ items: item.items, into: children, depth: depth + 1 });
      }
    }
  }
  return top;
}

function block(raw: unknown, index: number): ArticleBlock | Problem {
  if (!isRecord(raw) || typeof raw.type !== 'string' || raw.type.length > 40)
    return { problem: ARTICLE_TEXTS.blockInvalid };
  const id =
    typeof raw.id === 'string' && /^[A-Za-z0-9_-]{1,40}$/.test(raw.id) ? raw.id : `b${index}`;
  const data = isRecord(raw.data) ? raw.data : {};
  switch (raw.type) {
    case 'paragraph': {
      const text = inline(data.text);
      return typeof text === 'string' ? { id, type: 'paragraph', data: { text } } : text;
    }
    case 'header': {
      const text = inline(data.text);
      const level = typeof data.level === 'number' ? Math.round(data.level) : 2;
      if (typeof text !== 'string') return text;
      return { id, type: 'header', data: { text, level: Math.min(6, Math.max(1, level)) } };
    }
    case 'list': {
      const items = listItems(data.items);
      if (!Array.isArray(items)) return items;
      return {
        id,
        type: 'list',
        data: { style: data.style === 'ordered' ? 'ordered' : 'unordered', items },
      };
    }
    case 'image': {
      const file = isRecord(data.file) ? data.file : {};
      const fileId = idField.safeParse(file.file_id);
      const caption = inline(data.caption);
      if (typeof caption !== 'string') return caption;
      // Only a file of ours is shown; a URL is kept only when it is a plain http(s) one.
      const url =
        typeof file.url === 'string' && /^https?:\/\/[^\s"'<>]{1,2000}$/i.test(file.url)
          ? file.url
          : null;
      return {
        id,
        type: 'image',
        data: {
          file: { file_id: fileId.success ? fileId.data : null, url },
          caption,
          withBorder: data.withBorder === true,
          stretched: data.stretched === true,
          withBackground: data.withBackground === true,
        },
      };
    }
    default:
      // Kept by its type only: nothing of an unknown block is ever shown.
      return { id, type: 'unknown', data: { type: raw.type } };
  }
}

/**
 * Any value as a stored document, or the problem with it: blocks checked one by one, every
 * inline text through the allowlist (sanitizeInline), unknown blocks reduced to their type.
 */
export function normalizeDocument(raw: unknown): ArticleDocument | Problem {
  if (!isRecord(raw) || !Array.isArray(raw.blocks))
    return { problem: ARTICLE_TEXTS.documentInvalid };
  if (raw.blocks.length > ARTICLE_MAX_BLOCKS) return { problem: ARTICLE_TEXTS.tooManyBlocks };
  const blocks: ArticleBlock[] = [];
  for (const [index, item] of raw.blocks.entries()) {
    const normal = block(item, index);
    if ('problem' in normal) return normal;
    blocks.push(normal);
  }
  const time = typeof raw.time === 'number' && Number.isFinite(raw.time) ? Math.round(raw.time) : 0;
  const version =
    typeof raw.version === 'string' && /^[0-9.a-z-]{1,20}$/i.test(raw.version)
      ? raw.version
      : '2.27.0';
  return { time, blocks, version };
}

/** The document field: any JSON in, the normalised document out (or the problem, as an issue). */
export const articleDocumentField = /* @__PURE__ */ deferred(() =>
  z
    .unknown()
    .refine((v) => withinJsonBounds(v, 40, 50_000), ARTICLE_TEXTS.documentInvalid)
    .transform((value, ctx): ArticleDocument => {
      const normal = normalizeDocument(value);
      if ('problem' in normal) {
        ctx.addIssue({ code: 'custom', message: normal.problem });
        return z.NEVER;
      }
      return normal;
    }),
);

const languageField = /* @__PURE__ */ deferred(() => z.enum(LANGUAGES));

const wordList = (max: number) =>
  z
    .array(z.string().trim().min(1).max(40))
    .max(max)
    .default([])
    .transform((l) => [...new Set(l)]);

export const articleAttributesSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    /** The number of links like help/136: the server's, the next free one in the account. */
    number: z.number().int().positive().nullable().default(null),
    state: z.enum(ARTICLE_STATES).default('draft'),
    tags: wordList(20),
    categories: wordList(10),
    /** The languages written, the first the one it was written in (the reader's fallback). */
    languages: z
      .array(languageField)
      .max(LANGUAGES.length)
      .default([])
      .transform((l) => [...new Set(l)]),
    changed_by: z.string().nullable().default(null),
    changed_at: z.number().int().nullable().default(null),
  }),
);
export type ArticleAttributes = z.output<typeof articleAttributesSchema>;

export const articleModel = {
  type: 'article',
  collection: 'articles',
  parentType: 'account',
  attributes: articleAttributesSchema,
  permissions: viewEditPermissions('helpcenter::view', 'helpcenter::edit'),
  sortField: 'number',
  serverFields: ['number', 'changed_by', 'changed_at'],
} as const satisfies ModelDefinition<'article', typeof articleAttributesSchema>;

const textAttributes = /* @__PURE__ */ deferred(() =>
  z.object({
    article_id: idField,
    lang: languageField,
    title: z
      .string({ error: ARTICLE_TEXTS.titleRequired })
      .trim()
      .min(1, ARTICLE_TEXTS.titleRequired)
      .max(200, 'The title may not be longer than 200 characters'),
    content: articleDocumentField.default(EMPTY_DOCUMENT),
    changed_by: z.string().nullable().default(null),
    changed_at: z.number().int().nullable().default(null),
  }),
);
export type ArticleTextAttributes = z.output<typeof textAttributes>;

export const articleTextModel = {
  type: 'article_text',
  collection: 'article_texts',
  parentType: 'article',
  parentField: 'article_id',
  attributes: textAttributes,
  refs: { article_id: 'article' },
  permissions: viewEditPermissions('helpcenter::view', 'helpcenter::edit'),
  sortField: 'lang',
  fixed: ['article_id', 'lang'],
  serverFields: ['changed_by', 'changed_at'],
} as const satisfies ModelDefinition<'article_text', typeof textAttributes>;

/** An authors' draft may have no title yet (publishing asks for one). */
const draftAttributes = /* @__PURE__ */ deferred(() =>
  textAttributes.extend({
    title: z
      .string()
      .trim()
      .max(200, 'The title may not be longer than 200 characters')
      .default(''),
  }),
);

export const articleDraftModel = {
  type: 'article_draft',
  collection: 'article_drafts',
  parentType: 'article',
  parentField: 'article_id',
  attributes: draftAttributes,
  refs: { article_id: 'article' },
  permissions: viewEditPermissions('helpcenter::edit', 'helpcenter::edit'),
  sortField: 'lang',
  fixed: ['article_id', 'lang'],
  serverFields: ['changed_by', 'changed_at'],
} as const satisfies ModelDefinition<'article_draft', typeof draftAttributes>;

/**
 * The language a reader is shown: theirs (Plain reads English), else the article's first written
 * language that has a text, else any; `fallback` says it is not the reader's.
 */
/**
 * A stored document's blocks for a reader, each normalised on its own: a block that is not one of
 * ours, or breaks a bound (a list nested too deep), is null (shown as a quiet note) and the others
 * stay readable. Null when the content is no document at all. The app's renderer and the help
 * centre's host page both show what this answers.
 */
export function readableBlocks(content: unknown): (ArticleBlock | null)[] | null {
  if (typeof content !== 'object' || content === null) return null;
  const raw = (content as { blocks?: unknown }).blocks;
  if (!Array.isArray(raw)) return null;
  return raw.slice(0, ARTICLE_MAX_BLOCKS).map((block: unknown) => {
    const one = normalizeDocument({ blocks: [block] });
    return 'problem' in one ? null : (one.blocks[0] ?? null);
  });
}

/**
 * What a reader in `lang` is shown of an article: its published text in their language, else in
 * its first written one (`fallback`); an article not published shows only to authors, by its
 * drafts (`draft`). Undefined: nothing for this reader. The app's list, its article page and the
 * worker's list all choose by this.
 */
export function shownText<T extends { readonly attributes: { readonly lang: Language } }>(
  article: { readonly state: string; readonly languages: readonly Language[] },
  texts: readonly T[],
  drafts: readonly T[],
  lang: Language,
  author: boolean,
):
  | { readonly text: T | undefined; readonly fallback: boolean; readonly draft: boolean }
  | undefined {
  const isPublished = article.state === 'published' && texts.length > 0;
  if (!isPublished && !author) return undefined;
  const pool = isPublished ? texts : drafts;
  const shown = readerLanguage(
    lang,
    article.languages,
    pool.map((t) => t.attributes.lang),
  );
  const text = shown === undefined ? undefined : pool.find((t) => t.attributes.lang === shown.lang);
  return { text, fallback: shown?.fallback ?? false, draft: !isPublished };
}

export function readerLanguage(
  wanted: Language,
  written: readonly Language[],
  available: readonly Language[],
): { readonly lang: Language; readonly fallback: boolean } | undefined {
  const own: Language = wanted === 'plain' && !available.includes('plain') ? 'en' : wanted;
  if (available.includes(own)) return { lang: own, fallback: false };
  const first = written.find((l) => available.includes(l)) ?? available[0];
  return first === undefined ? undefined : { lang: first, fallback: true };
}

/** A document's words without markup, block by block (search, snippets, the worker's index). */
export function documentText(doc: ArticleDocument): string {
  const lines: string[] = [];
  const text = (html: string) => inlineText(parseInline(html));
  for (const b of doc.blocks) {
    if (b.type === 'paragraph' || b.type === 'header') lines.push(text(b.data.text));
    else if (b.type === 'image') lines.push(text(b.data.caption));
    else if (b.type === 'list') {
      const work = [...b.data.items];
      while (work.length > 0) {
        const item = work.shift()!;
        lines.push(text(item.content));
        work.unshift(...item.items);
      }
    }
  }
  return lines.filter((l) => l.length > 0).join('\n');
}
