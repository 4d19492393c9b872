import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { MantineColor } from '@mantine/core';
import type { AlarmSeverity } from '@plant/shared-schema';

/* Severities' words and colours: a module of their own, since the asset list's first paint needs them. */

const SEVERITY_LABELS: Record<AlarmSeverity, MessageDescriptor> = {
  info: msg`Info`,
  warning: msg`Warning`,
  critical: msg`Critical`,
};

const SEVERITY_COLORS: Record<AlarmSeverity, MantineColor> = {
  info: 'blue',
  warning: 'yellow',
  critical: 'red',
};

export function severityLabel(i18n: I18n, severity: AlarmSeverity): string {
  return i18n._(SEVERITY_LABELS[severity]);
}

export function severityColor(severity: AlarmSeverity): MantineColor {
  return SEVERITY_COLORS[severity];
}
