import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';

/*
 * The role matrix's words (issue 30 item 11): an area and an action people read, the permission's
 * id only in a tooltip. An id this list does not know is shown as it is.
 */

const AREAS: ReadonlyMap<string, MessageDescriptor> = new Map([
  ['assets', msg`Assets`],
  ['gateways', msg`Gateways`],
  ['datastreams', msg`Data streams`],
  ['integrations', msg`Integrations`],
  ['services', msg`Services`],
  ['errorcodelists', msg`Error code lists`],
  ['templates', msg`Templates`],
  ['alarms', msg`Alarms`],
  ['accounts', msg`Accounts`],
  ['users', msg`Users`],
  ['roles', msg`Roles`],
  ['dashboards', msg`Dashboards`],
  ['reports', msg`Reports`],
  ['threedmodels', msg`3D scenes`],
  ['articles', msg`Help center`],
  ['tickets', msg`Feedback`],
  ['service_requests', msg`Service requests`],
  ['releases', msg`Release management`],
  ['security', msg`Security insights`],
  ['themes', msg`Themes`],
  ['jobs', msg`Jobs`],
  ['translations', msg`Translations`],
  ['forms', msg`Forms`],
  ['form_entries', msg`Filled-in forms`],
  ['tasks', msg`Tasks`],
]);

const ACTIONS: ReadonlyMap<string, MessageDescriptor> = new Map([
  ['view', msg`View`],
  ['create', msg`Create`],
  ['edit', msg`Edit`],
  ['delete', msg`Delete`],
  ['acknowledge', msg`Acknowledge`],
  // The feedback centre's admins (approve, decline, assign) and the development team.
  ['admin', msg`Administer`],
  ['develop', msg`Development team`],
  // Service requests' agents (they take the calls and work on the requests assigned to them).
  ['agent', msg`Service agent`],
]);

export function permissionAreaLabel(i18n: I18n, area: string): string {
  const known = AREAS.get(area);
  return known === undefined ? area : i18n._(known);
}

/** `alarm::acknowledge` -> "Acknowledge" (its area says whose). */
export function permissionLabel(i18n: I18n, permission: string): string {
  const action = permission.split('::')[1] ?? permission;
  const known = ACTIONS.get(action);
  return known === undefined ? permission : i18n._(known);
}
