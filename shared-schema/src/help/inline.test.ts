import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inlineText, parseInline, safeHref, sanitizeInline, type InlineNode } from './inline';

/** Every tag and attribute a tree can hold, as the serialiser writes them. */
function tagsOf(html: string): string[] {
  return [...html.matchAll(/<\/?([a-z]+)[^>]*>/g)].map((m) => m[0]);
}
const ALLOWED_TAG =
  /^(<b>|<\/b>|<i>|<\/i>|<br>|<code class="inline-code">|<\/code>|<mark class="cdx-marker">|<\/mark>|<a href="[^"<>]*">|<\/a>)$/;

function hrefs(nodes: readonly InlineNode[]): string[] {
  return nodes.flatMap((n) =>
    n.kind === 'a' ? [n.href, ...hrefs(n.children)] : 'children' in n ? hrefs(n.children) : [],
  );
}

describe('inline markup of articles', () => {
  it('keeps what Editor.js writes: bold, italic, links, code, marker, line breaks', () => {
    const written =
      'A <b>bold</b> and <i>italic</i> <a href="https://example.com/a?b=1&amp;c=2">link</a>, ' +
      '<code class="inline-code">npm start</code>, <mark class="cdx-marker">marked</mark><br>next';
    expect(sanitizeInline(written)).toBe(written);
    expect(sanitizeInline('<strong>s</strong> <em>e</em>')).toBe('<b>s</b> <i>e</i>');
    expect(sanitizeInline('<a href="mailto:service@example.com">mail</a>')).toBe(
      '<a href="mailto:service@example.com">mail</a>',
    );
    expect(sanitizeInline('see <a href="help/136">the tag table</a>')).toBe(
      'see <a href="help/136">the tag table</a>',
    );
  });

  it('drops scripts, handlers, styles and dangerous links; text stays text', () => {
    const hostile = [
      '<script>alert(1)</script>',
      '<img src=x onerror="alert(1)">',
      '<a href="javascript:alert(1)">x</a>',
      '<a href="JaVaScRiPt&colon;alert(1)">x</a>',
      '<a href="java\tscript:alert(1)">x</a>',
      '<a href="&#106;avascript:alert(1)">x</a>',
      '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
      '<a href="vbscript:msgbox">x</a>',
      '<svg><script>alert(1)</script></svg>',
      '<svg onload=alert(1)>',
      '<b onclick="alert(1)" style="x">bold</b>',
      '<iframe src="https://evil.example"></iframe>',
      '<a href="https://ok.example" onmouseover="alert(1)">ok</a>',
      '<<script>script>alert(1)<</script>/script>',
      '<div><p>para</p></div>',
      '<style>*{display:none}</style>visible',
    ];
    for (const html of hostile) {
      const clean = sanitizeInline(html);
      for (const tag of tagsOf(clean)) expect(tag).toMatch(ALLOWED_TAG);
      expect(clean).not.toMatch(
        /javascript:|vbscript:|data:|onerror|onload|onclick|onmouseover|<script|<img|<svg|<iframe/i,
      );
      expect(hrefs(parseInline(html)).every((h) => /^(https?:|mailto:|help\/\d+$)/.test(h))).toBe(
        true,
      );
    }
    expect(sanitizeInline('<script>alert(1)</script>text')).toBe('text');
    expect(sanitizeInline('<a href="javascript:alert(1)">click</a>')).toBe('click');
    expect(sanitizeInline('1 < 2 & 3 > 2')).toBe('1 &lt; 2 &amp; 3 &gt; 2');
    expect(sanitizeInline('<div><p>para</p></div>')).toBe('para');
    expect(inlineText(parseInline('&lt;script&gt;x&lt;/script&gt;'))).toBe('<script>x</script>');
  });

  it('refuses link targets other than http, https, mailto and help/<number>', () => {
    expect(safeHref('https://example.com')).toBe('https://example.com/');
    expect(safeHref(' javascript:alert(1)')).toBeUndefined();
    expect(safeHref('data:image/svg+xml,<svg onload=alert(1)>')).toBeUndefined();
    expect(safeHref('//evil.example')).toBeUndefined();
    expect(safeHref('help/136')).toBe('help/136');
    expect(safeHref('help/136/../x')).toBeUndefined();
  });

  it('any string: allowlisted markup only, idempotent, and fast on hostile shapes', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[<>a-z ="'/&;#:!\-bi]{0,200}$/), (html) => {
        const clean = sanitizeInline(html);
        for (const tag of tagsOf(clean)) expect(tag).toMatch(ALLOWED_TAG);
        expect(sanitizeInline(clean)).toBe(clean);
      }),
      { numRuns: 400 },
    );
    // Unclosed tags and quotes by the thousand stay one pass over the text.
    const long = '<a "'.repeat(20_000) + '<b '.repeat(20_000) + '<script>'.repeat(5_000);
    expect(typeof sanitizeInline(long)).toBe('string');
    // Nesting is flattened past a depth no article needs.
    const deep = sanitizeInline('<b><i>'.repeat(5_000) + 'x');
    expect(deep.split('<b>').length - 1).toBeLessThanOrEqual(12);
  });
});
