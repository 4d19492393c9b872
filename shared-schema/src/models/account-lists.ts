import { z } from 'zod';
import { modelNameField } from '../api/fields';
import type { ModelDefinition } from './registry-types';
import { ownPermissions } from './model-permissions';

/** Settings of an integration or a service: names to texts (an endpoint, a key name, a note). */
const settingsField = z
  .record(z.string().min(1).max(100), z.string().max(2000))
  .refine((s) => Object.keys(s).length <= 50, 'At most 50 settings.')
  .default({});

/** An integration of the account with another system (spec 000 §2 accounts/…/integrations). */
export const integrationAttributesSchema = z.object({
  name: modelNameField,
  kind: z.string().trim().max(100).default(''),
  settings: settingsField,
  enabled: z.boolean().default(true),
});
export type IntegrationAttributes = z.infer<typeof integrationAttributesSchema>;

export const integrationModel = {
  type: 'integration',
  collection: 'integrations',
  parentType: 'account',
  attributes: integrationAttributesSchema,
  permissions: ownPermissions('integration'),
  sortField: 'name',
} as const satisfies ModelDefinition<'integration', typeof integrationAttributesSchema>;

/** A service the machine builder offers the account (spec 000 §2 accounts/…/services). */
export const serviceAttributesSchema = z.object({
  name: modelNameField,
  description: z.string().max(5000).default(''),
  settings: settingsField,
});
export type ServiceAttributes = z.infer<typeof serviceAttributesSchema>;

export const serviceModel = {
  type: 'service',
  collection: 'services',
  parentType: 'account',
  attributes: serviceAttributesSchema,
  permissions: ownPermissions('service'),
  sortField: 'name',
} as const satisfies ModelDefinition<'service', typeof serviceAttributesSchema>;

/** One error code of a list: the code a machine reports and the text people read. */
export const errorCodeSchema = z.object({
  code: z.string().trim().min(1, 'Field is required').max(50),
  text: z.string().trim().min(1, 'Field is required').max(500),
});

/** A list of a machine's error codes and their texts (spec 000 §2 accounts/…/errorcodelists). */
export const errorCodeListAttributesSchema = z.object({
  name: modelNameField,
  codes: z
    .array(errorCodeSchema)
    .max(2000)
    .refine(
      (codes) => new Set(codes.map((c) => c.code)).size === codes.length,
      'Each code may be listed once.',
    )
    .default([]),
});
export type ErrorCodeListAttributes = z.infer<typeof errorCodeListAttributesSchema>;

export const errorCodeListModel = {
  type: 'errorcodelist',
  collection: 'errorcodelists',
  parentType: 'account',
  attributes: errorCodeListAttributesSchema,
  permissions: ownPermissions('errorcode'),
  sortField: 'name',
} as const satisfies ModelDefinition<'errorcodelist', typeof errorCodeListAttributesSchema>;
