/**
 * SVG pictures of machines and lines (issue 37 item 4: process diagrams), limited to an allowlist
 * that draws and nothing else: shapes, paths, text, groups, gradients, patterns, clip paths,
 * markers, symbols and `use`. `parseSvg` reads any string with a small XML tokenizer of its own
 * (no DOM: the server runs it too) into a tree of allowlisted elements and attributes;
 * `serializeSvg` writes that tree back, every name from the allowlist and every value escaped, so
 * nothing of the input reaches the output unparsed. `sanitizeSvg` is the two together and says
 * what it removed, for the upload screen.
 *
 * Removed: script, style, foreignObject and every element not listed (with everything inside),
 * event handlers and every attribute not listed, every `href` that is not a local `#id`, every
 * `url(…)` that is not `url(#id)`, CSS escapes, DOCTYPE and ENTITY declarations (entities are
 * never expanded: an unknown reference stays text), processing instructions, comments, text
 * outside text elements. Names match case-insensitively and are written in their SVG spelling,
 * so `<SCRIPT>` is a script for this code as it would be for an HTML parser. Idempotent: what
 * it gives, sanitised again, stays the same (a property test).
 */

export const SVG_LIMITS = {
  /** Input longer than this is cut (the schema refuses it before). */
  inputChars: 1_000_000,
  /** Deeper elements are dropped with their content. */
  depth: 40,
  /** Elements past this many are dropped. */
  elements: 5_000,
  /**
   * What `use` may draw in all: the elements under its targets, summed over every `use` (a
   * `use` of a group of `use`s multiplies, so a `use` may not point at one: no `use` bombs).
   */
  useClones: 20_000,
  /** Distinct entries of the removal report. */
  removals: 50,
} as const;

export const SVG_ELEMENTS = [
  'svg',
  'g',
  'defs',
  'rect',
  'circle',
  'ellipse',
  'line',
  'polyline',
  'polygon',
  'path',
  'text',
  'tspan',
  'title',
  'desc',
  'linearGradient',
  'radialGradient',
  'stop',
  'symbol',
  'use',
  'clipPath',
  'marker',
  'pattern',
] as const;
export type SvgElementName = (typeof SVG_ELEMENTS)[number];

/** The elements whose text is kept (drawn, or read out). Other text is dropped silently. */
export const SVG_TEXT_ELEMENTS: ReadonlySet<string> = new Set(['text', 'tspan', 'title', 'desc']);

export type SvgNode = SvgElement | SvgText;

export interface SvgElement {
  readonly kind: 'element';
  readonly name: SvgElementName;
  /** Allowlisted attributes in their SVG spelling, values decoded (`&amp;` is `&`). */
  readonly attributes: Readonly<Record<string, string>>;
  readonly children: readonly SvgNode[];
}

export interface SvgText {
  readonly kind: 'text';
  readonly text: string;
}

/**
 * What the sanitiser removed, by kind and name (as written in the input, at most 40 characters),
 * with how often. The upload screen words it.
 */
export const SVG_REMOVAL_KINDS = [
  /** An element, with everything inside it. */
  'element',
  /** An attribute not allowed (an event handler among them), or one with an unsafe value. */
  'attribute',
  /** A reference to something outside the picture: an href or a url(). */
  'link',
  /** A property of a `style` attribute not allowed. */
  'style',
  'comment',
  /** A DOCTYPE, ENTITY or other `<!…>` declaration. */
  'declaration',
  /** A processing instruction (`<?xml-stylesheet …?>`). */
  'instruction',
  /** Markup that does not end: a tag or a quote left open to the end of the input. */
  'malformed',
  /** Past a limit: `depth`, `elements`, `use` or `size`. */
  'limit',
] as const;
export type SvgRemovalKind = (typeof SVG_REMOVAL_KINDS)[number];

export interface SvgRemoval {
  readonly kind: SvgRemovalKind;
  readonly name: string;
  readonly count: number;
}

export interface SvgParse {
  /** The picture's root `svg` element; null when the input holds none. */
  readonly root: SvgElement | null;
  readonly removed: readonly SvgRemoval[];
}

type AttributeKind =
  'id' | 'class' | 'href' | 'style' | 'css' | 'number' | 'list' | 'path' | 'transform' | 'keyword';

/**
 * The presentation properties: allowed as attributes and inside `style`, their values checked as
 * CSS (colours, numbers, keywords, font names, local `url(#id)`).
 */
const PRESENTATION = [
  'fill',
  'fill-opacity',
  'fill-rule',
  'stroke',
  'stroke-width',
  'stroke-opacity',
  'stroke-linecap',
  'stroke-linejoin',
  'stroke-miterlimit',
  'stroke-dasharray',
  'stroke-dashoffset',
  'opacity',
  'visibility',
  'display',
  'color',
  'clip-path',
  'clip-rule',
  'marker-start',
  'marker-mid',
  'marker-end',
  'stop-color',
  'stop-opacity',
  'vector-effect',
  'shape-rendering',
  'text-rendering',
  'paint-order',
  'overflow',
  'text-anchor',
  'dominant-baseline',
  'alignment-baseline',
  'baseline-shift',
  'font-family',
  'font-size',
  'font-style',
  'font-weight',
  'font-variant',
  'font-stretch',
  'letter-spacing',
  'word-spacing',
  'text-decoration',
  'writing-mode',
] as const;
const PRESENTATION_SET: ReadonlySet<string> = new Set(PRESENTATION);

const ATTRIBUTES: Readonly<Record<string, AttributeKind>> = {
  id: 'id',
  class: 'class',
  href: 'href',
  style: 'style',
  ...Object.fromEntries(PRESENTATION.map((name) => [name, 'css' as const])),
  ...Object.fromEntries(
    [
      'x',
      'y',
      'width',
      'height',
      'x1',
      'y1',
      'x2',
      'y2',
      'cx',
      'cy',
      'r',
      'rx',
      'ry',
      'fx',
      'fy',
      'fr',
      'dx',
      'dy',
      'rotate',
      'textLength',
      'pathLength',
      'offset',
      'refX',
      'refY',
      'markerWidth',
      'markerHeight',
      'orient',
      'version',
    ].map((name) => [name, 'number' as const]),
  ),
  viewBox: 'list',
  points: 'list',
  d: 'path',
  transform: 'transform',
  gradientTransform: 'transform',
  patternTransform: 'transform',
  ...Object.fromEntries(
    [
      'preserveAspectRatio',
      'gradientUnits',
      'patternUnits',
      'patternContentUnits',
      'clipPathUnits',
      'markerUnits',
      'spreadMethod',
      'lengthAdjust',
      'xml:space',
    ].map((name) => [name, 'keyword' as const]),
  ),
};

const ELEMENT_SET: ReadonlySet<string> = new Set(SVG_ELEMENTS);
const ELEMENT_BY_LOWER: ReadonlyMap<string, SvgElementName> = new Map(
  SVG_ELEMENTS.map((name) => [name.toLowerCase(), name]),
);
const ATTRIBUTE_BY_LOWER: ReadonlyMap<string, string> = new Map([
  ...Object.keys(ATTRIBUTES).map((name): [string, string] => [name.toLowerCase(), name]),
  // SVG 2 reads a plain href; the xlink one is written as that.
  ['xlink:href', 'href'],
]);

/** An element id as the diagrams use it: safe inside `#…` and `url(#…)` without escaping. */
export const SVG_ID_PATTERN = /^[A-Za-z_][A-Za-z0-9_.-]{0,99}$/;
const LOCAL_REF = /^#[A-Za-z_][A-Za-z0-9_.-]{0,99}$/;
const LOCAL_URL = /url\(\s*(["']?)#[A-Za-z_][A-Za-z0-9_.-]{0,99}\1\s*\)/gi;
const CSS_CHARS = /^[\w\s#%.,+\-()'"!]*$/;
const COLOR_FUNCTIONS: ReadonlySet<string> = new Set(['rgb', 'rgba', 'hsl', 'hsla', 'url']);
const TRANSFORM_FUNCTIONS: ReadonlySet<string> = new Set([
  'matrix',
  'translate',
  'scale',
  'rotate',
  'skewx',
  'skewy',
]);
const NUMBER_CHARS = /^[\w\s.,%+-]*$/;
const LIST_CHARS = /^[0-9eE\s.,+-]*$/;
const PATH_CHARS = /^[MmLlHhVvCcSsQqTtAaZz0-9eE\s.,+-]*$/;
const TRANSFORM_CHARS = /^[A-Za-z0-9\s.,+\-()]*$/;
const KEYWORD_CHARS = /^[A-Za-z\s-]*$/;
const CLASS_CHARS = /^[\w\s-]{0,200}$/;
/** Characters XML does not allow (and NUL, which the database refuses): dropped from text. */
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

/** Whether every `name(` in a value is one of `allowed`, and every `(` belongs to one. */
function onlyFunctions(value: string, allowed: ReadonlySet<string>): boolean {
  let named = 0;
  for (const match of value.matchAll(/([A-Za-z][A-Za-z0-9-]*)\s*\(/g)) {
    if (!allowed.has(match[1]!.toLowerCase())) return false;
    named += 1;
  }
  let open = 0;
  let depth = 0;
  for (const c of value) {
    if (c === '(') {
      open += 1;
      depth += 1;
    } else if (c === ')') {
      depth -= 1;
      if (depth < 0) return false;
    }
  }
  return open === named && depth === 0;
}

type Checked = { readonly value: string } | { readonly refused: 'attribute' | 'link' };

/** A CSS value as a presentation attribute or a style property takes it. */
function checkCss(raw: string): Checked {
  const value = raw.trim();
  if (value.length > 2_000 || !CSS_CHARS.test(value)) {
    // An outside url() with characters we never allow is still a link to the user.
    return { refused: /url\s*\(/i.test(value) ? 'link' : 'attribute' };
  }
  const quotes = (q: string) => value.split(q).length % 2 === 1;
  if (!quotes("'") || !quotes('"')) return { refused: 'attribute' };
  const rest = value.replace(LOCAL_URL, 'local');
  if (/url\s*\(/i.test(rest)) return { refused: 'link' };
  if (!onlyFunctions(rest, COLOR_FUNCTIONS)) return { refused: 'attribute' };
  return { value };
}

/** One attribute's value, checked for its kind: kept (maybe rewritten) or refused. */
function checkValue(kind: Exclude<AttributeKind, 'style'>, raw: string): Checked {
  switch (kind) {
    case 'id':
      return SVG_ID_PATTERN.test(raw.trim()) ? { value: raw.trim() } : { refused: 'attribute' };
    case 'class':
      return CLASS_CHARS.test(raw) ? { value: raw.trim() } : { refused: 'attribute' };
    case 'href': {
      // Browsers ignore whitespace and controls inside a URL's scheme: so does the check.
      // eslint-disable-next-line no-control-regex
      const cleaned = raw.replace(/[\u0000-\u0020\u007f-\u009f]/g, '');
      return LOCAL_REF.test(cleaned) ? { value: cleaned } : { refused: 'link' };
    }
    case 'css':
      return checkCss(raw);
    case 'number':
      return raw.length <= 200 && NUMBER_CHARS.test(raw)
        ? { value: raw.trim() }
        : { refused: 'attribute' };
    case 'list':
      return LIST_CHARS.test(raw) ? { value: raw.trim() } : { refused: 'attribute' };
    case 'path':
      return PATH_CHARS.test(raw) ? { value: raw.trim() } : { refused: 'attribute' };
    case 'transform':
      return TRANSFORM_CHARS.test(raw) && onlyFunctions(raw, TRANSFORM_FUNCTIONS)
        ? { value: raw.trim() }
        : { refused: 'attribute' };
    case 'keyword':
      return raw.length <= 100 && KEYWORD_CHARS.test(raw)
        ? { value: raw.trim() }
        : { refused: 'attribute' };
    default: {
      const never: never = kind;
      return never;
    }
  }
}

/** Collects the removal report: each kind and name once, counted. */
class Removals {
  private readonly entries = new Map<
    string,
    { kind: SvgRemovalKind; name: string; count: number }
  >();

  add(kind: SvgRemovalKind, name: string): void {
    const shown = name.length > 40 ? `${name.slice(0, 39)}…` : name;
    const key = `${kind} ${shown}`;
    const entry = this.entries.get(key);
    if (entry !== undefined) entry.count += 1;
    else if (this.entries.size < SVG_LIMITS.removals)
      this.entries.set(key, { kind, name: shown, count: 1 });
  }

  list(): SvgRemoval[] {
    return [...this.entries.values()].map((e) => ({ ...e }));
  }
}

/** A `style` attribute's declarations, each allowlisted and checked; null when none is left. */
function checkStyle(raw: string, removed: Removals): string | null {
  const kept: string[] = [];
  for (const part of raw.split(';')) {
    if (part.trim() === '') continue;
    const colon = part.indexOf(':');
    const property = (colon < 0 ? part : part.slice(0, colon)).trim().toLowerCase();
    if (colon < 0 || !PRESENTATION_SET.has(property)) {
      removed.add('style', property);
      continue;
    }
    const checked = checkCss(part.slice(colon + 1));
    if ('refused' in checked) {
      removed.add(checked.refused === 'link' ? 'link' : 'style', property);
      continue;
    }
    if (checked.value !== '') kept.push(`${property}:${checked.value}`);
  }
  return kept.length === 0 ? null : kept.join(';');
}

/** Decodes XML's five named references and character references; others stay as written. */
function decode(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(
    /&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|lt|gt|amp|quot|apos);/gi,
    (whole, ref: string) => {
      if (ref.startsWith('#')) {
        const code =
          ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : Number(ref.slice(1));
        if (
          !Number.isFinite(code) ||
          code === 0 ||
          code > 0x10ffff ||
          (code >= 0xd800 && code <= 0xdfff)
        )
          return '\ufffd';
        return String.fromCodePoint(code);
      }
      switch (ref) {
        case 'lt':
          return '<';
        case 'gt':
          return '>';
        case 'amp':
          return '&';
        case 'quot':
          return '"';
        case 'apos':
          return "'";
        default:
          // Named references are case-sensitive in XML: `&LT;` is no reference.
          return whole;
      }
    },
  );
}

interface MutableElement {
  readonly kind: 'element';
  readonly name: SvgElementName;
  readonly attributes: Record<string, string>;
  readonly children: SvgNode[];
}

interface Frame {
  /** The tag as written, lower-cased: what its end tag must say. */
  readonly tag: string;
  /** Null while inside something dropped. */
  readonly element: MutableElement | null;
}

const NAME = /[^\s=/>"'<]+/y;
const WHITESPACE = /\s*/y;

function readName(input: string, at: number): string {
  NAME.lastIndex = at;
  return NAME.exec(input)?.[0] ?? '';
}

function skipSpace(input: string, at: number): number {
  WHITESPACE.lastIndex = at;
  WHITESPACE.exec(input);
  return WHITESPACE.lastIndex;
}

interface Tag {
  readonly name: string;
  readonly attributes: readonly (readonly [string, string])[];
  readonly selfClosing: boolean;
  /** Where the input goes on after the tag. */
  readonly end: number;
}

/**
 * A start tag from `<` at `at`: its name, its attributes as written (values decoded), and where
 * it ends. Undefined when a quote or the tag stays open to the end of the input.
 */
function readStartTag(input: string, at: number): Tag | undefined {
  const name = readName(input, at + 1);
  const attributes: [string, string][] = [];
  let i = at + 1 + name.length;
  const n = input.length;
  for (;;) {
    i = skipSpace(input, i);
    if (i >= n) return undefined;
    const c = input[i];
    if (c === '>') return { name, attributes, selfClosing: false, end: i + 1 };
    if (c === '/' && input[i + 1] === '>')
      return { name, attributes, selfClosing: true, end: i + 2 };
    // A tag broken off by the next one: it ends here, the next is read as a tag.
    if (c === '<') return { name, attributes, selfClosing: false, end: i };
    const attribute = readName(input, i);
    if (attribute === '') {
      i += 1; // a stray quote, slash or equals sign
      continue;
    }
    i = skipSpace(input, i + attribute.length);
    if (input[i] !== '=') {
      attributes.push([attribute, '']);
      continue;
    }
    i = skipSpace(input, i + 1);
    const quote = input[i];
    let raw: string;
    if (quote === '"' || quote === "'") {
      const close = input.indexOf(quote, i + 1);
      if (close < 0) return undefined;
      raw = input.slice(i + 1, close);
      i = close + 1;
    } else {
      let j = i;
      while (j < n && !/[\s>]/.test(input[j]!)) j += 1;
      if (input[j - 1] === '/' && input[j] === '>') j -= 1;
      raw = input.slice(i, j);
      i = j;
    }
    // XML's attribute value normalisation: a literal tab or newline is a space.
    attributes.push([attribute, decode(raw.replace(/[\t\n]/g, ' '))]);
  }
}

/** Where a `<!DOCTYPE …>` (with an internal subset in brackets) or other `<!…>` ends. */
function declarationEnd(input: string, at: number): number {
  let quote: string | undefined;
  let brackets = 0;
  for (let i = at + 2; i < input.length; i++) {
    const c = input[i];
    if (quote !== undefined) {
      if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '[') brackets += 1;
    else if (c === ']') brackets = Math.max(0, brackets - 1);
    else if (c === '>' && brackets === 0) return i + 1;
  }
  return input.length;
}

/** Keeps the allowlisted attributes of one element, checked. */
function keptAttributes(
  written: readonly (readonly [string, string])[],
  removed: Removals,
): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, rawValue] of written) {
    const lower = name.toLowerCase();
    // Namespace declarations carry nothing drawn; the root gets its own.
    if (lower === 'xmlns' || lower.startsWith('xmlns:')) continue;
    const canonical = ATTRIBUTE_BY_LOWER.get(lower);
    if (canonical === undefined) {
      removed.add('attribute', name);
      continue;
    }
    // The first of two wins (`href` and `xlink:href` are one attribute here).
    if (Object.hasOwn(kept, canonical)) continue;
    const value = rawValue.replace(NOT_XML, '');
    const kind = ATTRIBUTES[canonical]!;
    if (kind === 'style') {
      const style = checkStyle(value, removed);
      if (style !== null) kept[canonical] = style;
      continue;
    }
    const checked = checkValue(kind, value);
    if ('refused' in checked) removed.add(checked.refused, name);
    else kept[canonical] = checked.value;
  }
  return kept;
}

/**
 * Any string as the allowlisted tree (never throws; one pass over the input, then one over the
 * tree for `use`).
 */
export function parseSvg(markup: string): SvgParse {
  const removed = new Removals();
  let input = markup;
  if (input.length > SVG_LIMITS.inputChars) {
    input = input.slice(0, SVG_LIMITS.inputChars);
    removed.add('limit', 'size');
  }
  // XML's end-of-line handling.
  input = input.replace(/\r\n?/g, '\n');
  const n = input.length;
  let root: MutableElement | null = null;
  let rootClosed = false;
  let elements = 0;
  const stack: Frame[] = [];
  const addText = (text: string) => {
    const top = stack.at(-1)?.element;
    if (top === null || top === undefined || !SVG_TEXT_ELEMENTS.has(top.name)) return;
    const clean = text.replace(NOT_XML, '');
    if (clean === '') return;
    const last = top.children.at(-1);
    if (last?.kind === 'text')
      top.children[top.children.length - 1] = { kind: 'text', text: last.text + clean };
    else top.children.push({ kind: 'text', text: clean });
  };
  let i = 0;
  while (i < n) {
    const lt = input.indexOf('<', i);
    if (lt < 0) {
      addText(decode(input.slice(i)));
      break;
    }
    if (lt > i) addText(decode(input.slice(i, lt)));
    if (input.startsWith('<!--', lt)) {
      const end = input.indexOf('-->', lt + 4);
      removed.add('comment', 'comment');
      i = end < 0 ? n : end + 3;
      continue;
    }
    if (input.startsWith('<![CDATA[', lt)) {
      const end = input.indexOf(']]>', lt + 9);
      addText(input.slice(lt + 9, end < 0 ? n : end));
      i = end < 0 ? n : end + 3;
      continue;
    }
    if (input[lt + 1] === '!') {
      removed.add('declaration', readName(input, lt + 2).toUpperCase() || '!');
      i = declarationEnd(input, lt);
      continue;
    }
    if (input[lt + 1] === '?') {
      const end = input.indexOf('?>', lt + 2);
      const target = readName(input, lt + 2);
      // The XML declaration says nothing drawn: dropped without a word.
      if (target.toLowerCase() !== 'xml') removed.add('instruction', target || '?');
      i = end < 0 ? n : end + 2;
      continue;
    }
    if (input[lt + 1] === '/') {
      const name = readName(input, lt + 2).toLowerCase();
      const close = input.indexOf('>', lt + 2);
      i = close < 0 ? n : close + 1;
      const index = stack.findLastIndex((f) => f.tag === name);
      if (index >= 0) {
        if (index === 0 && stack[0]?.element === root && root !== null) rootClosed = true;
        stack.length = index;
      }
      continue;
    }
    if (!/[A-Za-z_:]/.test(input[lt + 1] ?? '')) {
      addText('<'); // a '<' that starts no tag is text
      i = lt + 1;
      continue;
    }
    const tag = readStartTag(input, lt);
    if (tag === undefined) {
      removed.add('malformed', readName(input, lt + 1));
      break;
    }
    i = tag.end;
    const lower = tag.name.toLowerCase();
    const parent = stack.at(-1);
    let element: MutableElement | null = null;
    if (parent?.element === null) {
      // Inside something dropped: nothing more to say.
    } else {
      const canonical = ELEMENT_BY_LOWER.get(lower);
      if (parent === undefined && (root !== null || rootClosed || canonical !== 'svg')) {
        removed.add('element', tag.name);
      } else if (canonical === undefined) {
        removed.add('element', tag.name);
      } else if (stack.length >= SVG_LIMITS.depth) {
        removed.add('limit', 'depth');
      } else if (elements >= SVG_LIMITS.elements) {
        removed.add('limit', 'elements');
      } else {
        element = {
          kind: 'element',
          name: canonical,
          attributes: keptAttributes(tag.attributes, removed),
          children: [],
        };
        elements += 1;
        if (parent === undefined) root = element;
        else parent.element?.children.push(element);
      }
    }
    if (!tag.selfClosing) stack.push({ tag: lower, element });
    else if (parent === undefined && element !== null) rootClosed = true;
  }
  if (root === null) return { root: null, removed: removed.list() };
  return { root: boundedUses(root, removed), removed: removed.list() };
}

/**
 * The tree without `use`s that could multiply: one whose target holds a `use` is dropped, and
 * the elements all `use`s draw together stay within SVG_LIMITS.useClones (document order).
 */
function boundedUses(root: SvgElement, removed: Removals): SvgElement {
  const sizes = new Map<string, { size: number; hasUse: boolean }>();
  let uses = 0;
  const measure = (node: SvgElement): { size: number; hasUse: boolean } => {
    let size = 1;
    let hasUse = node.name === 'use';
    for (const child of node.children) {
      if (child.kind !== 'element') continue;
      const inner = measure(child);
      size += inner.size;
      hasUse ||= inner.hasUse;
    }
    if (node.name === 'use') uses += 1;
    const id = node.attributes.id;
    if (id !== undefined && !sizes.has(id)) sizes.set(id, { size, hasUse });
    return { size, hasUse };
  };
  measure(root);
  if (uses === 0) return root;
  let budget: number = SVG_LIMITS.useClones;
  const keep = (node: SvgElement): SvgElement => ({
    ...node,
    children: node.children.flatMap((child): SvgNode[] => {
      if (child.kind !== 'element') return [child];
      if (child.name === 'use') {
        const target = sizes.get((child.attributes.href ?? '').slice(1));
        if (target?.hasUse === true) {
          removed.add('link', 'use');
          return [];
        }
        const size = target?.size ?? 0;
        if (size > budget) {
          removed.add('limit', 'use');
          return [];
        }
        budget -= size;
      }
      return [keep(child)];
    }),
  });
  return keep(root);
}

function escapeText(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\r/g, '&#13;');
}

function escapeAttribute(text: string): string {
  return escapeText(text).replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\t/g, '&#9;');
}

function serializeElement(node: SvgElement, isRoot: boolean): string {
  if (!ELEMENT_SET.has(node.name)) return '';
  let out = `<${node.name}`;
  if (isRoot) out += ' xmlns="http://www.w3.org/2000/svg"';
  for (const [name, value] of Object.entries(node.attributes)) {
    // Only allowlisted names are written, whatever the tree was given.
    if (ATTRIBUTES[name] === undefined) continue;
    out += ` ${name}="${escapeAttribute(value)}"`;
  }
  const keepsText = SVG_TEXT_ELEMENTS.has(node.name);
  let inner = '';
  for (const child of node.children) {
    if (child.kind === 'text') {
      if (keepsText) inner += escapeText(child.text);
    } else if (ELEMENT_SET.has(child.name)) {
      inner += serializeElement(child, false);
    }
  }
  return inner === '' ? `${out}/>` : `${out}>${inner}</${node.name}>`;
}

/**
 * The tree as markup: the root with the SVG namespace, allowlisted names only, every value
 * escaped. A tree the page edited is sanitised again by whoever stores it.
 */
export function serializeSvg(root: SvgElement): string {
  return root.name === 'svg' ? serializeElement(root, true) : '';
}

export interface SvgSanitized {
  /** The clean markup; empty when the input holds no `svg` root element. */
  readonly svg: string;
  readonly removed: readonly SvgRemoval[];
}

/** Any string as allowlisted SVG markup, and what was removed. Idempotent. */
export function sanitizeSvg(markup: string): SvgSanitized {
  const { root, removed } = parseSvg(markup);
  return { svg: root === null ? '' : serializeSvg(root), removed };
}
