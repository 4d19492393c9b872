import { describe, expect, it } from 'vitest';
import { pushSubscriptionSchema } from '@plant/shared-schema';
import { bytesOfBase64Url, deviceOf, subscriptionBody } from './subscription-body';

/*
 * What the page sends to POST subscriptions is built from the browser's own subscription JSON.
 * Headless Chromium cannot make a real subscription (no push service without the internet), so
 * the shape is checked here against the schema the server validates with.
 */
describe('the body of POST subscriptions', () => {
  // As Chromium's PushSubscription.toJSON() gives it (an FCM endpoint, base64url keys).
  const endpoint = 'https://fcm.googleapis.com/fcm/send/dQw4w9WgXcQ:APA91bH-example';
  const json: PushSubscriptionJSON = {
    endpoint,
    expirationTime: null,
    keys: {
      p256dh:
        'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
      auth: 'tBHItJI5svbpez7KI4CCXg',
    },
  };
  const chrome =
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/150.0.0.0 Safari/537.36';

  it('carries the p256dh key as publicKey and the auth secret as authToken, and the server takes it', () => {
    const body = subscriptionBody(json, 'aes128gcm', deviceOf(chrome));
    expect(body).toEqual({
      endpoint,
      publicKey: json.keys?.p256dh,
      authToken: json.keys?.auth,
      contentEncoding: 'aes128gcm',
      deviceType: 'desktop',
      deviceBrand: 'Chrome',
    });
    expect(pushSubscriptionSchema.safeParse(body).success).toBe(true);
  });

  it('is nothing without keys (a subscription that cannot be encrypted to)', () => {
    expect(subscriptionBody({ endpoint }, 'aes128gcm', deviceOf(chrome))).toBe(null);
  });

  it('names the device from the user agent', () => {
    expect(
      deviceOf('Mozilla/5.0 (Linux; Android 14; Pixel 8) Chrome/150.0.0.0 Mobile Safari/537.36'),
    ).toEqual({ deviceType: 'mobile', deviceBrand: 'Chrome' });
    expect(
      deviceOf('Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0'),
    ).toEqual({ deviceType: 'desktop', deviceBrand: 'Firefox' });
    expect(deviceOf(`${chrome} Edg/150.0.0.0`).deviceBrand).toBe('Edge');
  });

  it('reads the VAPID key (base64url, unpadded) as the 65 bytes of a P-256 point', () => {
    const key = bytesOfBase64Url(json.keys?.p256dh ?? '');
    expect(key).toHaveLength(65);
    expect(key[0]).toBe(4);
    expect(Array.from(bytesOfBase64Url('-_8'))).toEqual([0xfb, 0xff]);
  });
});
