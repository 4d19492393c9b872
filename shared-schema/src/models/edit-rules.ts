import type { ModelType } from './registry';

/**
 * What changing a model of each type takes: the permission of its updates, and where its asset is
 * (`self`, the attribute holding the asset's id, or null outside any asset), and whether that
 * asset may be absent. The same facts as the registry's `permissions.update`, `asset` and
 * `assetOptional`, in a module without the types' schemas: the
 * client's edit controls read it without loading every schema on first visit (issue 30 item 5).
 * `edit-rules.test.ts` keeps it equal to the registry.
 */
export const EDIT_RULES = {
  asset: { update: 'asset::edit', asset: 'self' },
  inspection: { update: 'asset::view', asset: 'asset_id' },
  inspection_note: { update: 'asset::edit', asset: 'asset_id' },
  gateway: { update: 'gateway::edit', asset: null },
  datastreamgroup: { update: 'datastream::edit', asset: 'asset_id' },
  datastream: { update: 'datastream::edit', asset: 'asset_id' },
  connection: { update: 'gateway::edit', asset: null },
  datapoint: { update: 'gateway::edit', asset: null },
  file: { update: 'asset::edit', asset: 'asset_id', assetOptional: true },
  integration: { update: 'integration::edit', asset: null },
  service: { update: 'service::edit', asset: null },
  errorcodelist: { update: 'errorcode::edit', asset: null },
  template: { update: 'template::edit', asset: null },
  alarm: { update: 'alarm::edit', asset: 'asset_id' },
  alarm_ack: { update: 'alarm::delete', asset: 'asset_id' },
  role: { update: 'role::edit', asset: null },
  user: { update: 'user::edit', asset: null },
  account: { update: 'account::edit', asset: null },
  tag: { update: 'tag::edit', asset: null },
  dashboard: { update: 'dashboard::edit', asset: 'asset_id', assetOptional: true },
  report: { update: 'report::edit', asset: 'asset_id', assetOptional: true },
  threedmodel: { update: 'scene::edit', asset: 'asset_id', assetOptional: true },
  scene: { update: 'scene::edit', asset: 'asset_id', assetOptional: true },
  hotspot: { update: 'scene::edit', asset: 'asset_id', assetOptional: true },
  rendering: { update: 'scene::edit', asset: 'asset_id', assetOptional: true },
  article: { update: 'helpcenter::edit', asset: null },
  article_text: { update: 'helpcenter::edit', asset: null },
  article_draft: { update: 'helpcenter::edit', asset: null },
  ticket: { update: 'feedback::view', asset: null },
  ticket_message: { update: 'feedback::admin', asset: null },
  ticket_vote: { update: 'feedback::admin', asset: null },
  firmware: { update: 'release::edit', asset: null },
  board: { update: 'release::edit', asset: null },
  release: { update: 'release::edit', asset: null },
  deployment: { update: 'release::edit', asset: null },
  deployment_gateway: { update: 'release::edit', asset: null },
  service_request: { update: 'servicerequest::view', asset: 'asset_id' },
  theme: { update: 'theme::edit', asset: null },
  job: { update: 'job::edit', asset: null },
  translation: { update: 'translation::edit', asset: null },
  diagram: { update: 'asset::edit', asset: 'asset_id' },
  form: { update: 'form::edit', asset: null },
  form_version: { update: 'form::edit', asset: null },
  form_entry: { update: 'form_entry::edit', asset: 'asset_id' },
  task: { update: 'task::edit', asset: null },
  task_state: { update: 'task::edit', asset: 'asset_id' },
} as const satisfies Record<ModelType, EditRule>;

/** A type's edit rule; `assetOptional`: without an asset, the model is the account's. */
export interface EditRule {
  readonly update: string;
  readonly asset: string | null;
  readonly assetOptional?: true;
}

export function editRuleOf(type: string): EditRule | undefined {
  return (EDIT_RULES as Readonly<Record<string, EditRule>>)[type];
}
