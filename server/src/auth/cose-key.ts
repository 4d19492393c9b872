import { createPublicKey, verify, type JsonWebKey, type KeyObject } from 'node:crypto';
import type { CborValue } from './cbor';

/**
 * A credential's public key from its COSE_Key (RFC 9052 §7, RFC 9053), as WebAuthn hands it in
 * the authenticator data: ES256 (-7: EC2 on P-256, ECDSA with SHA-256) and RS256 (-257: RSA
 * PKCS#1 v1.5 with SHA-256), the two every browser asks authenticators for and the two the
 * registration options offer. Kept as a JWK (JSON in the database), turned into a KeyObject by
 * node:crypto's own JWK import, which checks the point lies on the curve.
 */
export const COSE_ALGORITHMS = { es256: -7, rs256: -257 } as const;
export type CoseAlgorithm = (typeof COSE_ALGORITHMS)[keyof typeof COSE_ALGORITHMS];

export class CoseKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CoseKeyError';
  }
}

export interface CredentialKey {
  readonly algorithm: CoseAlgorithm;
  readonly jwk: JsonWebKey;
}

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

function bytesAt(map: Map<CborValue, CborValue>, label: number, size?: number): Uint8Array {
  const value = map.get(label);
  if (!(value instanceof Uint8Array)) throw new CoseKeyError(`COSE key lacks parameter ${label}`);
  if (size !== undefined && value.length !== size)
    throw new CoseKeyError(`COSE key parameter ${label} has the wrong length`);
  return value;
}

/** The key and algorithm of a COSE_Key map; a CoseKeyError for any other kind of key. */
export function coseToCredentialKey(cose: CborValue): CredentialKey {
  if (!(cose instanceof Map)) throw new CoseKeyError('the COSE key is no map');
  const kty = cose.get(1);
  const alg = cose.get(3);
  if (alg === COSE_ALGORITHMS.es256) {
    if (kty !== 2 || cose.get(-1) !== 1) throw new CoseKeyError('ES256 needs an EC2 key on P-256');
    const jwk: JsonWebKey = {
      kty: 'EC',
      crv: 'P-256',
      x: b64url(bytesAt(cose, -2, 32)),
      y: b64url(bytesAt(cose, -3, 32)),
    };
    publicKeyOf(jwk);
    return { algorithm: COSE_ALGORITHMS.es256, jwk };
  }
  if (alg === COSE_ALGORITHMS.rs256) {
    if (kty !== 3) throw new CoseKeyError('RS256 needs an RSA key');
    const n = bytesAt(cose, -1);
    const e = bytesAt(cose, -2);
    // 2048 bits at least: shorter RSA keys are breakable; longer than 8192 only costs us time.
    const bits = (n.length - (n[0] === 0 ? 1 : 0)) * 8;
    if (bits < 2048 || bits > 8192) throw new CoseKeyError('RSA key of an unfit size');
    const jwk: JsonWebKey = { kty: 'RSA', n: b64url(n), e: b64url(e) };
    publicKeyOf(jwk);
    return { algorithm: COSE_ALGORITHMS.rs256, jwk };
  }
  throw new CoseKeyError('only ES256 and RS256 keys are taken');
}

/** The KeyObject of a stored JWK (node:crypto checks it: a point off the curve throws). */
export function publicKeyOf(jwk: JsonWebKey): KeyObject {
  try {
    return createPublicKey({ key: jwk, format: 'jwk' });
  } catch {
    throw new CoseKeyError('the public key is not valid');
  }
}

/**
 * Whether `signature` signs `data` with the key. WebAuthn's ECDSA signatures are DER (ASN.1)
 * encoded, RSA ones PKCS#1 v1.5; both over SHA-256.
 */
export function verifyCredentialSignature(
  key: CredentialKey,
  data: Uint8Array,
  signature: Uint8Array,
): boolean {
  const publicKey = publicKeyOf(key.jwk);
  try {
    return key.algorithm === COSE_ALGORITHMS.es256
      ? verify('sha256', data, { key: publicKey, dsaEncoding: 'der' }, signature)
      : verify('sha256', data, publicKey, signature);
  } catch {
    return false;
  }
}
