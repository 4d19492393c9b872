import type { DashboardWidget } from '@plant/shared-schema';

/** What each widget type's component gets (index.tsx's WidgetBody hands them on). */
export interface WidgetProps {
  readonly widget: DashboardWidget;
  readonly context: WidgetContext;
}

/** What a widget needs of its dashboard besides itself. */
export interface WidgetContext {
  readonly dashboardId: string;
  /** The asset whose dashboard it is; null for the account's. */
  readonly assetId: string | null;
  /** The span shown now (epoch ms), resolved from the dashboard's range. */
  readonly range: { readonly from: number; readonly to: number };
  /** True when the range is relative: it moves with now and live values extend it. */
  readonly live: boolean;
  /** A chart zoomed to a span: the dashboard's range becomes it (shared by every widget). */
  readonly onRangeChange?: (range: { from: number; to: number }) => void;
  /**
   * A double-click on a zoomed chart: back to the range chosen before the zoom (added by the
   * widgets: without it, the chart sets the span it showed before its own zoom).
   */
  readonly onRangeReset?: () => void;
}
