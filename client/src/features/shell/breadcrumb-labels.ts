import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';

/**
 * The breadcrumb's words for the path segments of spec 000 §2's routes. A segment that is not
 * here is an id or a slug: shown as the model's name when the local store has it, else shortened.
 */
export const SEGMENT_LABELS: Readonly<Record<string, MessageDescriptor>> = {
  accounts: msg`Accounts`,
  accesstokens: msg`Access tokens`,
  actions: msg`Actions`,
  alarms: msg`Alarms`,
  api: msg`API`,
  // The boards gateways are (spec 001 §3), not the feedback centre's.
  boards: msg({ message: 'Boards', context: 'hardware' }),
  dashboard: msg`Dashboard`,
  dashboards: msg`Dashboards`,
  datastreams: msg`Data streams`,
  demo: msg`Demo`,
  design: msg`Design`,
  designer: msg`Form designer`,
  fill: msg`Fill in a form`,
  details: msg`Details`,
  devices: msg`Assets`,
  errorcodelists: msg`Error code lists`,
  eventinspection: msg`Event inspection`,
  featureflags: msg`Feature flags`,
  feedback: msg`Feedback`,
  firmware: msg`Firmware`,
  gateways: msg`Gateways`,
  general: msg`General`,
  hardware: msg`Hardware feedback`,
  helpcenter: msg`Help center`,
  history: msg`Past service requests`,
  home: msg`Home`,
  i: msg`Integration`,
  input: msg`Input`,
  integration: msg`Integration`,
  integrations: msg`Integrations`,
  interface: msg`Interface`,
  list: msg`List`,
  logs: msg`Gateway logs`,
  map: msg`Map`,
  modules: msg`Modules`,
  notifications: msg`Notifications`,
  operations: msg`Operations feedback`,
  overview: msg`Overview`,
  page: msg`Page`,
  platform: msg`Platform feedback`,
  platforms: msg`Platforms`,
  qr: msg`QR codes`,
  report: msg`Report`,
  reports: msg`Reports`,
  roles: msg`Roles`,
  scan: msg`Scan`,
  scene: msg`Scene`,
  'security-insights': msg`Security insights`,
  // A user's and an account's two-factor sign-in (issue 38 item 2).
  security: msg`Two-factor sign-in`,
  service: msg`Service requests`,
  servicebooklet: msg`Service booklet`,
  services: msg`Services`,
  single: msg`Single view`,
  smartphone: msg`Smartphone`,
  tasks: msg`Tasks`,
  templates: msg`Templates`,
  terminal: msg`Terminal`,
  themes: msg`Themes`,
  jobs: msg`Jobs`,
  'threat-overview': msg`Threat overview`,
  translations: msg`Translations`,
  uml: msg`UML diagram`,
  users: msg`Users`,
  versions: msg`Release management`,
  // `scene/v3/{id}`: the same scene under the address of spec 000 §2's third viewer.
  v3: msg`Scene`,
  '3d': msg`3D model`,
  '3dmodel': msg`3D model`,
};

/** The synced model types whose names the breadcrumb shows (cheap: read from the local store). */
export type NamedType =
  | 'account'
  | 'alarm'
  | 'asset'
  | 'board'
  | 'dashboard'
  | 'datastream'
  | 'diagram'
  | 'form'
  | 'firmware'
  | 'gateway'
  | 'inspection'
  | 'job'
  | 'release'
  | 'report'
  | 'role'
  | 'scene'
  | 'template'
  | 'theme'
  | 'threedmodel'
  | 'user'
  | 'ticket'
  | 'service_request';

/** Synced model types whose ids appear right after a segment. */
export const ID_TYPES: Readonly<Record<string, NamedType>> = {
  accounts: 'account',
  alarms: 'alarm',
  // An account's dashboard (/app/dashboards/{id}), an asset's or a template's (…/dashboard/{id}).
  dashboard: 'dashboard',
  dashboards: 'dashboard',
  devices: 'asset',
  '3dmodel': 'asset',
  gateways: 'gateway',
  input: 'datastream',
  roles: 'role',
  // An asset's scene (…/scene/{id}; `scene/v3/{id}` names it after `v3`) and 3D model.
  scene: 'scene',
  v3: 'scene',
  '3d': 'threedmodel',
  // An asset's process diagram (…/uml/{id}).
  uml: 'diagram',
  // An asset's event inspection (…/eventinspection/{id}): named by its moment.
  eventinspection: 'inspection',
  templates: 'template',
  // A form (/app/tasks/{id}/designer; an asset's …/servicebooklet/fill/{id}).
  tasks: 'form',
  fill: 'form',
  users: 'user',
  // An account's report (/app/reports/{id}) and an asset's (…/report/{id}).
  reports: 'report',
  report: 'report',
  // Release management's firmware and boards, the account's themes and jobs.
  firmware: 'firmware',
  boards: 'board',
  themes: 'theme',
  jobs: 'job',
  // A feedback board's ticket (/app/feedback/{board}/{id}) and a service request.
  platform: 'ticket',
  hardware: 'ticket',
  operations: 'ticket',
  service: 'service_request',
};

/**
 * Ids after a screen of an account (`/app/accounts/{id}/details/{selected}`): the screen's
 * `selected` model. Only under accounts: `details` elsewhere is a screen of its own.
 */
export const ACCOUNT_SELECTED: Readonly<Record<string, NamedType>> = {
  details: 'account',
  design: 'account',
  roles: 'role',
};
