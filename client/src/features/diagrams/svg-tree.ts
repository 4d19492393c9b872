import type { SvgElement, SvgElementName, SvgNode } from '@plant/shared-schema';

/*
 * The picture of a process diagram as a tree (shared-schema's sanitised `SvgElement`), and what
 * the page does with it: React's names for its attributes, its ids made the page's own (prefixed,
 * so an element of an uploaded picture never takes an id of the app's), and the editor's changes
 * (a shape added, attributes set, an element removed), each answering a new tree. Pure: tested
 * without a browser.
 */

/** Where an element sits: the indexes of its ancestors' children, from the root's. */
export type SvgPath = readonly number[];

/** The prefix every id of the picture gets on the page. */
export const ID_PREFIX = 'dg-';

/** The SVG attributes whose names React spells otherwise. */
const REACT_NAMES: Readonly<Record<string, string>> = {
  class: 'className',
  'xml:space': 'xmlSpace',
};

/** An SVG attribute's name as a React prop: `stroke-width` is `strokeWidth`. */
export function reactName(name: string): string {
  return REACT_NAMES[name] ?? name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** `url(#x)` as the page's `url(#dg-x)`. */
export function prefixUrls(value: string): string {
  return value.replace(/url\(\s*(["']?)#/gi, (_, quote: string) => `url(${quote}#${ID_PREFIX}`);
}

/** A `style` attribute's declarations as React's style object (the sanitiser wrote them). */
export function styleObject(style: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of style.split(';')) {
    const colon = part.indexOf(':');
    if (colon <= 0) continue;
    out[reactName(part.slice(0, colon).trim())] = prefixUrls(part.slice(colon + 1).trim());
  }
  return out;
}

/** An element's attributes as React props, its ids and references the page's own. */
export function reactProps(attributes: Readonly<Record<string, string>>): Record<string, unknown> {
  const props: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(attributes)) {
    if (name === 'id') props.id = ID_PREFIX + value;
    else if (name === 'href') props.href = `#${ID_PREFIX}${value.slice(1)}`;
    else if (name === 'style') props.style = styleObject(value);
    else props[reactName(name)] = prefixUrls(value);
  }
  return props;
}

/** The element at a path, if any. */
export function elementAt(root: SvgElement, path: SvgPath): SvgElement | undefined {
  let node: SvgNode | undefined = root;
  for (const index of path) {
    node = node?.kind === 'element' ? node.children[index] : undefined;
  }
  return node?.kind === 'element' ? node : undefined;
}

/** Each element with an id, in document order: what the editor's list offers. */
export function elementsWithIds(
  root: SvgElement,
): { readonly id: string; readonly name: SvgElementName; readonly path: SvgPath }[] {
  const out: { id: string; name: SvgElementName; path: SvgPath }[] = [];
  const walk = (node: SvgElement, path: SvgPath) => {
    const id = node.attributes.id;
    if (id !== undefined) out.push({ id, name: node.name, path });
    node.children.forEach((child, index) => {
      if (child.kind === 'element') walk(child, [...path, index]);
    });
  };
  walk(root, []);
  return out;
}

/** The path of the element with this id, if the picture has one. */
export function pathOfId(root: SvgElement, id: string): SvgPath | undefined {
  return elementsWithIds(root).find((e) => e.id === id)?.path;
}

/** A new tree with the element at `path` replaced by what `change` makes of it. */
export function changeAt(
  root: SvgElement,
  path: SvgPath,
  change: (element: SvgElement) => SvgElement | null,
): SvgElement {
  const [first, ...rest] = path;
  if (first === undefined) return change(root) ?? root;
  const child = root.children[first];
  if (child?.kind !== 'element') return root;
  const changed = rest.length === 0 ? change(child) : changeAt(child, rest, change);
  const children = [...root.children];
  if (changed === null) children.splice(first, 1);
  else children[first] = changed;
  return { ...root, children };
}

/** Attributes set (a value) or removed (undefined) on the element at `path`. */
export function setAttributes(
  root: SvgElement,
  path: SvgPath,
  attributes: Readonly<Record<string, string | undefined>>,
): SvgElement {
  return changeAt(root, path, (element) => {
    const next: Record<string, string> = { ...element.attributes };
    for (const [name, value] of Object.entries(attributes)) {
      if (value === undefined) delete next[name];
      else next[name] = value;
    }
    return { ...element, attributes: next };
  });
}

/** A text element's words replaced (its tspans and all). */
export function setText(root: SvgElement, path: SvgPath, text: string): SvgElement {
  return changeAt(root, path, (element) => ({
    ...element,
    children: [{ kind: 'text', text }],
  }));
}

/** The element at `path` removed (never the root). */
export function removeAt(root: SvgElement, path: SvgPath): SvgElement {
  return path.length === 0 ? root : changeAt(root, path, () => null);
}

/** The words of a text element, as drawn. */
export function textOf(element: SvgElement): string {
  return element.children
    .map((child) => (child.kind === 'text' ? child.text : textOf(child)))
    .join('');
}

/** An id no element of the picture has yet: `rect-1`, `rect-2`, … */
export function freeId(root: SvgElement, stem: string): string {
  const taken = new Set(elementsWithIds(root).map((e) => e.id));
  for (let n = 1; ; n++) if (!taken.has(`${stem}-${n}`)) return `${stem}-${n}`;
}

/** The picture's drawing area: its viewBox, else its width and height, else 800 x 450. */
export function viewBoxOf(root: SvgElement): {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
} {
  const box = (root.attributes.viewBox ?? '')
    .split(/[\s,]+/)
    .filter(Boolean)
    .map(Number);
  if (box.length === 4 && box.every(Number.isFinite) && box[2]! > 0 && box[3]! > 0) {
    return { x: box[0]!, y: box[1]!, width: box[2]!, height: box[3]! };
  }
  const width = parseFloat(root.attributes.width ?? '');
  const height = parseFloat(root.attributes.height ?? '');
  return width > 0 && height > 0
    ? { x: 0, y: 0, width, height }
    : { x: 0, y: 0, width: 800, height: 450 };
}

/** The basic shapes the editor draws. */
export const SHAPES = ['rect', 'circle', 'line', 'text'] as const;
export type Shape = (typeof SHAPES)[number];

/** A shape of its kind, in the middle of the picture, sized to a tenth of it. */
export function newShape(kind: Shape, root: SvgElement, id: string, text: string): SvgElement {
  const box = viewBoxOf(root);
  const cx = Math.round(box.x + box.width / 2);
  const cy = Math.round(box.y + box.height / 2);
  const size = Math.max(1, Math.round(Math.min(box.width, box.height) / 10));
  const element = (attributes: Record<string, string>, children: SvgNode[] = []): SvgElement => ({
    kind: 'element',
    name: kind,
    attributes: { id, ...attributes },
    children,
  });
  switch (kind) {
    case 'rect':
      return element({
        x: String(cx - size),
        y: String(cy - size / 2),
        width: String(2 * size),
        height: String(size),
        fill: '#adb5bd',
        stroke: '#343a40',
      });
    case 'circle':
      return element({
        cx: String(cx),
        cy: String(cy),
        r: String(size / 2),
        fill: '#adb5bd',
        stroke: '#343a40',
      });
    case 'line':
      return element({
        x1: String(cx - size),
        y1: String(cy),
        x2: String(cx + size),
        y2: String(cy),
        stroke: '#343a40',
        'stroke-width': '2',
      });
    case 'text':
      return element(
        {
          x: String(cx),
          y: String(cy),
          'font-size': String(Math.max(8, Math.round(size / 2))),
          fill: '#212529',
        },
        [{ kind: 'text', text }],
      );
    default: {
      const never: never = kind;
      return never;
    }
  }
}

/** The shape appended to the picture (drawn on top of everything). */
export function addShape(root: SvgElement, shape: SvgElement): { root: SvgElement; path: SvgPath } {
  return { root: { ...root, children: [...root.children, shape] }, path: [root.children.length] };
}

/** The geometry a drawn shape's form edits, per element. */
export const GEOMETRY: Readonly<Partial<Record<SvgElementName, readonly string[]>>> = {
  rect: ['x', 'y', 'width', 'height'],
  circle: ['cx', 'cy', 'r'],
  ellipse: ['cx', 'cy', 'rx', 'ry'],
  line: ['x1', 'y1', 'x2', 'y2'],
  text: ['x', 'y', 'font-size'],
};
