/*
 * A text widget's small markdown subset (issue 31 item 2), parsed into a tree that the widget
 * renders as React elements: never HTML. Blocks: headings (#, ##, ###), paragraphs (lines
 * joined), bullet lists (- or *), numbered lists (1.). Inline: **bold**, *italic* or _italic_,
 * `code`, [links](https://…) whose target is http(s), mailto or a path of this site; any other
 * target stays plain text. Everything else is text as typed (a `<b>` shows as `<b>`).
 */

export type Inline =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'strong' | 'em'; readonly children: readonly Inline[] }
  | { readonly kind: 'code'; readonly text: string }
  | { readonly kind: 'link'; readonly href: string; readonly children: readonly Inline[] };

export type Block =
  | { readonly kind: 'heading'; readonly level: 1 | 2 | 3; readonly children: readonly Inline[] }
  | { readonly kind: 'paragraph'; readonly children: readonly Inline[] }
  | { readonly kind: 'list'; readonly ordered: boolean; readonly items: readonly Inline[][] };

/** A link target the widget may follow: http(s), mailto, or a path of this site. */
export function safeHref(href: string): string | null {
  const h = href.trim();
  if (/^(https?:|mailto:)/i.test(h)) {
    try {
      return new URL(h).href;
    } catch {
      return null;
    }
  }
  // A path of this site, not a protocol-relative address (//host) or a backslash trick.
  if (/^\/(?![/\\])[^\s]*$/.test(h)) return h;
  return null;
}

/** The inline marks of one run of text. */
export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  let plain = '';
  const flush = () => {
    if (plain !== '') out.push({ kind: 'text', text: plain });
    plain = '';
  };
  let i = 0;
  while (i < text.length) {
    const rest = text.slice(i);
    let m: RegExpMatchArray | null;
    if ((m = /^`([^`]+)`/.exec(rest)) !== null) {
      flush();
      out.push({ kind: 'code', text: m[1] ?? '' });
      i += m[0].length;
    } else if ((m = /^\*\*(.+?)\*\*/.exec(rest)) !== null) {
      flush();
      out.push({ kind: 'strong', children: parseInline(m[1] ?? '') });
      i += m[0].length;
    } else if ((m = /^([*_])(?!\s)(.+?)(?<!\s)\1/.exec(rest)) !== null) {
      flush();
      out.push({ kind: 'em', children: parseInline(m[2] ?? '') });
      i += m[0].length;
    } else if ((m = /^\[([^\]]+)\]\(([^)\s]+)\)/.exec(rest)) !== null) {
      const href = safeHref(m[2] ?? '');
      if (href === null) {
        plain += m[0];
      } else {
        flush();
        out.push({ kind: 'link', href, children: parseInline(m[1] ?? '') });
      }
      i += m[0].length;
    } else {
      plain += text[i];
      i += 1;
    }
  }
  flush();
  return out;
}

/** The blocks of a text. */
export function parseMarkdown(source: string): Block[] {
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  let list: { ordered: boolean; items: Inline[][] } | null = null;
  const endParagraph = () => {
    if (paragraph.length > 0) {
      blocks.push({ kind: 'paragraph', children: parseInline(paragraph.join(' ')) });
    }
    paragraph = [];
  };
  const endList = () => {
    if (list !== null) blocks.push({ kind: 'list', ordered: list.ordered, items: list.items });
    list = null;
  };
  for (const raw of source.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.trim();
    let m: RegExpMatchArray | null;
    if (line === '') {
      endParagraph();
      endList();
    } else if ((m = /^(#{1,3})\s+(.*)$/.exec(line)) !== null) {
      endParagraph();
      endList();
      const level = (m[1]?.length ?? 1) as 1 | 2 | 3;
      blocks.push({ kind: 'heading', level, children: parseInline(m[2] ?? '') });
    } else if ((m = /^(?:([-*])|(\d{1,3})[.)])\s+(.*)$/.exec(line)) !== null) {
      endParagraph();
      const ordered = m[2] !== undefined;
      if (list !== null && (list as { ordered: boolean }).ordered !== ordered) endList();
      list ??= { ordered, items: [] };
      list.items.push(parseInline(m[3] ?? ''));
    } else {
      endList();
      paragraph.push(line);
    }
  }
  endParagraph();
  endList();
  return blocks;
}
