import { describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../constants';
import { uuidv7 } from '../uuid';
import {
  BLANK_DIAGRAM_SVG,
  DIAGRAM_MAX_BINDINGS,
  DIAGRAM_MAX_STATE_COLORS,
  DIAGRAM_SVG_MAX_BYTES,
  diagramAttributesSchema,
  diagramSvgBytes,
} from './diagram';
import { DIAGRAM_TEXTS } from './diagram-texts';
import { sanitizeSvg } from '../svg/sanitize-svg';

const NS = 'xmlns="http://www.w3.org/2000/svg"';
const asset = uuidv7();

const messages = (value: unknown) => {
  const parsed = diagramAttributesSchema.safeParse(value);
  return parsed.success ? [] : parsed.error.issues.map((i) => i.message);
};

describe('diagram model', () => {
  it('stores the picture clean, whoever writes it', () => {
    const parsed = diagramAttributesSchema.parse({
      asset_id: asset,
      name: 'Line 1',
      svg: `<svg ${NS} onload="alert(1)"><script>alert(1)</script><use href="https://evil.test/a.svg#x"/><rect id="tank" width="10" height="10"/></svg>`,
    });
    expect(parsed.svg).toBe(`<svg ${NS}><use/><rect id="tank" width="10" height="10"/></svg>`);
    // The schema's output parses to itself (an update of other fields leaves it as it is).
    expect(diagramAttributesSchema.parse(parsed)).toEqual(parsed);
  });

  it('starts from a blank picture that is already clean', () => {
    const parsed = diagramAttributesSchema.parse({ asset_id: asset, name: 'New' });
    expect(parsed.svg).toBe(BLANK_DIAGRAM_SVG);
    expect(sanitizeSvg(BLANK_DIAGRAM_SVG).svg).toBe(BLANK_DIAGRAM_SVG);
    expect(parsed.bindings).toEqual([]);
  });

  it('refuses what is no SVG, and a picture too large once cleaned', () => {
    expect(messages({ asset_id: asset, name: 'x', svg: '<html><p>hi</p></html>' })).toEqual([
      DIAGRAM_TEXTS.noSvg,
    ]);
    const rects = (n: number) => '<rect width="1" height="1"/>'.repeat(n);
    const fits = `<svg ${NS}>${rects(1100)}</svg>`;
    expect(diagramSvgBytes(sanitizeSvg(fits).svg)).toBeLessThanOrEqual(DIAGRAM_SVG_MAX_BYTES);
    expect(messages({ asset_id: asset, name: 'x', svg: fits })).toEqual([]);
    expect(
      messages({ asset_id: asset, name: 'x', svg: `<svg ${NS}>${rects(1200)}</svg>` }),
    ).toEqual([DIAGRAM_TEXTS.tooLarge]);
    // Comments and foreign markup do not count: what is stored is measured.
    const padded = `<svg ${NS}><!-- ${'x'.repeat(100_000)} -->${rects(1100)}</svg>`;
    expect(messages({ asset_id: asset, name: 'x', svg: padded })).toEqual([]);
  });

  it('checks bindings: element ids, once each, colours, at most 40', () => {
    const binding = (element: string, more: Record<string, unknown> = {}) => ({
      element,
      stream_id: uuidv7(),
      ...more,
    });
    expect(
      messages({
        asset_id: asset,
        name: 'x',
        bindings: [binding('temp'), binding('pump', { show: 'state', colors: { 1: '#00ff00' } })],
      }),
    ).toEqual([]);
    expect(messages({ asset_id: asset, name: 'x', bindings: [binding('a b')] })).toEqual([
      DIAGRAM_TEXTS.elementId,
    ]);
    expect(
      messages({ asset_id: asset, name: 'x', bindings: [binding('a'), binding('a')] }),
    ).toEqual([DIAGRAM_TEXTS.elementTwice]);
    expect(
      messages({
        asset_id: asset,
        name: 'x',
        bindings: [binding('a', { show: 'alarm', alarm_color: 'red' })],
      }),
    ).toEqual([DIAGRAM_TEXTS.color]);
    const many = Object.fromEntries(
      Array.from({ length: DIAGRAM_MAX_STATE_COLORS + 1 }, (_, i) => [String(i), '#000000']),
    );
    expect(
      messages({ asset_id: asset, name: 'x', bindings: [binding('a', { colors: many })] }),
    ).toEqual([DIAGRAM_TEXTS.tooManyColors]);
    const tooMany = Array.from({ length: DIAGRAM_MAX_BINDINGS + 1 }, (_, i) => binding(`e${i}`));
    expect(messages({ asset_id: asset, name: 'x', bindings: tooMany })).toEqual([
      DIAGRAM_TEXTS.tooManyBindings,
    ]);
  });

  it('fits one write: the largest diagram the schema takes stays under the body limit', () => {
    // The picture at its largest (characters of 3 bytes in UTF-8, then ASCII to the last byte).
    const base = `<svg ${NS}><text>${'€'.repeat(11_000)}</text></svg>`;
    const room = DIAGRAM_SVG_MAX_BYTES - diagramSvgBytes(sanitizeSvg(base).svg);
    const svg = base.replace('</text>', `${'a'.repeat(room)}</text>`);
    const colors = Object.fromEntries(
      Array.from({ length: DIAGRAM_MAX_STATE_COLORS }, (_, i) => [
        `${'9'.repeat(19)}${i}`,
        '#abcdef',
      ]),
    );
    const attributes = diagramAttributesSchema.parse({
      asset_id: 'a'.repeat(64),
      name: '\u{1F600}'.repeat(125),
      svg,
      bindings: Array.from({ length: DIAGRAM_MAX_BINDINGS }, (_, i) => ({
        element: `e${String(i).padStart(2, '0')}${'x'.repeat(97)}`,
        stream_id: 's'.repeat(64),
        show: 'state',
        colors,
        alarm_color: '#123456',
      })),
    });
    expect(diagramSvgBytes(attributes.svg)).toBe(DIAGRAM_SVG_MAX_BYTES);
    // As the worker's outbox sends it (sync-worker outbox/sender.ts `itemOf`), in a batch of one.
    const body = JSON.stringify([
      {
        batch_id: uuidv7(),
        data: { ...attributes, id: uuidv7(), mutation_id: uuidv7() },
      },
    ]);
    const bytes = new TextEncoder().encode(body).length;
    // The worker keeps its batches 4 KiB under the server's limit.
    expect(bytes).toBeLessThan(MAX_BODY_BYTES - 4 * 1024);
  });
});
