import { z } from 'zod';
import { deferred } from '../deferred';

const base64url = /^[A-Za-z0-9_=-]+$/;

/** POST /api/v1/subscriptions: a browser's web-push subscription, stored per user and browser. */
export const pushSubscriptionSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    endpoint: z
      .url({ protocol: /^https$/, error: 'The endpoint must be an https URL' })
      .max(2000, 'The endpoint must be an https URL'),
    publicKey: z.string({ error: 'The public key is required' }).min(1).max(200).regex(base64url),
    authToken: z.string({ error: 'The auth token is required' }).min(1).max(100).regex(base64url),
    contentEncoding: z.enum(['aesgcm', 'aes128gcm'], { error: 'Unsupported content encoding' }),
    deviceType: z.string().max(100).optional(),
    deviceBrand: z.string().max(100).optional(),
  }),
);
export type PushSubscription = z.infer<typeof pushSubscriptionSchema>;
