import { describe, expect, it } from 'vitest';
import { parseSvg, sanitizeSvg, serializeSvg, type SvgElement } from '@plant/shared-schema';
import {
  addShape,
  elementAt,
  elementsWithIds,
  freeId,
  newShape,
  pathOfId,
  reactProps,
  removeAt,
  setAttributes,
  setText,
  SHAPES,
  textOf,
  viewBoxOf,
} from './svg-tree';

const NS = 'xmlns="http://www.w3.org/2000/svg"';

function tree(markup: string): SvgElement {
  const root = parseSvg(markup).root;
  if (root === null) throw new Error('no picture');
  return root;
}

describe('a diagram picture on the page', () => {
  it("gives React its props, every id and reference the page's own", () => {
    const root = tree(
      `<svg ${NS}><rect id="tank" class="a" stroke-width="2" fill="url(#steel)" clip-path="url('#c')" style="stop-color:#fff;fill:url(#g)"/><use href="#tank"/><text xml:space="preserve">x</text></svg>`,
    );
    const [rect, use, text] = root.children as SvgElement[];
    expect(reactProps(rect!.attributes)).toEqual({
      id: 'dg-tank',
      className: 'a',
      strokeWidth: '2',
      fill: 'url(#dg-steel)',
      clipPath: "url('#dg-c')",
      style: { stopColor: '#fff', fill: 'url(#dg-g)' },
    });
    expect(reactProps(use!.attributes)).toEqual({ href: '#dg-tank' });
    expect(reactProps(text!.attributes)).toEqual({ xmlSpace: 'preserve' });
  });

  it('finds elements by id and path, and changes one without touching the rest', () => {
    const root = tree(
      `<svg ${NS} viewBox="0 0 100 50"><g id="g"><rect id="a" width="1"/><text id="t">old <tspan>words</tspan></text></g></svg>`,
    );
    expect(elementsWithIds(root).map((e) => e.id)).toEqual(['g', 'a', 't']);
    const a = pathOfId(root, 'a');
    expect(a).toEqual([0, 0]);
    const changed = setAttributes(root, a!, { width: '5', fill: '#ff0000' });
    expect(elementAt(changed, a!)?.attributes).toEqual({ id: 'a', width: '5', fill: '#ff0000' });
    expect(elementAt(root, a!)?.attributes.width).toBe('1');
    const t = pathOfId(root, 't')!;
    expect(textOf(elementAt(root, t)!)).toBe('old words');
    expect(textOf(elementAt(setText(root, t, 'new'), t)!)).toBe('new');
    const without = removeAt(changed, a!);
    expect(elementsWithIds(without).map((e) => e.id)).toEqual(['g', 't']);
    expect(removeAt(root, [])).toBe(root);
  });

  it('draws shapes with free ids in the middle of the picture, and they pass the sanitiser', () => {
    let root = tree(`<svg ${NS} viewBox="0 0 800 400"><rect id="rect-1"/></svg>`);
    expect(viewBoxOf(root)).toEqual({ x: 0, y: 0, width: 800, height: 400 });
    expect(freeId(root, 'rect')).toBe('rect-2');
    for (const kind of SHAPES) {
      const added = addShape(root, newShape(kind, root, freeId(root, kind), 'Text'));
      root = added.root;
      expect(elementAt(root, added.path)?.name).toBe(kind);
    }
    const rect = elementAt(root, pathOfId(root, 'rect-2')!)!;
    expect(rect.attributes).toMatchObject({ x: '360', y: '180', width: '80', height: '40' });
    const markup = serializeSvg(root);
    const again = sanitizeSvg(markup);
    expect(again.removed).toEqual([]);
    expect(again.svg).toBe(markup);
    expect(elementsWithIds(tree(markup)).map((e) => e.id)).toEqual([
      'rect-1',
      'rect-2',
      'circle-1',
      'line-1',
      'text-1',
    ]);
  });

  it('reads the drawing area from the viewBox, else width and height, else 800 x 450', () => {
    expect(viewBoxOf(tree(`<svg ${NS} width="300" height="200"/>`))).toEqual({
      x: 0,
      y: 0,
      width: 300,
      height: 200,
    });
    expect(viewBoxOf(tree(`<svg ${NS} viewBox="0 0 0 0"/>`)).width).toBe(800);
  });
});
