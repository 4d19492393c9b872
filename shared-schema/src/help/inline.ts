/**
 * The inline markup of an article's text (DESIGN.md §14): what Editor.js 2.27 writes inside a
 * paragraph, a header, a list item or a caption, limited to an allowlist: bold, italic, links
 * (http, https, mailto, and `help/<number>` to another article), inline code, marker and line
 * breaks. `parseInline` turns any string into that tree, dropping every other tag (the text of
 * most is kept; that of script, style and the like is not) and every attribute but a link's
 * href; `sanitizeInline` writes the tree back as the markup Editor.js reads. The server stores
 * only what `sanitizeInline` gave (the schema's transform), and the reader renders the tree as
 * React elements, parsing again: no HTML string reaches a page.
 */

export type InlineNode =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'br' }
  | { readonly kind: 'b' | 'i' | 'code' | 'mark'; readonly children: InlineNode[] }
  | { readonly kind: 'a'; readonly href: string; readonly children: InlineNode[] };

/** Deeper markup is flattened into its parent: nothing real nests this far. */
export const INLINE_MAX_DEPTH = 12;

const SIMPLE: Readonly<Record<string, 'b' | 'i' | 'code' | 'mark'>> = {
  b: 'b',
  strong: 'b',
  i: 'i',
  em: 'i',
  code: 'code',
  mark: 'mark',
};

/** Elements whose content is not text for a reader: dropped with it. */
const DROPPED_WITH_CONTENT = new Set([
  'script',
  'style',
  'template',
  'iframe',
  'object',
  'embed',
  'svg',
  'math',
  'textarea',
  'title',
  'noscript',
  'noembed',
  'noframes',
  'xmp',
  'plaintext',
  'select',
]);

const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  shy: '\u00ad',
};

/** Text with its character references decoded (unknown ones stay as written). */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,8});?/gi, (whole, ref: string) => {
    if (ref.startsWith('#')) {
      const code =
        ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : Number(ref.slice(1));
      // NUL, surrogates and beyond Unicode become the replacement character, as browsers do.
      if (
        !Number.isFinite(code) ||
        code === 0 ||
        code > 0x10ffff ||
        (code >= 0xd800 && code <= 0xdfff)
      )
        return '\ufffd';
      return String.fromCodePoint(code);
    }
    return NAMED_ENTITIES[ref.toLowerCase()] ?? whole;
  });
}

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapeAttribute(text: string): string {
  return escapeText(text).replace(/"/g, '&quot;');
}

/**
 * A link target a reader may follow: http, https or mailto, or `help/<number>` (another article).
 * Whitespace and control characters are removed first (browsers ignore them inside a scheme:
 * `java\tscript:` is `javascript:`). Anything else: undefined.
 */
export function safeHref(raw: string): string | undefined {
  const cleaned = decodeEntities(raw).replace(
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u0020\u007f-\u009f\u00ad\u200b-\u200f\u2028\u2029\ufeff]/g,
    '',
  );
  if (cleaned.length === 0 || cleaned.length > 2000) return undefined;
  if (/^help\/\d{1,9}$/.test(cleaned)) return cleaned;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(cleaned)?.[1]?.toLowerCase();
  if (scheme === 'mailto') return cleaned;
  if (scheme !== 'http' && scheme !== 'https') return undefined;
  try {
    const url = new URL(cleaned);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function hrefOf(attributes: string): string | undefined {
  const match = /(?:^|\s)href\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/i.exec(attributes);
  if (match === null) return undefined;
  return safeHref(match[1] ?? match[2] ?? match[3] ?? '');
}

interface Open {
  readonly tag: string;
  readonly node: InlineNode & { children: InlineNode[] };
}

/** Any string as the allowlisted tree (never throws; one pass over the text). */
export function parseInline(html: string): InlineNode[] {
  const root: InlineNode[] = [];
  const stack: Open[] = [];
  const children = () => stack.at(-1)?.node.children ?? root;
  const addText = (text: string) => {
    if (text.length === 0) return;
    const list = children();
    const last = list.at(-1);
    const decoded = decodeEntities(text);
    if (last?.kind === 'text') list[list.length - 1] = { kind: 'text', text: last.text + decoded };
    else list.push({ kind: 'text', text: decoded });
  };
  const tagName = /<(\/?)([a-zA-Z][a-zA-Z0-9-]*)/y;
  const n = html.length;
  let textStart = 0;
  let i = 0;
  while (i < n) {
    const lt = html.indexOf('<', i);
    if (lt < 0) break;
    const next = html[lt + 1];
    if (next === '!' || next === '?') {
      // A comment, a doctype or a processing instruction: dropped.
      addText(html.slice(textStart, lt));
      const end = html.startsWith('<!--', lt) ? html.indexOf('-->', lt + 4) : html.indexOf('>', lt);
      i = textStart = end < 0 ? n : end + (html.startsWith('<!--', lt) ? 3 : 1);
      continue;
    }
    tagName.lastIndex = lt;
    const match = tagName.exec(html);
    if (match === null) {
      i = lt + 1; // a '<' that starts no tag is text
      continue;
    }
    // The tag ends at the first '>' outside quotes; none: the rest is text.
    let j = lt + match[0].length;
    let quote: string | undefined;
    for (; j < n; j++) {
      const c = html[j];
      if (quote !== undefined) {
        if (c === quote) quote = undefined;
      } else if (c === '"' || c === "'") quote = c;
      else if (c === '>') break;
    }
    if (j >= n) break;
    addText(html.slice(textStart, lt));
    i = textStart = j + 1;
    const name = match[2]!.toLowerCase();
    const closing = match[1] === '/';
    if (!closing && DROPPED_WITH_CONTENT.has(name)) {
      // Skip to its end tag (or the end of the text).
      const end = new RegExp(`</${name}\\s*>`, 'gi');
      end.lastIndex = i;
      const found = end.exec(html);
      i = textStart = found === null ? n : found.index + found[0].length;
      continue;
    }
    if (name === 'br') {
      if (!closing) children().push({ kind: 'br' });
      continue;
    }
    const kind = name === 'a' ? 'a' : SIMPLE[name];
    if (closing) {
      const index = stack.findLastIndex((o) => o.tag === name);
      if (index >= 0) stack.length = index;
      continue;
    }
    if (kind === undefined || stack.length >= INLINE_MAX_DEPTH) continue;
    let node: Open['node'];
    if (kind === 'a') {
      const href = hrefOf(html.slice(lt + match[0].length, j));
      // A link to nowhere safe: its text stays, the link goes (its end tag closes nothing).
      if (href === undefined) continue;
      node = { kind: 'a', href, children: [] };
    } else node = { kind, children: [] };
    children().push(node);
    stack.push({ tag: name, node });
  }
  addText(html.slice(textStart));
  return root;
}

const OPEN_TAG: Readonly<Record<'b' | 'i' | 'code' | 'mark', string>> = {
  b: '<b>',
  i: '<i>',
  code: '<code class="inline-code">',
  mark: '<mark class="cdx-marker">',
};

/** The tree as the markup Editor.js reads (escaped text, allowlisted tags only). */
export function serializeInline(nodes: readonly InlineNode[]): string {
  let out = '';
  for (const node of nodes) {
    if (node.kind === 'text') out += escapeText(node.text);
    else if (node.kind === 'br') out += '<br>';
    else if (node.kind === 'a')
      out += `<a href="${escapeAttribute(node.href)}">${serializeInline(node.children)}</a>`;
    else out += `${OPEN_TAG[node.kind]}${serializeInline(node.children)}</${node.kind}>`;
  }
  return out;
}

/** Any string as allowlisted markup: what the server stores. Idempotent. */
export function sanitizeInline(html: string): string {
  return serializeInline(parseInline(html));
}

/** The tree's text without markup (search, snippets, titles). */
export function inlineText(nodes: readonly InlineNode[]): string {
  let out = '';
  for (const node of nodes) {
    if (node.kind === 'text') out += node.text;
    else if (node.kind === 'br') out += '\n';
    else out += inlineText(node.children);
  }
  return out;
}
