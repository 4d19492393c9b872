/* The widgets without a heavy library, in one lazy chunk (index.tsx loads it with a dashboard). */
export { AlarmsWidget } from './alarms-widget';
export { GaugeWidget } from './gauge-widget';
export { BarWidget, StateWidget } from './state-widget';
export { TextWidget } from './text-widget';
export { TableWidget, ValueWidget } from './value-widget';
