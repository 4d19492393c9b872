import type { DashboardWidget } from '@plant/shared-schema';
import type { WidgetContext } from './index';

/** What each widget type's component gets (index.tsx's WidgetBody hands them on). */
export interface WidgetProps {
  readonly widget: DashboardWidget;
  readonly context: WidgetContext;
}
