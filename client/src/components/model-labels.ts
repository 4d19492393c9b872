import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';

/** The registry's model names in the chosen language (the API reference, the pending changes). */
const MODELS: ReadonlyMap<string, MessageDescriptor> = new Map([
  ['account', msg`Account`],
  ['asset', msg`Asset`],
  ['gateway', msg`Gateway`],
  ['datastreamgroup', msg`Data stream group`],
  ['datastream', msg`Data stream`],
  ['connection', msg`Connection`],
  ['datapoint', msg`Data point`],
  ['file', msg`File`],
  ['integration', msg`Integration`],
  ['service', msg`Service`],
  ['errorcodelist', msg`Error code list`],
  ['template', msg`Template`],
  ['alarm', msg`Alarm`],
  ['alarm_ack', msg`Alarm acknowledgement`],
  ['inspection', msg`Event inspection`],
  ['inspection_note', msg`Note`],
  ['role', msg`Role`],
  ['user', msg`User`],
  ['tag', msg`Tag`],
]);

export function modelLabel(i18n: I18n, type: string): string {
  const known = MODELS.get(type);
  return known === undefined ? type : i18n._(known);
}
