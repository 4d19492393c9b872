import { z } from 'zod';
import { deferred } from '../deferred';
import { idField, modelNameField } from '../api/fields';
import type { ModelDefinition } from './registry-types';
import { ownPermissions } from './model-permissions';
import { INTEGRATION_TEXTS } from './integration-texts';

/** Settings of an integration or a service: names to texts (an endpoint, a key name, a note). */
const settingsField = /* @__PURE__ */ deferred(() =>
  z
    .record(z.string().min(1).max(100), z.string().max(2000))
    .refine((s) => Object.keys(s).length <= 50, 'At most 50 settings.')
    .default({}),
);

/** The kind of integration whose typed part is `webhook` (issue 37 item 6). */
export const WEBHOOK_KIND = 'webhook';

/** An integration's page: /app/integration/{slug}, and an asset's /app/devices/{id}/i/{slug}. */
export const integrationSlugField = /* @__PURE__ */ deferred(() =>
  z
    .string({ error: INTEGRATION_TEXTS.slug })
    .max(80, INTEGRATION_TEXTS.slug)
    .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, INTEGRATION_TEXTS.slug),
);

/**
 * Where a webhook posts: http or https, a host, no user name or password (those would be synced
 * to every reader of the integration; a receiver checks the signature instead).
 */
export const webhookUrlField = /* @__PURE__ */ deferred(() =>
  z
    .string({ error: INTEGRATION_TEXTS.url })
    .trim()
    .max(2000, INTEGRATION_TEXTS.url)
    .refine((text) => {
      try {
        const url = new URL(text);
        return (
          (url.protocol === 'http:' || url.protocol === 'https:') &&
          url.hostname !== '' &&
          url.username === '' &&
          url.password === ''
        );
      } catch {
        return false;
      }
    }, INTEGRATION_TEXTS.url),
);

/**
 * A webhook's typed part (kind 'webhook'): the address it posts each alarm event of the assets it
 * covers to, signed with the integration's secret (kept by the server, never synced: server
 * CONTEXT "Webhooks"), and whether it posts their stored values too.
 */
export const webhookSettingsSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    url: webhookUrlField,
    /** Batches of the covered assets' stored values, at most one per asset every few seconds. */
    send_values: z.boolean().default(false),
    /** Every asset of the account, now and later; false: only `asset_ids`. */
    all_assets: z.boolean().default(true),
    asset_ids: z.array(idField).max(500).default([]),
  }),
);
export type WebhookSettings = z.infer<typeof webhookSettingsSchema>;

/** An integration of the account with another system (spec 000 §2 accounts/…/integrations). */
export const integrationAttributesSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    name: modelNameField,
    kind: z.string().trim().max(100).default(''),
    /** Its page's address, unique within the account; integrations made before have none. */
    slug: integrationSlugField.nullable().default(null),
    settings: settingsField,
    enabled: z.boolean().default(true),
    /**
     * What a webhook (kind 'webhook') posts where; null: not set up yet, it posts nothing. Not
     * required of the kind: integrations typed 'webhook' by hand before this part existed keep
     * being written as they were.
     */
    webhook: webhookSettingsSchema.nullable().default(null),
  }),
);
export type IntegrationAttributes = z.infer<typeof integrationAttributesSchema>;

/** Whether a webhook sends the events of this asset (its own list, or every asset). */
export function webhookCovers(webhook: WebhookSettings, assetId: string | null): boolean {
  if (assetId === null) return false;
  return webhook.all_assets || webhook.asset_ids.includes(assetId);
}

export const integrationModel = {
  type: 'integration',
  collection: 'integrations',
  parentType: 'account',
  attributes: integrationAttributesSchema,
  permissions: ownPermissions('integration'),
  sortField: 'name',
} as const satisfies ModelDefinition<'integration', typeof integrationAttributesSchema>;

/** A service the machine builder offers the account (spec 000 §2 accounts/…/services). */
export const serviceAttributesSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    name: modelNameField,
    description: z.string().max(5000).default(''),
    settings: settingsField,
  }),
);
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
export const errorCodeSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    code: z.string().trim().min(1, 'Field is required').max(50),
    text: z.string().trim().min(1, 'Field is required').max(500),
  }),
);

/** A list of a machine's error codes and their texts (spec 000 §2 accounts/…/errorcodelists). */
export const errorCodeListAttributesSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    name: modelNameField,
    codes: z
      .array(errorCodeSchema)
      .max(2000)
      .refine(
        (codes) => new Set(codes.map((c) => c.code)).size === codes.length,
        'Each code may be listed once.',
      )
      .default([]),
  }),
);
export type ErrorCodeListAttributes = z.infer<typeof errorCodeListAttributesSchema>;

export const errorCodeListModel = {
  type: 'errorcodelist',
  collection: 'errorcodelists',
  parentType: 'account',
  attributes: errorCodeListAttributesSchema,
  permissions: ownPermissions('errorcode'),
  sortField: 'name',
} as const satisfies ModelDefinition<'errorcodelist', typeof errorCodeListAttributesSchema>;
