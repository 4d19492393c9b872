import { z } from 'zod';
import { deferred } from '../deferred';
import { idField, modelNameField } from '../api/fields';
import { sanitizeSvg, SVG_ID_PATTERN, SVG_LIMITS } from '../svg/sanitize-svg';
import type { ModelDefinition } from './registry-types';
import { viewEditPermissions } from './model-permissions';
import { DIAGRAM_TEXTS } from './diagram-texts';

/*
 * Process diagrams (issue 37 item 4, spec 000 §2's `uml/{diagramid}`): an SVG picture of a
 * machine or a line, uploaded or drawn in the page, whose elements are bound to the asset's data
 * streams: a text shows the latest value with its unit, a shape's fill follows a state or the
 * stream's raised alarm, a click opens the stream. One model under its asset, seen and changed by
 * who sees and edits the asset (like its files).
 *
 * The markup is sanitised by the schema itself (`sanitizeSvg` as a transform), so every write,
 * the browser's and the server's, stores the clean picture. A diagram is one write of at most
 * MAX_BODY_BYTES (the server's body limit, which the worker's batches keep under): the picture
 * is bounded after cleaning, the bindings by number and size (diagram.test.ts writes the largest
 * diagram the schema takes and measures it).
 */

/** The clean picture's size at most, as JSON (UTF-8 bytes, quotes escaped): 36 KiB. */
export const DIAGRAM_SVG_MAX_BYTES = 36 * 1024;
export const DIAGRAM_MAX_BINDINGS = 40;
export const DIAGRAM_MAX_STATE_COLORS = 8;

/**
 * What a bound element shows: `value` (a text element shows the latest value with its unit),
 * `state` (its fill is the colour given for the stream's current value), `alarm` (its fill is red,
 * or the colour given, while one of the stream's alarms is raised).
 */
export const DIAGRAM_SHOWS = ['value', 'state', 'alarm'] as const;
export type DiagramShow = (typeof DIAGRAM_SHOWS)[number];

/** The fill of an element while its stream's alarm is raised, unless the binding says another. */
export const DIAGRAM_ALARM_COLOR = '#e03131';

/** What a new diagram starts from: an empty picture of 800 x 450. */
export const BLANK_DIAGRAM_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 800 450" width="800" height="450"/>';

const colorField = /* @__PURE__ */ deferred(() =>
  z.string().regex(/^#[0-9a-fA-F]{6}$/, DIAGRAM_TEXTS.color),
);

/** A stream's value as a state colour's key (state streams' values are numbers, as text). */
const stateKeyField = /* @__PURE__ */ deferred(() =>
  z.string().regex(/^[-0-9A-Za-z_.]{1,20}$/, DIAGRAM_TEXTS.color),
);

/** The size of a picture as it travels inside a write's JSON. */
export function diagramSvgBytes(svg: string): number {
  return new TextEncoder().encode(JSON.stringify(svg)).length;
}

/** Any markup in, the clean picture out; no SVG root or too large after cleaning: refused. */
export const diagramSvgField = /* @__PURE__ */ deferred(() =>
  z
    .string({ error: DIAGRAM_TEXTS.noSvg })
    .max(SVG_LIMITS.inputChars, { error: DIAGRAM_TEXTS.tooLarge, abort: true })
    .transform((markup, ctx) => {
      const { svg } = sanitizeSvg(markup);
      if (svg === '') {
        ctx.addIssue({ code: 'custom', message: DIAGRAM_TEXTS.noSvg });
        return z.NEVER;
      }
      if (diagramSvgBytes(svg) > DIAGRAM_SVG_MAX_BYTES) {
        ctx.addIssue({ code: 'custom', message: DIAGRAM_TEXTS.tooLarge });
        return z.NEVER;
      }
      return svg;
    }),
);

/** One element of the picture bound to a data stream of the diagram's asset. */
export const diagramBindingSchema = /* @__PURE__ */ deferred(() =>
  z.strictObject({
    /** The element's id in the picture. */
    element: z.string().regex(SVG_ID_PATTERN, DIAGRAM_TEXTS.elementId),
    stream_id: idField,
    show: z.enum(DIAGRAM_SHOWS).default('value'),
    /** `state`: the fill per value of the stream (a value not listed keeps the picture's own). */
    colors: z
      .record(stateKeyField, colorField)
      .refine((c) => Object.keys(c).length <= DIAGRAM_MAX_STATE_COLORS, DIAGRAM_TEXTS.tooManyColors)
      .default({}),
    /** `alarm`: the fill while raised; null is DIAGRAM_ALARM_COLOR. */
    alarm_color: colorField.nullable().default(null),
  }),
);
export type DiagramBinding = z.infer<typeof diagramBindingSchema>;

export const diagramAttributesSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    asset_id: idField,
    name: modelNameField,
    svg: diagramSvgField.default(BLANK_DIAGRAM_SVG),
    bindings: z
      .array(diagramBindingSchema)
      .max(DIAGRAM_MAX_BINDINGS, DIAGRAM_TEXTS.tooManyBindings)
      .refine(
        (list) => new Set(list.map((b) => b.element)).size === list.length,
        DIAGRAM_TEXTS.elementTwice,
      )
      .default([]),
  }),
);
export type DiagramAttributes = z.infer<typeof diagramAttributesSchema>;

export const diagramModel = {
  type: 'diagram',
  collection: 'diagrams',
  parentType: 'asset',
  parentField: 'asset_id',
  attributes: diagramAttributesSchema,
  refs: { asset_id: 'asset' },
  // A picture of the asset: who edits the asset draws and binds it (as with its files).
  permissions: viewEditPermissions('asset::view', 'asset::edit'),
  sortField: 'name',
  fixed: ['asset_id'],
  asset: 'asset_id',
} as const satisfies ModelDefinition<'diagram', typeof diagramAttributesSchema>;
