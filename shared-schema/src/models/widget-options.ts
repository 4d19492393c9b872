import { z } from 'zod';
import { deferred } from '../deferred';
import type { WidgetType } from './widget-types';
import { WIDGET_OPTION_TEXTS } from './widget-options-texts';

export { WIDGET_OPTION_TEXTS } from './widget-options-texts';

/*
 * Each dashboard widget type's own options (issue 31 item 2), checked wherever a dashboard is
 * written: the widget settings form in the browser and the server's model write (dashboard.ts
 * refines every widget's `options` through `widgetOptionsSchemas`), so a bad option is refused
 * with a field error under `widgets.<n>.options.<name>`. Every option may be left out: a widget
 * saved with `{}` reads its type's defaults (`widgetOptions`).
 */

/** The longest text of a text widget. */
export const WIDGET_TEXT_MAX = 2000;

/** The buckets a bar chart sums up its values in. */
export const BAR_BUCKETS = ['hour', 'day', 'week'] as const;
export type BarBucket = (typeof BAR_BUCKETS)[number];

/** What a bar shows of its bucket's values. */
export const BAR_AGGREGATES = ['avg', 'min', 'max'] as const;
export type BarAggregate = (typeof BAR_AGGREGATES)[number];

const limit = /* @__PURE__ */ deferred(() => z.number().finite().nullable());

/** A minimum below its maximum, when both are given. */
function ordered(o: { min?: number | null | undefined; max?: number | null | undefined }): boolean {
  return o.min === undefined || o.max === undefined || o.min === null || o.max === null
    ? true
    : o.min < o.max;
}

const lineOptions = /* @__PURE__ */ deferred(() =>
  z
    .strictObject({
      /** The y axis' bounds; null: the streams' visualisation range, else automatic. */
      min: limit.optional(),
      max: limit.optional(),
    })
    .refine(ordered, { error: WIDGET_OPTION_TEXTS.minBelowMax, path: ['max'] }),
);

const decimals = /* @__PURE__ */ deferred(() =>
  z
    .number({ error: WIDGET_OPTION_TEXTS.decimals })
    .int(WIDGET_OPTION_TEXTS.decimals)
    .min(0, WIDGET_OPTION_TEXTS.decimals)
    .max(6, WIDGET_OPTION_TEXTS.decimals)
    .nullable(),
);

const valueOptions = /* @__PURE__ */ deferred(() =>
  z.strictObject({
    /** Decimals shown; null: as the stream's value reads elsewhere (up to 3). */
    decimals: decimals.optional(),
  }),
);

const gaugeOptions = /* @__PURE__ */ deferred(() =>
  z
    .strictObject({
      /** The dial's ends; null: the stream's vis_min / vis_max (else 0 to 100). */
      min: limit.optional(),
      max: limit.optional(),
      decimals: decimals.optional(),
    })
    .refine(ordered, { error: WIDGET_OPTION_TEXTS.minBelowMax, path: ['max'] }),
);

const barOptions = /* @__PURE__ */ deferred(() =>
  z.strictObject({
    bucket: z.enum(BAR_BUCKETS).optional(),
    aggregate: z.enum(BAR_AGGREGATES).optional(),
  }),
);

const alarmsOptions = /* @__PURE__ */ deferred(() =>
  z.strictObject({
    /** Only the alarms raised now (else every alarm, raised first). */
    raised_only: z.boolean().optional(),
  }),
);

const textOptions = /* @__PURE__ */ deferred(() =>
  z.strictObject({
    /** Plain text with a small markdown subset (headings, bold, italics, lists, links). */
    text: z.string().max(WIDGET_TEXT_MAX, WIDGET_OPTION_TEXTS.textTooLong).optional(),
  }),
);

const noOptions = /* @__PURE__ */ deferred(() => z.strictObject({}));

export const widgetOptionsSchemas = {
  line: lineOptions,
  value: valueOptions,
  gauge: gaugeOptions,
  state: noOptions,
  bar: barOptions,
  table: valueOptions,
  alarms: alarmsOptions,
  map: noOptions,
  text: textOptions,
} as const satisfies Record<WidgetType, z.ZodType>;

export type WidgetOptions<T extends WidgetType> = z.infer<(typeof widgetOptionsSchemas)[T]>;

/** A widget's options with every default filled in. */
export type FullWidgetOptions<T extends WidgetType> = {
  [K in keyof WidgetOptions<T>]-?: Exclude<WidgetOptions<T>[K], undefined>;
};

/** How many data streams a widget type shows at most (at least one, except where 0). */
export const WIDGET_STREAM_LIMITS: Record<
  WidgetType,
  { readonly min: number; readonly max: number }
> = {
  line: { min: 1, max: 12 },
  value: { min: 1, max: 1 },
  gauge: { min: 1, max: 1 },
  state: { min: 1, max: 12 },
  bar: { min: 1, max: 12 },
  table: { min: 1, max: 12 },
  alarms: { min: 0, max: 0 },
  map: { min: 0, max: 0 },
  text: { min: 0, max: 0 },
};

/** Defaults of every option, as a widget saved without them reads. */
const DEFAULTS = {
  line: { min: null, max: null },
  value: { decimals: null },
  gauge: { min: null, max: null, decimals: null },
  state: {},
  bar: { bucket: 'hour', aggregate: 'avg' },
  table: { decimals: null },
  alarms: { raised_only: false },
  map: {},
  text: { text: '' },
} as const satisfies { [T in WidgetType]: FullWidgetOptions<T> };

/**
 * A widget's options with its type's defaults filled in. Options that do not pass the type's
 * schema (a widget written before a check existed) read as the defaults.
 */
export function widgetOptions<T extends WidgetType>(
  type: T,
  options: Readonly<Record<string, unknown>>,
): FullWidgetOptions<T> {
  const parsed = widgetOptionsSchemas[type].safeParse(options);
  const given = parsed.success ? (parsed.data as Record<string, unknown>) : {};
  const out: Record<string, unknown> = { ...DEFAULTS[type] };
  for (const [k, v] of Object.entries(given)) if (v !== undefined) out[k] = v;
  return out as FullWidgetOptions<T>;
}

/**
 * Checks a widget's options against its type's schema, reporting each problem at its option's
 * path (for the dashboard schema's refinement of every widget).
 */
export function checkWidgetOptions(
  widget: {
    readonly type: WidgetType;
    readonly options: unknown;
    readonly streams: readonly string[];
  },
  ctx: z.RefinementCtx,
): void {
  const parsed = widgetOptionsSchemas[widget.type].safeParse(widget.options);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      ctx.addIssue({
        code: 'custom',
        message: issue.message,
        path: ['options', ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))],
      });
    }
  }
  if (widget.streams.length > WIDGET_STREAM_LIMITS[widget.type].max) {
    ctx.addIssue({
      code: 'custom',
      message:
        WIDGET_STREAM_LIMITS[widget.type].max === 1
          ? WIDGET_OPTION_TEXTS.oneStream
          : WIDGET_OPTION_TEXTS.noStreams,
      path: ['streams'],
    });
  }
}
