import { randomInt } from 'node:crypto';
import { RECOVERY_CODE_COUNT } from '@plant/shared-schema';
import { sha256 } from '../lib/secrets';

/**
 * Recovery codes (issue 38 item 2): ten per user, each 10 characters of Crockford's base32
 * (50 random bits; no i, l, o, u to misread), written `xxxxx-xxxxx`. High-entropy random codes,
 * so stored as their SHA-256 like tokens (a slow hash buys nothing against 2^50 guesses behind
 * the sign-in's rate limits); each is used once.
 */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

export function newRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  return Array.from({ length: count }, () => {
    let code = '';
    for (let i = 0; i < 10; i++) code += ALPHABET[randomInt(ALPHABET.length)];
    return `${code.slice(0, 5)}-${code.slice(5)}`;
  });
}

/**
 * A typed code as stored: lower case, without spaces and hyphens, the letters people read as
 * digits made digits (Crockford's rule); undefined for a text that cannot be a code.
 */
export function normalizeRecoveryCode(typed: string): string | undefined {
  const plain = typed
    .toLowerCase()
    .replace(/[\s-]+/g, '')
    .replace(/o/g, '0')
    .replace(/[il]/g, '1');
  return /^[0-9a-hjkmnp-tv-z]{10}$/.test(plain) ? plain : undefined;
}

export function recoveryCodeHash(normalized: string): string {
  return sha256(`recovery:${normalized}`);
}
