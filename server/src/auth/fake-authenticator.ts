import { createHash, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';

/**
 * For tests only: a software authenticator made of node:crypto keys, producing WebAuthn
 * registrations and assertions byte for byte as a browser hands them over (CBOR attestation
 * object, authenticator data, client data JSON, DER signatures), so the server's verification is
 * tested against answers nobody else's code made.
 */

type Cbor = number | string | Uint8Array | Cbor[] | Map<Cbor, Cbor>;

function head(major: number, n: number): Buffer {
  if (n < 24) return Buffer.from([(major << 5) | n]);
  if (n < 256) return Buffer.from([(major << 5) | 24, n]);
  if (n < 65536) {
    const b = Buffer.alloc(3);
    b[0] = (major << 5) | 25;
    b.writeUInt16BE(n, 1);
    return b;
  }
  const b = Buffer.alloc(5);
  b[0] = (major << 5) | 26;
  b.writeUInt32BE(n, 1);
  return b;
}

/** The canonical CBOR of a value (what the server's decoder reads). */
export function encodeCbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  if (Array.isArray(value)) return Buffer.concat([head(4, value.length), ...value.map(encodeCbor)]);
  const parts: Buffer[] = [head(5, value.size)];
  for (const [k, v] of value) parts.push(encodeCbor(k), encodeCbor(v));
  return Buffer.concat(parts);
}

const b64url = (b: Uint8Array) => Buffer.from(b).toString('base64url');

export interface FakeAuthenticatorOptions {
  readonly rpId: string;
  readonly origin: string;
  readonly algorithm?: 'ES256' | 'RS256';
}

export class FakeAuthenticator {
  readonly credentialId: Buffer;
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  signCount = 0;

  constructor(private readonly options: FakeAuthenticatorOptions) {
    this.credentialId = createHash('sha256').update(String(Math.random())).digest();
    const pair =
      options.algorithm === 'RS256'
        ? generateKeyPairSync('rsa', { modulusLength: 2048 })
        : generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey;
  }

  get id(): string {
    return b64url(this.credentialId);
  }

  private coseKey(): Buffer {
    const jwk = this.publicKey.export({ format: 'jwk' });
    const bytes = (s: string | undefined) => Buffer.from(s ?? '', 'base64url');
    if (this.options.algorithm === 'RS256')
      return encodeCbor(
        new Map<Cbor, Cbor>([
          [1, 3],
          [3, -257],
          [-1, bytes(jwk.n)],
          [-2, bytes(jwk.e)],
        ]),
      );
    return encodeCbor(
      new Map<Cbor, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, bytes(jwk.x)],
        [-3, bytes(jwk.y)],
      ]),
    );
  }

  private authData(flags: number, attested: boolean, rpId = this.options.rpId): Buffer {
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.signCount);
    const parts: Buffer[] = [
      createHash('sha256').update(rpId).digest(),
      Buffer.from([flags]),
      counter,
    ];
    if (attested) {
      const length = Buffer.alloc(2);
      length.writeUInt16BE(this.credentialId.length);
      parts.push(Buffer.alloc(16), length, this.credentialId, this.coseKey());
    }
    return Buffer.concat(parts);
  }

  private clientData(type: string, challenge: string, origin = this.options.origin): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** navigator.credentials.create's answer to `challenge`, as the registration route takes it. */
  register(
    challenge: string,
    change: { origin?: string; rpId?: string; flags?: number; fmt?: string } = {},
  ) {
    const authData = this.authData(change.flags ?? 0x45, true, change.rpId);
    const attestation = encodeCbor(
      new Map<Cbor, Cbor>([
        ['fmt', change.fmt ?? 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    return {
      id: this.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(this.clientData('webauthn.create', challenge, change.origin)),
        attestationObject: b64url(attestation),
        transports: ['internal'],
      },
    };
  }

  /** navigator.credentials.get's answer to `challenge` (the counter moves first). */
  assert(
    challenge: string,
    change: { origin?: string; counter?: number; userHandle?: string; key?: KeyObject } = {},
  ) {
    this.signCount = change.counter ?? this.signCount + 1;
    const authData = this.authData(0x05, false);
    const clientData = this.clientData('webauthn.get', challenge, change.origin);
    const signed = Buffer.concat([authData, createHash('sha256').update(clientData).digest()]);
    const key = change.key ?? this.privateKey;
    const signature =
      this.options.algorithm === 'RS256'
        ? sign('sha256', signed, key)
        : sign('sha256', signed, { key, dsaEncoding: 'der' });
    return {
      id: this.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(clientData),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        ...(change.userHandle === undefined ? {} : { userHandle: change.userHandle }),
      },
    };
  }
}
