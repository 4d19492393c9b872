import { z } from 'zod';
import { deferred } from '../deferred';
import { idField, modelNameField } from '../api/fields';
import { boundedJson } from '../api/json-value';
import type { ModelDefinition } from './registry-types';
import { ownPermissions } from './model-permissions';
import { checkWidgetOptions } from './widget-options';
import { WIDGET_TYPES } from './widget-types';
import { DASHBOARD_TEXTS } from './dashboard-texts';

/**
 * Dashboards (DESIGN.md §12, spec 001 §1 to §4, §9): a name, a time range every widget shares, and
 * the widgets on a 24-column grid. The widgets live inside the model: one write per layout change.
 * A dashboard belongs to the account (no asset, no template), to an asset (`asset_id`), or to a
 * template (`template_id`: carried into every asset made from it, bound to that asset's streams).
 */

/** The grid's columns (Grafana's 24). */
export const DASHBOARD_COLUMNS = 24;
export const DASHBOARD_MAX_ROWS = 400;
export const DASHBOARD_MAX_WIDGETS = 48;
export const WIDGET_MAX_STREAMS = 12;

export { WIDGET_TYPES, type WidgetType } from './widget-types';

export const RANGE_UNITS = ['hours', 'days', 'weeks', 'months'] as const;
export type RangeUnit = (typeof RANGE_UNITS)[number];

/** Epoch milliseconds, within what a Date holds. */
const epochMs = /* @__PURE__ */ deferred(() => z.number().int().min(0).max(8_640_000_000_000_000));

/**
 * The range every widget of a dashboard shows: the last N hours, days, weeks or months (counted
 * back from now, so it moves), or a fixed span. Default: the last 2 hours (spec 001 §9).
 */
export const dashboardRangeSchema = /* @__PURE__ */ deferred(() =>
  z.discriminatedUnion('kind', [
    z.strictObject({
      kind: z.literal('relative'),
      last: z
        .number({ error: DASHBOARD_TEXTS.rangeLast })
        .int(DASHBOARD_TEXTS.rangeLast)
        .min(1, DASHBOARD_TEXTS.rangeLast)
        .max(1000, DASHBOARD_TEXTS.rangeLast),
      unit: z.enum(RANGE_UNITS),
    }),
    z
      .strictObject({ kind: z.literal('fixed'), from: epochMs, to: epochMs })
      .refine((r) => r.from < r.to, { error: DASHBOARD_TEXTS.rangeOrder, path: ['to'] }),
  ]),
);
export type DashboardRange = z.infer<typeof dashboardRangeSchema>;

export const DEFAULT_DASHBOARD_RANGE: DashboardRange = { kind: 'relative', last: 2, unit: 'hours' };

const UNIT_MS: Record<Exclude<RangeUnit, 'months'>, number> = {
  hours: 3_600_000,
  days: 86_400_000,
  weeks: 7 * 86_400_000,
};

/**
 * The span a range covers at `now` (epoch ms): a relative range ends now; months are calendar
 * months back from now (in UTC), so "last 1 month" on 31 March starts on 28 or 29 February.
 */
export function resolveRange(range: DashboardRange, now: number): { from: number; to: number } {
  if (range.kind === 'fixed') return { from: range.from, to: range.to };
  if (range.unit !== 'months') return { from: now - range.last * UNIT_MS[range.unit], to: now };
  const end = new Date(now);
  const start = new Date(now);
  start.setUTCDate(1);
  start.setUTCMonth(start.getUTCMonth() - range.last);
  const lastDay = new Date(
    Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 0),
  ).getUTCDate();
  start.setUTCDate(Math.min(end.getUTCDate(), lastDay));
  return { from: start.getTime(), to: now };
}

/**
 * One widget: its place on the grid (`x`, `w` in columns of 24; `y`, `h` in rows), what it is,
 * the data streams it shows (ids of the dashboard's own account; on a template's dashboard, keys
 * of the template's streams that the asset made from it turns into its own streams' ids), and its
 * type's options (widget-options.ts checks them per type).
 */
export const dashboardWidgetSchema = /* @__PURE__ */ deferred(() =>
  z
    .strictObject({
      id: idField,
      type: z.enum(WIDGET_TYPES),
      x: z
        .number()
        .int()
        .min(0)
        .max(DASHBOARD_COLUMNS - 1),
      y: z.number().int().min(0).max(DASHBOARD_MAX_ROWS),
      w: z.number().int().min(1).max(DASHBOARD_COLUMNS),
      h: z.number().int().min(1).max(DASHBOARD_MAX_ROWS),
      title: z.string().trim().max(120).nullable().default(null),
      streams: z.array(idField).max(WIDGET_MAX_STREAMS, DASHBOARD_TEXTS.tooManyStreams).default([]),
      options: z.record(z.string().max(40), boundedJson(6, 400)).default({}),
    })
    .refine((w) => w.x + w.w <= DASHBOARD_COLUMNS, {
      error: DASHBOARD_TEXTS.outsideGrid,
      path: ['w'],
    })
    // Each type's options and number of streams (widget-options.ts).
    .superRefine(checkWidgetOptions),
);
export type DashboardWidget = z.infer<typeof dashboardWidgetSchema>;

export const dashboardAttributesSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    name: modelNameField,
    /** The asset it belongs to; null for the account's and the template's dashboards. */
    asset_id: idField.nullable().default(null),
    /** The template it belongs to; null for the account's and the asset's dashboards. */
    template_id: idField.nullable().default(null),
    range: dashboardRangeSchema.default(DEFAULT_DASHBOARD_RANGE),
    widgets: z
      .array(dashboardWidgetSchema)
      .max(DASHBOARD_MAX_WIDGETS, DASHBOARD_TEXTS.tooManyWidgets)
      .refine((list) => new Set(list.map((w) => w.id)).size === list.length, {
        error: DASHBOARD_TEXTS.widgetTwice,
      })
      .default([]),
  }),
);
export type DashboardAttributes = z.infer<typeof dashboardAttributesSchema>;

export const dashboardModel = {
  type: 'dashboard',
  collection: 'dashboards',
  parentType: 'account',
  attributes: dashboardAttributesSchema,
  refs: { asset_id: 'asset', template_id: 'template' },
  permissions: ownPermissions('dashboard'),
  sortField: 'name',
  fixed: ['asset_id', 'template_id'],
  // An asset's dashboard is seen and edited by who sees and edits the asset; the account's and
  // a template's (no asset) by the type's permissions alone.
  asset: 'asset_id',
  assetOptional: true,
} as const satisfies ModelDefinition<'dashboard', typeof dashboardAttributesSchema>;
