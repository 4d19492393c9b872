import { createHash } from 'node:crypto';
import { CborError, decodeCbor, decodeCborFirst, type CborValue } from './cbor';
import {
  coseToCredentialKey,
  CoseKeyError,
  verifyCredentialSignature,
  type CredentialKey,
} from './cose-key';

/**
 * WebAuthn (Level 2) verification of a registration and of an assertion, with node:crypto and
 * no library: the steps of §7.1 and §7.2 that a relying party without attestation policy takes.
 *
 * Attestation: the options ask for `none`, and any statement that still comes (an authenticator
 * that always sends `packed` self attestation) is taken and ignored, as `none` would be: nothing
 * here decides by an authenticator's make or model, so a statement would prove nothing we use.
 */

/** Who the passkeys belong to: the RP ID browsers scope them to, and the pages that may use them. */
export interface RelyingParty {
  /** A host name (`plant.example.com`); the pages' hosts are it or below it. */
  readonly id: string;
  /** The name authenticators show. */
  readonly name: string;
  /** Origins whose pages may register and use passkeys (config WEBAUTHN_ORIGINS). */
  readonly origins: readonly string[];
}

export class WebAuthnError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebAuthnError';
  }
}

/**
 * Whether a page's origin is one the relying party names. An entry `http://localhost:*` takes
 * any port of that scheme and host (the development servers' and the browser tests' pages, whose
 * ports are picked at start); config.ts allows the wildcard for loopback names only.
 */
export function originAllowed(rp: RelyingParty, origin: string): boolean {
  return rp.origins.some((allowed) => {
    if (!allowed.endsWith(':*')) return allowed === origin;
    const prefix = allowed.slice(0, -1);
    return origin.startsWith(prefix) && /^\d{1,5}$/.test(origin.slice(prefix.length));
  });
}

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;
const FLAG_ED = 0x80;

export interface AuthenticatorData {
  readonly rpIdHash: Buffer;
  readonly flags: number;
  readonly signCount: number;
  readonly credential?: { readonly id: Buffer; readonly key: CredentialKey };
}

/** §6.1: rpIdHash, flags, signCount, then attested credential data and extensions if flagged. */
export function parseAuthenticatorData(bytes: Uint8Array): AuthenticatorData {
  if (bytes.length < 37) throw new WebAuthnError('authenticator data too short');
  const buf = Buffer.from(bytes);
  const rpIdHash = buf.subarray(0, 32);
  const flags = buf.readUInt8(32);
  const signCount = buf.readUInt32BE(33);
  let offset = 37;
  let credential: AuthenticatorData['credential'];
  if (flags & FLAG_AT) {
    if (buf.length < offset + 18) throw new WebAuthnError('attested credential data too short');
    offset += 16; // the AAGUID: unused without an attestation policy
    const idLength = buf.readUInt16BE(offset);
    offset += 2;
    if (idLength < 16 || idLength > 1023 || buf.length < offset + idLength)
      throw new WebAuthnError('credential id of an unfit length');
    const id = Buffer.from(buf.subarray(offset, offset + idLength));
    offset += idLength;
    const { value, end } = decodeCborFirst(buf.subarray(offset));
    offset += end;
    credential = { id, key: coseToCredentialKey(value) };
  }
  if (flags & FLAG_ED) {
    // Extensions are read to find the end of the data, and otherwise ignored (none asked for).
    offset += decodeCborFirst(buf.subarray(offset)).end;
  }
  if (offset !== buf.length) throw new WebAuthnError('bytes after the authenticator data');
  return {
    rpIdHash: Buffer.from(rpIdHash),
    flags,
    signCount,
    ...(credential ? { credential } : {}),
  };
}

interface ClientData {
  readonly type: string;
  readonly challenge: string;
  readonly origin: string;
  readonly crossOrigin?: boolean;
}

/** §7.1 steps 5 to 9 (§7.2 steps 10 to 14): the client data's type, origin and challenge. */
function clientDataOf(bytes: Uint8Array, type: string, rp: RelyingParty): ClientData {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw new WebAuthnError('client data is no JSON');
  }
  if (typeof parsed !== 'object' || parsed === null) throw new WebAuthnError('client data');
  const data = parsed as Record<string, unknown>;
  if (data.type !== type) throw new WebAuthnError(`client data type is not ${type}`);
  if (typeof data.challenge !== 'string' || !/^[A-Za-z0-9_-]{16,200}$/.test(data.challenge))
    throw new WebAuthnError('client data has no challenge');
  if (typeof data.origin !== 'string' || !originAllowed(rp, data.origin))
    throw new WebAuthnError('the page is not one of the relying party');
  // A passkey used inside a frame of another site is not ours to take.
  if (data.crossOrigin === true) throw new WebAuthnError('used from a cross-origin frame');
  return { type: data.type, challenge: data.challenge, origin: data.origin };
}

/** rpIdHash and the user-presence and user-verification flags (§7.1 steps 13 to 15). */
function checkFlags(auth: AuthenticatorData, rp: RelyingParty, requireUv: boolean): void {
  const expected = createHash('sha256').update(rp.id).digest();
  if (!auth.rpIdHash.equals(expected)) throw new WebAuthnError('made for another relying party');
  if ((auth.flags & FLAG_UP) === 0) throw new WebAuthnError('the user was not present');
  if (requireUv && (auth.flags & FLAG_UV) === 0) throw new WebAuthnError('the user not verified');
}

export interface VerifiedRegistration {
  /** The challenge the browser signed (base64url): the caller takes it from its store once. */
  readonly challenge: string;
  /** base64url, as the browser names the credential. */
  readonly credentialId: string;
  readonly key: CredentialKey;
  readonly signCount: number;
}

/**
 * §7.1: a new credential from navigator.credentials.create's answer. The challenge is answered
 * for the caller to check against what it issued (single use, in its store).
 */
export function verifyRegistration(
  response: { readonly clientDataJSON: Uint8Array; readonly attestationObject: Uint8Array },
  rp: RelyingParty,
  requireUv: boolean,
): VerifiedRegistration {
  try {
    const client = clientDataOf(response.clientDataJSON, 'webauthn.create', rp);
    const attestation = decodeCbor(response.attestationObject);
    if (!(attestation instanceof Map)) throw new WebAuthnError('attestation object is no map');
    const fmt: CborValue = attestation.get('fmt');
    const statement: CborValue = attestation.get('attStmt');
    const authData: CborValue = attestation.get('authData');
    if (typeof fmt !== 'string' || !(statement instanceof Map) || !(authData instanceof Uint8Array))
      throw new WebAuthnError('attestation object incomplete');
    // `none` has an empty statement; any other format's is taken and ignored (see above).
    if (fmt === 'none' && statement.size !== 0) throw new WebAuthnError('none with a statement');
    const auth = parseAuthenticatorData(authData);
    checkFlags(auth, rp, requireUv);
    if (auth.credential === undefined) throw new WebAuthnError('no credential in the answer');
    return {
      challenge: client.challenge,
      credentialId: auth.credential.id.toString('base64url'),
      key: auth.credential.key,
      signCount: auth.signCount,
    };
  } catch (err) {
    throw asWebAuthnError(err);
  }
}

export interface VerifiedAssertion {
  readonly challenge: string;
  readonly signCount: number;
}

/**
 * §7.2: an assertion of a stored credential (its key and last counter). The signature covers the
 * authenticator data and the client data's hash; a counter that does not move past the stored
 * one (when either is not zero) is a cloned authenticator's and is refused.
 */
export function verifyAssertion(
  response: {
    readonly clientDataJSON: Uint8Array;
    readonly authenticatorData: Uint8Array;
    readonly signature: Uint8Array;
  },
  stored: { readonly key: CredentialKey; readonly signCount: number },
  rp: RelyingParty,
  requireUv: boolean,
): VerifiedAssertion {
  try {
    const client = clientDataOf(response.clientDataJSON, 'webauthn.get', rp);
    const auth = parseAuthenticatorData(response.authenticatorData);
    checkFlags(auth, rp, requireUv);
    const signed = Buffer.concat([
      Buffer.from(response.authenticatorData),
      createHash('sha256').update(response.clientDataJSON).digest(),
    ]);
    if (!verifyCredentialSignature(stored.key, signed, response.signature))
      throw new WebAuthnError('the signature does not verify');
    if ((auth.signCount !== 0 || stored.signCount !== 0) && auth.signCount <= stored.signCount)
      throw new WebAuthnError('the signature counter did not move: a cloned authenticator?');
    return { challenge: client.challenge, signCount: auth.signCount };
  } catch (err) {
    throw asWebAuthnError(err);
  }
}

function asWebAuthnError(err: unknown): WebAuthnError {
  if (err instanceof WebAuthnError) return err;
  if (err instanceof CborError || err instanceof CoseKeyError)
    return new WebAuthnError(err.message);
  if (err instanceof RangeError) return new WebAuthnError('malformed WebAuthn data');
  throw err;
}
