import { z } from 'zod';
import { deferred } from '../deferred';
import { idField } from './fields';

/*
 * Webhook integrations beside the synced `integration` model (issue 37 item 6):
 * GET integrations/{id}/deliveries?asset_id= (the delivery log, newest first), GET and POST
 * integrations/{id}/secret (the signing secret: read, or made anew), and what a webhook posts to
 * its receiver (the bodies below; the headers and the signature: `WEBHOOK_HEADERS`).
 */

/** What a webhook posts: each alarm event of a covered asset, and (if chosen) its values. */
export const WEBHOOK_EVENT_TYPES = [
  'alarm.raised',
  'alarm.cleared',
  'alarm.acknowledged',
  'values',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/**
 * The headers of every post. The signature is `v1=` and the hex HMAC-SHA256, keyed with the
 * secret's UTF-8 bytes (the whole text, `whsec_…`), over `${timestamp}.${body}`: the timestamp
 * header's text, a dot, and the body's bytes as sent. A receiver recomputes it, compares in
 * constant time and refuses timestamps far from its clock (a replay). A retry is the same
 * delivery id and body, with a new timestamp and signature.
 */
export const WEBHOOK_HEADERS = {
  delivery: 'X-Plant-Delivery',
  event: 'X-Plant-Event',
  /** Unix seconds of this attempt. */
  timestamp: 'X-Plant-Timestamp',
  signature: 'X-Plant-Signature',
} as const;

/** How a delivery stands: due (first or again), being sent, done, or given up. */
export const WEBHOOK_DELIVERY_STATES = ['waiting', 'sending', 'sent', 'failed'] as const;
export type WebhookDeliveryState = (typeof WEBHOOK_DELIVERY_STATES)[number];

/** One try of a delivery: when, the receiver's HTTP status, or why there was none. */
export const webhookAttemptSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    at: z.number(),
    /** The answer's status (2xx: delivered); null when no answer came. */
    status: z.number().int().nullable(),
    /** Why it failed without an answer (the connection's error, INTEGRATION_TEXTS), else null. */
    error: z.string().nullable(),
    /** How long the try took. */
    ms: z.number(),
  }),
);
export type WebhookAttempt = z.infer<typeof webhookAttemptSchema>;

/** One delivery of the log. */
export const webhookDeliverySchema = /* @__PURE__ */ deferred(() =>
  z.object({
    id: z.string(),
    event_type: z.enum(WEBHOOK_EVENT_TYPES),
    asset_id: z.string().nullable(),
    /** The alarm of an alarm event, else null. */
    alarm_id: z.string().nullable(),
    /** How many values a values delivery carries, else null. */
    points: z.number().int().nullable(),
    state: z.enum(WEBHOOK_DELIVERY_STATES),
    created_at: z.number(),
    /** When it is tried (again); null once it is done. */
    next_at: z.number().nullable(),
    attempts: z.array(webhookAttemptSchema),
  }),
);
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const webhookDeliveriesSchema = /* @__PURE__ */ deferred(() =>
  z.array(webhookDeliverySchema),
);

/** The delivery log's query: one asset's deliveries only (the asset page's view). */
export const webhookDeliveriesQuerySchema = /* @__PURE__ */ deferred(() =>
  z.object({ asset_id: idField.optional() }),
);

/** The signing secret, for who may edit integrations: shown to set up the receiver. */
export const integrationSecretSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    secret: z.string(),
    /** When it was made (a rotation makes a new one; the old one stops at once). */
    created_at: z.number(),
  }),
);
export type IntegrationSecret = z.infer<typeof integrationSecretSchema>;

const webhookAssetSchema = /* @__PURE__ */ deferred(() =>
  z.object({ id: z.string(), name: z.string() }),
);

/** Common to every body: which delivery, of which integration and account. */
const webhookBodyBase = /* @__PURE__ */ deferred(() =>
  z.object({
    /** The delivery's id (also the header): the same on every retry, so receivers drop repeats. */
    id: z.string(),
    account_id: z.string(),
    integration_id: z.string(),
    /** When the delivery was made (epoch ms). */
    created_at: z.number(),
    asset: webhookAssetSchema,
  }),
);

/** An alarm event's post (`alarm.raised`, `alarm.cleared`, `alarm.acknowledged`). */
export const webhookAlarmBodySchema = /* @__PURE__ */ deferred(() =>
  webhookBodyBase.extend({
    type: z.enum(['alarm.raised', 'alarm.cleared', 'alarm.acknowledged']),
    alarm: z.object({ id: z.string(), name: z.string(), severity: z.string() }),
    event: z.object({
      /** The event's own id: one delivery per event and webhook. */
      id: z.string(),
      kind: z.enum(['raised', 'cleared', 'acknowledged']),
      /** When it happened on the stream's clock (epoch ms). */
      ts: z.number(),
      value: z.number().nullable(),
      /** Raises while unacknowledged count up on one raise. */
      count: z.number().int(),
      /** Who acknowledged (a user id) and the note, for an acknowledgement. */
      by_user: z.string().nullable(),
      note: z.string().nullable(),
    }),
  }),
);
export type WebhookAlarmBody = z.infer<typeof webhookAlarmBodySchema>;

/** A batch of an asset's stored values (`values`), oldest first. */
export const webhookValuesBodySchema = /* @__PURE__ */ deferred(() =>
  webhookBodyBase.extend({
    type: z.literal('values'),
    points: z.array(
      z.object({
        stream: z.string(),
        ts: z.number(),
        value: z.union([z.number(), z.boolean(), z.string()]),
      }),
    ),
    /** Values left out of this batch past its size (the receiver missed them). */
    dropped: z.number().int(),
  }),
);
export type WebhookValuesBody = z.infer<typeof webhookValuesBodySchema>;
