import { z } from 'zod';
import { deferred } from '../deferred';

/*
 * Web push around POST /api/v1/subscriptions (its body: push-subscription.ts): taking a
 * subscription back and the key a browser subscribes with. Issue 17 item 5.
 */

/** DELETE /api/v1/subscriptions: the caller's subscription of this browser ends. */
export const pushUnsubscribeSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    endpoint: z
      .url({ protocol: /^https$/, error: 'The endpoint must be an https URL' })
      .max(2000, 'The endpoint must be an https URL'),
  }),
);
export type PushUnsubscribe = z.infer<typeof pushUnsubscribeSchema>;

/**
 * GET /api/v1/push/key: the server's VAPID public key (uncompressed P-256 point, base64url), the
 * `applicationServerKey` of `pushManager.subscribe`, and how long the browser waits for its push
 * service to answer (the server's PUSH_SUBSCRIBE_TIMEOUT_S).
 */
export const pushKeySchema = /* @__PURE__ */ deferred(() =>
  z.object({
    publicKey: z.string().regex(/^[A-Za-z0-9_-]{87}$/, 'Not a VAPID public key'),
    subscribeTimeoutMs: z.number().int().min(1000).max(300_000),
  }),
);
export type PushKey = z.infer<typeof pushKeySchema>;
