import type { PushSubscription as SubscriptionBody } from '@plant/shared-schema';

/*
 * The pure parts of subscribing (no browser APIs but atob): the VAPID key's bytes, the device
 * named to the server, and the body of POST subscriptions (spec 000 §3 "Push subscription").
 */

/** A base64url text (padded or not) as bytes: the VAPID key as the Push API takes it. */
export function bytesOfBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  const binary = atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '='));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** What the server is told of the device: a kind and a browser, read from the user agent. */
export function deviceOf(userAgent: string): { deviceType: string; deviceBrand: string } {
  const deviceType = /iPad|Tablet/i.test(userAgent)
    ? 'tablet'
    : /Mobi|Android|iPhone/i.test(userAgent)
      ? 'mobile'
      : 'desktop';
  const brands: readonly [RegExp, string][] = [
    [/Edg\//, 'Edge'],
    [/OPR\//, 'Opera'],
    [/Firefox\//, 'Firefox'],
    [/Chromium\//, 'Chromium'],
    [/Chrome\//, 'Chrome'],
    [/Safari\//, 'Safari'],
  ];
  const deviceBrand = brands.find(([pattern]) => pattern.test(userAgent))?.[1] ?? 'Other';
  return { deviceType, deviceBrand };
}

/**
 * The body of POST subscriptions from a subscription's JSON (`PushSubscription.toJSON()`):
 * publicKey is its p256dh key, authToken its auth secret, both base64url as the browser gives
 * them. Null when the browser gave no keys (it always does for a push service that encrypts).
 */
export function subscriptionBody(
  json: PushSubscriptionJSON,
  contentEncoding: 'aes128gcm' | 'aesgcm',
  device: { deviceType: string; deviceBrand: string },
): SubscriptionBody | null {
  const publicKey = json.keys?.p256dh;
  const authToken = json.keys?.auth;
  if (json.endpoint === undefined || publicKey === undefined || authToken === undefined) {
    return null;
  }
  return { endpoint: json.endpoint, publicKey, authToken, contentEncoding, ...device };
}
