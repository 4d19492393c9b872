import { lazy, Suspense, type ComponentType } from 'react';
import { Trans } from '@lingui/react/macro';
import { Loader, Text } from '@mantine/core';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { DashboardWidget, WidgetType } from '@plant/shared-schema';
import { basicChunk, chunkComponent, lineChunk, mapChunk } from './chunks';
import { useWidgetHistories } from './shared-reads';
import type { WidgetProps } from './widget-props';

/*
 * The contract between a dashboard (its page, grid and range: ../) and its widgets (this folder).
 * The dashboard page renders `WidgetBody` in each grid cell and `WidgetSettings` when a widget is
 * added or edited; this folder owns what a widget shows and asks.
 */

import type { WidgetContext } from './widget-props';
export type { WidgetContext } from './widget-props';

/** One stream a widget may show, as the dashboard offers it (only streams the user sees). */
export interface StreamChoice {
  readonly id: string;
  readonly name: string;
  readonly unit: string;
  readonly type: string;
  /** Where it lives, for the picker's groups: the asset's and the stream group's names. */
  readonly assetName: string;
  readonly groupName: string;
}

export const WIDGET_LABELS: Record<WidgetType, MessageDescriptor> = {
  line: msg`Line chart`,
  value: msg`Value`,
  gauge: msg`Gauge`,
  state: msg`State timeline`,
  bar: msg`Bar chart`,
  table: msg`Table of latest values`,
  alarms: msg`Alarms`,
  map: msg`Map of assets`,
  text: msg`Text`,
};

/** The size a new widget of each type gets, in grid columns (of 24) and rows. */
export const WIDGET_DEFAULT_SIZE: Record<WidgetType, { readonly w: number; readonly h: number }> = {
  line: { w: 12, h: 8 },
  value: { w: 4, h: 4 },
  gauge: { w: 6, h: 6 },
  state: { w: 12, h: 4 },
  bar: { w: 12, h: 8 },
  table: { w: 8, h: 8 },
  alarms: { w: 8, h: 8 },
  map: { w: 12, h: 10 },
  text: { w: 6, h: 4 },
};

// The widgets load after the dashboard page's first paint (its first visit stays small); uPlot
// and MapLibre come only with a dashboard that shows them: chunks of their own. The other
// widgets share one chunk (each chunk costs its own overhead).
const LineView = chunkComponent(lineChunk, (m) => m.default);
const MapWidget = chunkComponent(mapChunk, (m) => m.default);
const SettingsForm = lazy(() => import('./settings-form'));
const ValueWidget = chunkComponent(basicChunk, (m) => m.ValueWidget);
const GaugeWidget = chunkComponent(basicChunk, (m) => m.GaugeWidget);
const StateWidget = chunkComponent(basicChunk, (m) => m.StateWidget);
const BarWidget = chunkComponent(basicChunk, (m) => m.BarWidget);
const TableWidget = chunkComponent(basicChunk, (m) => m.TableWidget);
const AlarmsWidget = chunkComponent(basicChunk, (m) => m.AlarmsWidget);
const TextWidget = chunkComponent(basicChunk, (m) => m.TextWidget);

/** The line chart's reads start at once, while uPlot's chunk loads (the offline first paint). */
function LineWidget(props: WidgetProps) {
  const data = useWidgetHistories(props.widget.streams, props.context);
  return <LineView {...props} data={data} />;
}

const BODIES: Record<WidgetType, ComponentType<WidgetProps>> = {
  line: LineWidget,
  value: ValueWidget,
  gauge: GaugeWidget,
  state: StateWidget,
  bar: BarWidget,
  table: TableWidget,
  alarms: AlarmsWidget,
  map: MapWidget,
  text: TextWidget,
};

function Loading() {
  return <Loader size="xs" type="dots" data-testid="widget-loading" />;
}

/** What a widget shows in its grid cell. */
export function WidgetBody(props: {
  readonly widget: DashboardWidget;
  readonly context: WidgetContext;
}) {
  const Body = BODIES[props.widget.type];
  return (
    <div
      data-testid="widget-body"
      data-widget={props.widget.id}
      data-type={props.widget.type}
      style={{ height: '100%', minHeight: 0, display: 'flex', flexDirection: 'column' }}
    >
      <Suspense fallback={<Loading />}>
        <Body widget={props.widget} context={props.context} />
      </Suspense>
    </div>
  );
}

/** The form of a widget's own settings (its title, streams and options), new or edited. */
export function WidgetSettings(props: {
  readonly type: WidgetType;
  /** The widget being edited; null for a new one (the form fills defaults). */
  readonly widget: DashboardWidget | null;
  readonly streams: readonly StreamChoice[];
  readonly onSave: (widget: Pick<DashboardWidget, 'title' | 'streams' | 'options'>) => void;
  readonly onCancel: () => void;
}) {
  return (
    <Suspense
      fallback={
        <Text c="dimmed" size="sm" role="status">
          <Trans>Loading the form…</Trans>
        </Text>
      }
    >
      <SettingsForm {...props} />
    </Suspense>
  );
}
