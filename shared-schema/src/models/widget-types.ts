/** The kinds of widget a dashboard has (DESIGN.md §12): dashboard.ts and widget-options.ts share them. */
export const WIDGET_TYPES = [
  'line',
  'value',
  'gauge',
  'state',
  'bar',
  'table',
  'alarms',
  'map',
  'text',
] as const;
export type WidgetType = (typeof WIDGET_TYPES)[number];
