import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { MantineColor } from '@mantine/core';
import type { ASSET_STATUSES, DATASTREAM_TYPES } from '@plant/shared-schema';

export type AssetStatus = (typeof ASSET_STATUSES)[number];

const STATUS_LABELS: Record<AssetStatus, MessageDescriptor> = {
  unknown: msg`Unknown`,
  ok: msg`OK`,
  warning: msg`Warning`,
  alarm: msg`Alarm`,
  offline: msg`Offline`,
};

const STATUS_COLORS: Record<AssetStatus, MantineColor> = {
  unknown: 'gray',
  ok: 'green',
  warning: 'yellow',
  alarm: 'red',
  offline: 'gray',
};

export function statusLabel(i18n: I18n, status: AssetStatus): string {
  return i18n._(STATUS_LABELS[status]);
}

export function statusColor(status: AssetStatus): MantineColor {
  return STATUS_COLORS[status];
}

type StreamType = (typeof DATASTREAM_TYPES)[number];

const STREAM_TYPE_LABELS: Record<StreamType, MessageDescriptor> = {
  state: msg`State`,
  number: msg`Number`,
  boolean: msg`Boolean`,
  text: msg`Text`,
};

export function streamTypeLabel(i18n: I18n, type: StreamType): string {
  // A type this build does not know (a newer server's: the worker keeps the server's attributes
  // as sent) shows as it is stored.
  const label: MessageDescriptor | undefined = STREAM_TYPE_LABELS[type];
  return label === undefined ? type : i18n._(label);
}

/** The names of a type's text attributes (those that hold a string, or null when not set). */
export type TextField<A> = {
  [K in keyof A]-?: A[K] extends string | null | undefined ? K : never;
}[keyof A] &
  string;

/**
 * A text attribute, or '' when it is null. A field name the type lacks, or one that holds no
 * text (a number, a list), does not compile.
 */
export function textOf<A extends object>(attributes: A, field: TextField<A>): string {
  const value = attributes[field];
  return typeof value === 'string' ? value : '';
}
