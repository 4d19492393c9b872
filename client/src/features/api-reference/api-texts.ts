import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';

/*
 * The reference's groups and the registry's model names in the chosen language. Route summaries
 * and schemas are the API's own English documentation, shown as they are (marked as English).
 */

const TAGS: ReadonlyMap<string, MessageDescriptor> = new Map([
  ['Sign-in', msg`Sign-in`],
  ['OAuth', msg`OAuth`],
  ['User', msg`User`],
  ['Web push', msg`Web push`],
  ['Sync', msg`Sync`],
  ['Roles', msg`Roles`],
  ['Members', msg`Members`],
  ['Accounts', msg`Accounts`],
  ['Alarms', msg`Alarms`],
  ['Gateways', msg`Gateways`],
  ['Values', msg`Values`],
  ['Files', msg`Files`],
  ['Models', msg`Models`],
  ['Reference', msg`Reference`],
]);

export function tagLabel(i18n: I18n, tag: string): string {
  const known = TAGS.get(tag);
  return known === undefined ? tag : i18n._(known);
}
