import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { MantineColor } from '@mantine/core';
import { ASSET_STATUSES, DATASTREAM_TYPES } from '@plant/shared-schema';

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

/** An asset's status as stored; anything the schema does not know counts as unknown. */
export function assetStatusOf(attributes: Readonly<Record<string, unknown>>): AssetStatus {
  const value = attributes.status;
  return (ASSET_STATUSES as readonly unknown[]).includes(value)
    ? (value as AssetStatus)
    : 'unknown';
}

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

export function streamTypeLabel(i18n: I18n, type: unknown): string {
  return (DATASTREAM_TYPES as readonly unknown[]).includes(type)
    ? i18n._(STREAM_TYPE_LABELS[type as StreamType])
    : typeof type === 'string'
      ? type
      : '';
}

/** A string attribute, or '' when it is missing or not a string. */
export function textOf(attributes: Readonly<Record<string, unknown>>, field: string): string {
  const value = attributes[field];
  return typeof value === 'string' ? value : '';
}
