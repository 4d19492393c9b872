import type { FieldType } from './field-types';
export { FIELD_TYPES, type FieldType } from './field-types';

/**
 * Permissions of an area that no model's four name: the feedback centre's development team
 * (`FEEDBACK_PERMISSIONS.develop`) and the service agents (`SERVICE_PERMISSIONS.agent`).
 */
export const AREA_EXTRAS: readonly string[] = ['feedback::develop', 'servicerequest::agent'];

/*
 * Each synced type's collection and four permissions, in the registry's order, without the
 * types' schemas: the role matrix (`PERMISSION_AREAS`, api/roles.ts) reads them on a page whose
 * first visit must not carry every model's schema (e2e/bundle-budget.test.ts: the roles page
 * went over 300 KB as issue 37 added models). The same facts as the registry's entries;
 * `permission-table.test.ts` keeps the two equal (a new model: one line here too).
 */
export const MODEL_PERMISSION_TABLE: readonly {
  readonly type: string;
  readonly collection: string;
  readonly managed?: true;
  readonly permissions: {
    readonly view: string;
    readonly create: string;
    readonly update: string;
    readonly delete: string;
  };
}[] = [
  {
    type: 'asset',
    collection: 'assets',
    permissions: {
      view: 'asset::view',
      create: 'asset::create',
      update: 'asset::edit',
      delete: 'asset::delete',
    },
  },
  {
    type: 'inspection',
    collection: 'inspections',
    permissions: {
      view: 'asset::view',
      create: 'asset::view',
      update: 'asset::view',
      delete: 'asset::edit',
    },
  },
  {
    type: 'inspection_note',
    collection: 'inspection_notes',
    permissions: {
      view: 'asset::view',
      create: 'asset::view',
      update: 'asset::edit',
      delete: 'asset::edit',
    },
  },
  {
    type: 'gateway',
    collection: 'gateways',
    permissions: {
      view: 'gateway::view',
      create: 'gateway::create',
      update: 'gateway::edit',
      delete: 'gateway::delete',
    },
  },
  {
    type: 'datastreamgroup',
    collection: 'datastreamgroups',
    permissions: {
      view: 'datastream::view',
      create: 'datastream::create',
      update: 'datastream::edit',
      delete: 'datastream::delete',
    },
  },
  {
    type: 'datastream',
    collection: 'datastreams',
    permissions: {
      view: 'datastream::view',
      create: 'datastream::create',
      update: 'datastream::edit',
      delete: 'datastream::delete',
    },
  },
  {
    type: 'connection',
    collection: 'connections',
    permissions: {
      view: 'gateway::view',
      create: 'gateway::edit',
      update: 'gateway::edit',
      delete: 'gateway::edit',
    },
  },
  {
    type: 'datapoint',
    collection: 'datapoints',
    permissions: {
      view: 'gateway::view',
      create: 'gateway::edit',
      update: 'gateway::edit',
      delete: 'gateway::edit',
    },
  },
  {
    type: 'file',
    collection: 'files',
    permissions: {
      view: 'asset::view',
      create: 'asset::edit',
      update: 'asset::edit',
      delete: 'asset::edit',
    },
  },
  {
    type: 'integration',
    collection: 'integrations',
    permissions: {
      view: 'integration::view',
      create: 'integration::create',
      update: 'integration::edit',
      delete: 'integration::delete',
    },
  },
  {
    type: 'service',
    collection: 'services',
    permissions: {
      view: 'service::view',
      create: 'service::create',
      update: 'service::edit',
      delete: 'service::delete',
    },
  },
  {
    type: 'errorcodelist',
    collection: 'errorcodelists',
    permissions: {
      view: 'errorcode::view',
      create: 'errorcode::create',
      update: 'errorcode::edit',
      delete: 'errorcode::delete',
    },
  },
  {
    type: 'template',
    collection: 'templates',
    permissions: {
      view: 'template::view',
      create: 'template::create',
      update: 'template::edit',
      delete: 'template::delete',
    },
  },
  {
    type: 'alarm',
    collection: 'alarms',
    permissions: {
      view: 'alarm::view',
      create: 'alarm::create',
      update: 'alarm::edit',
      delete: 'alarm::delete',
    },
  },
  {
    type: 'alarm_ack',
    collection: 'alarm_acks',
    permissions: {
      view: 'alarm::view',
      create: 'alarm::acknowledge',
      update: 'alarm::delete',
      delete: 'alarm::delete',
    },
  },
  {
    type: 'role',
    collection: 'roles',
    managed: true,
    permissions: {
      view: 'account::view',
      create: 'role::edit',
      update: 'role::edit',
      delete: 'role::edit',
    },
  },
  {
    type: 'user',
    collection: 'members',
    managed: true,
    permissions: {
      view: 'user::view',
      create: 'user::edit',
      update: 'user::edit',
      delete: 'user::edit',
    },
  },
  {
    type: 'account',
    collection: 'accounts',
    managed: true,
    permissions: {
      view: 'account::view',
      create: 'account::edit',
      update: 'account::edit',
      delete: 'account::edit',
    },
  },
  {
    type: 'tag',
    collection: 'tags',
    managed: true,
    permissions: {
      view: 'user::view',
      create: 'tag::edit',
      update: 'tag::edit',
      delete: 'tag::edit',
    },
  },
  {
    type: 'dashboard',
    collection: 'dashboards',
    permissions: {
      view: 'dashboard::view',
      create: 'dashboard::create',
      update: 'dashboard::edit',
      delete: 'dashboard::delete',
    },
  },
  {
    type: 'report',
    collection: 'reports',
    permissions: {
      view: 'report::view',
      create: 'report::create',
      update: 'report::edit',
      delete: 'report::delete',
    },
  },
  {
    type: 'threedmodel',
    collection: 'threedmodels',
    permissions: {
      view: 'scene::view',
      create: 'scene::create',
      update: 'scene::edit',
      delete: 'scene::delete',
    },
  },
  {
    type: 'scene',
    collection: 'scenes',
    permissions: {
      view: 'scene::view',
      create: 'scene::create',
      update: 'scene::edit',
      delete: 'scene::delete',
    },
  },
  {
    type: 'hotspot',
    collection: 'hotspots',
    permissions: {
      view: 'scene::view',
      create: 'scene::create',
      update: 'scene::edit',
      delete: 'scene::delete',
    },
  },
  {
    type: 'rendering',
    collection: 'renderings',
    permissions: {
      view: 'scene::view',
      create: 'scene::create',
      update: 'scene::edit',
      delete: 'scene::delete',
    },
  },
  {
    type: 'article',
    collection: 'articles',
    permissions: {
      view: 'helpcenter::view',
      create: 'helpcenter::edit',
      update: 'helpcenter::edit',
      delete: 'helpcenter::edit',
    },
  },
  {
    type: 'article_text',
    collection: 'article_texts',
    permissions: {
      view: 'helpcenter::view',
      create: 'helpcenter::edit',
      update: 'helpcenter::edit',
      delete: 'helpcenter::edit',
    },
  },
  {
    type: 'article_draft',
    collection: 'article_drafts',
    permissions: {
      view: 'helpcenter::edit',
      create: 'helpcenter::edit',
      update: 'helpcenter::edit',
      delete: 'helpcenter::edit',
    },
  },
  {
    type: 'ticket',
    collection: 'tickets',
    permissions: {
      view: 'feedback::view',
      create: 'feedback::view',
      update: 'feedback::view',
      delete: 'feedback::admin',
    },
  },
  {
    type: 'ticket_message',
    collection: 'ticket_messages',
    permissions: {
      view: 'feedback::view',
      create: 'feedback::view',
      update: 'feedback::admin',
      delete: 'feedback::admin',
    },
  },
  {
    type: 'ticket_vote',
    collection: 'ticket_votes',
    permissions: {
      view: 'feedback::view',
      create: 'feedback::view',
      update: 'feedback::admin',
      delete: 'feedback::view',
    },
  },
  {
    type: 'service_request',
    collection: 'service_requests',
    permissions: {
      view: 'servicerequest::view',
      create: 'servicerequest::view',
      update: 'servicerequest::view',
      delete: 'servicerequest::admin',
    },
  },
  {
    type: 'release',
    collection: 'releases',
    permissions: {
      view: 'release::view',
      create: 'release::create',
      update: 'release::edit',
      delete: 'release::delete',
    },
  },
  {
    type: 'firmware',
    collection: 'firmware',
    permissions: {
      view: 'release::view',
      create: 'release::create',
      update: 'release::edit',
      delete: 'release::delete',
    },
  },
  {
    type: 'board',
    collection: 'boards',
    permissions: {
      view: 'release::view',
      create: 'release::create',
      update: 'release::edit',
      delete: 'release::delete',
    },
  },
  {
    type: 'deployment',
    collection: 'deployments',
    permissions: {
      view: 'release::view',
      create: 'release::create',
      update: 'release::edit',
      delete: 'release::delete',
    },
  },
  {
    type: 'deployment_gateway',
    collection: 'deployment_gateways',
    permissions: {
      view: 'release::view',
      create: 'release::create',
      update: 'release::edit',
      delete: 'release::delete',
    },
  },
  {
    type: 'theme',
    collection: 'themes',
    permissions: {
      view: 'theme::view',
      create: 'theme::create',
      update: 'theme::edit',
      delete: 'theme::delete',
    },
  },
  {
    type: 'job',
    collection: 'jobs',
    permissions: {
      view: 'job::view',
      create: 'job::create',
      update: 'job::edit',
      delete: 'job::delete',
    },
  },
  {
    type: 'form',
    collection: 'forms',
    permissions: {
      view: 'form::view',
      create: 'form::create',
      update: 'form::edit',
      delete: 'form::delete',
    },
  },
  {
    type: 'form_version',
    collection: 'form_versions',
    permissions: {
      view: 'form::view',
      create: 'form::edit',
      update: 'form::edit',
      delete: 'form::edit',
    },
  },
  {
    type: 'form_entry',
    collection: 'form_entries',
    permissions: {
      view: 'form_entry::view',
      create: 'form_entry::create',
      update: 'form_entry::edit',
      delete: 'form_entry::delete',
    },
  },
  {
    type: 'task',
    collection: 'tasks',
    permissions: {
      view: 'task::view',
      create: 'task::create',
      update: 'task::edit',
      delete: 'task::delete',
    },
  },
  {
    type: 'task_state',
    collection: 'task_states',
    permissions: {
      view: 'task::view',
      create: 'task::edit',
      update: 'task::edit',
      delete: 'task::edit',
    },
  },
  {
    type: 'translation',
    collection: 'translations',
    permissions: {
      view: 'translation::view',
      create: 'translation::create',
      update: 'translation::edit',
      delete: 'translation::delete',
    },
  },
  {
    type: 'diagram',
    collection: 'diagrams',
    permissions: {
      view: 'asset::view',
      create: 'asset::edit',
      update: 'asset::edit',
      delete: 'asset::edit',
    },
  },
];

/** The fields of a type a role can show or hide (registry `choosableFields`), for the matrix. */
export const CHOOSABLE_FIELDS: Readonly<Record<FieldType, readonly string[]>> = {
  asset: [
    'name',
    'mac',
    'description',
    'gateway_id',
    'photo',
    'tags',
    'contacts',
    'status',
    'template_id',
    'position',
  ],
  datastream: [
    'name',
    'unit',
    'type',
    'vis_min',
    'vis_max',
    'state_texts',
    'preprocessing',
    'help_article',
  ],
};
