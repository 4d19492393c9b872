import { describe, expect, it } from 'vitest';
import {
  base32Decode,
  base32Encode,
  hotp,
  matchTotp,
  newTotpSecret,
  otpauthUrl,
  totpAt,
  totpStep,
} from './totp';
import { newRecoveryCodes, normalizeRecoveryCode } from './recovery-codes';

/** RFC 6238 Appendix B and RFC 4226 Appendix D: the SHA-1 seed is the ASCII of "1234567890" twice. */
const SEED = Buffer.from('12345678901234567890', 'ascii');
const SEED_B32 = base32Encode(SEED);

describe('TOTP (RFC 6238 over RFC 4226)', () => {
  it('gives the HOTP values of RFC 4226 Appendix D', () => {
    const expected = [
      '755224',
      '287082',
      '359152',
      '969429',
      '338314',
      '254676',
      '287922',
      '162583',
      '399871',
      '520489',
    ];
    expect(expected.map((_, counter) => hotp(SEED, counter))).toEqual(expected);
  });

  it('gives the TOTP values of RFC 6238 Appendix B (SHA-1, 8 digits)', () => {
    const vectors: [number, string][] = [
      [59, '94287082'],
      [1111111109, '07081804'],
      [1111111111, '14050471'],
      [1234567890, '89005924'],
      [2000000000, '69279037'],
      [20000000000, '65353130'],
    ];
    for (const [seconds, code] of vectors) expect(totpAt(SEED_B32, seconds * 1000, 8)).toBe(code);
    // The six digits apps show are the last six of the same value.
    expect(totpAt(SEED_B32, 59_000)).toBe('287082');
  });

  it('takes codes of one step either side of now, once, and never one older than the last taken', () => {
    const now = 1_700_000_000_000;
    const step = totpStep(now);
    const before = totpAt(SEED_B32, now - 30_000);
    const after = totpAt(SEED_B32, now + 30_000);
    expect(matchTotp(SEED_B32, totpAt(SEED_B32, now), now, null)).toBe(step);
    expect(matchTotp(SEED_B32, before, now, null)).toBe(step - 1);
    expect(matchTotp(SEED_B32, after, now, null)).toBe(step + 1);
    expect(matchTotp(SEED_B32, totpAt(SEED_B32, now - 60_000), now, null)).toBeUndefined();
    expect(matchTotp(SEED_B32, totpAt(SEED_B32, now + 60_000), now, null)).toBeUndefined();
    // Once the current step's code was taken, it and the one before no longer count.
    expect(matchTotp(SEED_B32, totpAt(SEED_B32, now), now, step)).toBeUndefined();
    expect(matchTotp(SEED_B32, before, now, step)).toBeUndefined();
    expect(matchTotp(SEED_B32, after, now, step)).toBe(step + 1);
    expect(matchTotp(SEED_B32, 'abcdef', now, null)).toBeUndefined();
  });

  it('makes secrets of 20 random bytes in base32, and an otpauth URL apps read', () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(base32Decode(secret)).toHaveLength(20);
    expect(base32Encode(base32Decode(secret) ?? Buffer.alloc(0))).toBe(secret);
    expect(newTotpSecret()).not.toBe(secret);
    const url = otpauthUrl('Machine Platform', 'ada@demo.local', secret);
    expect(url).toBe(
      `otpauth://totp/Machine%20Platform:ada%40demo.local?secret=${secret}&issuer=Machine%20Platform&algorithm=SHA1&digits=6&period=30`,
    );
  });

  it('makes ten different recovery codes and reads them back as typed', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[0-9a-z]{5}-[0-9a-z]{5}$/);
    const first = codes[0] ?? '';
    expect(normalizeRecoveryCode(` ${first.toUpperCase()} `)).toBe(first.replace('-', ''));
    expect(normalizeRecoveryCode('123456')).toBeUndefined();
  });
});
