import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/*
 * How a webhook's posts are signed (shared-schema WEBHOOK_HEADERS; server CONTEXT "Webhooks"):
 * `X-Plant-Signature: v1=<hex>`, the HMAC-SHA256 keyed with the secret's UTF-8 bytes (the whole
 * `whsec_…` text) over `${timestamp}.${body}`, where the timestamp is the X-Plant-Timestamp
 * header's text (Unix seconds of the try) and the body the bytes posted. Signing the time with
 * the body lets a receiver refuse an old post replayed; a retry is signed anew.
 */

/** A new signing secret: 32 random bytes, base64url, after a prefix that says what it is. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** The signature header's value for one try. */
export function webhookSignature(secret: string, timestamp: string, body: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/**
 * What a receiver does (and the tests): recompute, compare in constant time, and refuse a
 * timestamp further than `toleranceS` from its clock.
 */
export function verifyWebhookSignature(
  secret: string,
  timestamp: string,
  body: string,
  signature: string,
  nowMs: number,
  toleranceS = 300,
): boolean {
  if (!/^\d{1,12}$/.test(timestamp)) return false;
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > toleranceS) return false;
  const expected = Buffer.from(webhookSignature(secret, timestamp, body));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
