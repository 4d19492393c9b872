import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { MantineColor } from '@mantine/core';
import { ASSET_STATUSES, DATASTREAM_TYPES } from '@plant/shared-schema';
import { translateServerText } from '../../i18n/server-texts';

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

/**
 * The asset schema's own messages (shared-schema api/fields.ts, models/asset.ts): the form shows
 * the same text the server would answer, in the user's language.
 */
const FIELD_MESSAGES = new Map<string, MessageDescriptor>([
  ['Name is required', msg`Name is required`],
  [
    'The name may not be longer than 250 characters',
    msg`The name may not be longer than 250 characters`,
  ],
]);

export function fieldMessage(i18n: I18n, text: string): string {
  const known = FIELD_MESSAGES.get(text);
  return known === undefined ? translateServerText(i18n, text) : i18n._(known);
}

/** A string attribute, or '' when it is missing or not a string. */
export function textOf(attributes: Readonly<Record<string, unknown>>, field: string): string {
  const value = attributes[field];
  return typeof value === 'string' ? value : '';
}
