import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Time-based one-time passwords as authenticator apps make them: RFC 6238 over RFC 4226's HOTP
 * with HMAC-SHA1, 30-second steps, 6 digits (what every app takes from an otpauth URL without
 * asking). The secret is 20 random bytes (RFC 4226 §4 asks for at least 128 bits; 160 is
 * SHA-1's block-friendly size and what apps expect), shown as base32.
 */
export const TOTP_STEP_MS = 30_000;
export const TOTP_DIGITS = 6;
/** Steps on either side of now that still count: a phone's clock a little off, a slow typist. */
export const TOTP_WINDOW = 1;

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 without padding (apps take it so). */
export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/** The bytes of a base32 text (case and padding ignored); undefined for a text that is not. */
export function base32Decode(text: string): Buffer | undefined {
  const clean = text.replace(/=+$/, '').toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const ch of clean) {
    const index = BASE32.indexOf(ch);
    if (index < 0) return undefined;
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** A new secret: 20 random bytes as base32 (32 characters). */
export function newTotpSecret(): string {
  return base32Encode(randomBytes(20));
}

/** RFC 4226 §5.3: HOTP of a counter, `digits` long, with dynamic truncation. */
export function hotp(key: Uint8Array, counter: number, digits = TOTP_DIGITS): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', key).update(message).digest();
  const offset = (mac[mac.length - 1] ?? 0) & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** The 30-second step a moment falls in (RFC 6238's T, with T0 = 0). */
export function totpStep(atMs: number): number {
  return Math.floor(atMs / TOTP_STEP_MS);
}

/** The code an app shows at a moment. */
export function totpAt(secret: string, atMs: number, digits = TOTP_DIGITS): string {
  const key = base32Decode(secret);
  if (key === undefined) throw new Error('the TOTP secret is not base32');
  return hotp(key, totpStep(atMs), digits);
}

/**
 * The step whose code `code` is, within the window around `nowMs` and after `lastStep` (a code
 * taken once is never taken again, nor one older than it); undefined when none. Every step of
 * the window is compared, in constant time, so timing does not tell which one matched.
 */
export function matchTotp(
  secret: string,
  code: string,
  nowMs: number,
  lastStep: number | null,
): number | undefined {
  const key = base32Decode(secret);
  if (key === undefined || !/^\d{6}$/.test(code)) return undefined;
  const now = totpStep(nowMs);
  let found: number | undefined;
  for (let step = now - TOTP_WINDOW; step <= now + TOTP_WINDOW; step++) {
    const same = timingSafeEqual(Buffer.from(hotp(key, step)), Buffer.from(code));
    if (same && found === undefined && (lastStep === null || step > lastStep)) found = step;
  }
  return found;
}

/**
 * The otpauth URL an app reads from the QR code (Google Authenticator's Key Uri Format): the
 * label names the issuer and the account, the parameters repeat the issuer and say the defaults
 * out loud (some apps assume nothing).
 */
export function otpauthUrl(issuer: string, account: string, secret: string): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  // Percent-encoded, not URLSearchParams's `+` for a space, which apps show as a plus.
  const query = [
    ['secret', secret],
    ['issuer', issuer],
    ['algorithm', 'SHA1'],
    ['digits', String(TOTP_DIGITS)],
    ['period', String(TOTP_STEP_MS / 1000)],
  ]
    .map(([k, v]) => `${k}=${encodeURIComponent(v ?? '')}`)
    .join('&');
  return `otpauth://totp/${label}?${query}`;
}
