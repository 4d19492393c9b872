import {
  createDecipheriv,
  createECDH,
  createPublicKey,
  generateKeyPairSync,
  hkdfSync,
  randomBytes,
  sign,
  verify,
  type KeyObject,
} from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';

/*
 * A web push service on loopback HTTPS for the push channel's tests: it checks what a real one
 * checks (the VAPID JWT of RFC 8292, signed by the key it names) and decrypts the body as the
 * browser would (aes128gcm, RFC 8291 and RFC 8188), with the subscription keys a test made.
 */

// --- a self-signed certificate for 127.0.0.1, built with node:crypto (DER by hand) ---

function der(tag: number, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  const n = body.length;
  const len =
    n < 0x80
      ? Buffer.from([n])
      : n < 0x100
        ? Buffer.from([0x81, n])
        : Buffer.from([0x82, n >> 8, n & 0xff]);
  return Buffer.concat([Buffer.from([tag]), len, body]);
}
const seq = (...parts: Buffer[]) => der(0x30, ...parts);
const oid = (dotted: string) => {
  const [a = 0, b = 0, ...rest] = dotted.split('.').map(Number);
  const bytes = [a * 40 + b];
  for (const v of rest) {
    const chunk = [v & 0x7f];
    for (let x = v >> 7; x > 0; x >>= 7) chunk.unshift((x & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return der(0x06, Buffer.from(bytes));
};
const utcTime = (d: Date) =>
  der(0x17, Buffer.from(`${d.toISOString().slice(2, 19).replace(/[-T:]/g, '')}Z`));
const ECDSA_SHA256 = seq(oid('1.2.840.10045.4.3.2'));

/** A certificate for IP 127.0.0.1 signed by its own P-256 key, valid for a day. */
export function selfSignedCertificate(): { cert: string; key: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const name = seq(der(0x31, seq(oid('2.5.4.3'), der(0x0c, Buffer.from('127.0.0.1')))));
  const subjectAltName = seq(
    oid('2.5.29.17'),
    der(0x04, seq(der(0x87, Buffer.from([127, 0, 0, 1])))),
  );
  const now = Date.now();
  const tbs = seq(
    der(0xa0, der(0x02, Buffer.from([2]))),
    der(0x02, Buffer.concat([Buffer.from([0x01]), randomBytes(8)])),
    ECDSA_SHA256,
    name,
    seq(utcTime(new Date(now - 60_000)), utcTime(new Date(now + 86_400_000))),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
    der(0xa3, seq(subjectAltName)),
  );
  const signature = sign('sha256', tbs, privateKey);
  const certificate = seq(tbs, ECDSA_SHA256, der(0x03, Buffer.from([0]), signature));
  const pem = certificate.toString('base64').replace(/.{64}/g, '$&\n').trim();
  return {
    cert: `-----BEGIN CERTIFICATE-----\n${pem}\n-----END CERTIFICATE-----\n`,
    key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

// --- the browser's side of a subscription ---

/** What a browser keeps of its push subscription: its ECDH key pair and the auth secret. */
export interface BrowserKeys {
  readonly ecdh: ReturnType<typeof createECDH>;
  readonly publicKey: string;
  readonly authSecret: string;
}

export function browserKeys(): BrowserKeys {
  const ecdh = createECDH('prime256v1');
  const publicKey = ecdh.generateKeys().toString('base64url');
  return { ecdh, publicKey, authSecret: randomBytes(16).toString('base64url') };
}

/** Decrypts an aes128gcm push body (one record) as the browser does. */
export function decryptAes128gcm(body: Buffer, keys: BrowserKeys): string {
  const salt = body.subarray(0, 16);
  const idLength = body.readUInt8(20);
  const senderKey = body.subarray(21, 21 + idLength);
  const record = body.subarray(21 + idLength);
  const uaPublic = Buffer.from(keys.publicKey, 'base64url');
  // RFC 8291 §3.4: the input keying material from the ECDH secret and the auth secret.
  const ikm = Buffer.from(
    hkdfSync(
      'sha256',
      keys.ecdh.computeSecret(senderKey),
      Buffer.from(keys.authSecret, 'base64url'),
      Buffer.concat([Buffer.from('WebPush: info\0'), uaPublic, senderKey]),
      32,
    ),
  );
  // RFC 8188 §2.2, 2.3: the content key and the nonce of record 0.
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, 'Content-Encoding: aes128gcm\0', 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, 'Content-Encoding: nonce\0', 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const plain = Buffer.concat([
    decipher.update(record.subarray(0, record.length - 16)),
    decipher.final(),
  ]);
  // The last record's padding delimiter is 2, followed by zeros.
  let end = plain.length - 1;
  while (end >= 0 && plain[end] === 0) end--;
  if (plain[end] !== 2) throw new Error('not the last record: no padding delimiter 2');
  return plain.subarray(0, end).toString('utf8');
}

// --- VAPID ---

function p256Key(point: Buffer): KeyObject {
  if (point.length !== 65 || point[0] !== 4)
    throw new Error('k is not an uncompressed P-256 point');
  return createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  });
}

export interface VapidClaims {
  readonly aud: string;
  readonly exp: number;
  readonly sub: string;
}

/**
 * Checks `Authorization: vapid t=<jwt>, k=<key>` (RFC 8292 §3): an ES256 JWT whose signature the
 * key `k` verifies, for this origin, not expired and at most a day ahead. Answers the key and the
 * claims, or throws why not.
 */
export function checkVapid(
  header: string | undefined,
  origin: string,
): { key: string; claims: VapidClaims } {
  const m = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+),\s*k=([\w-]+)$/.exec(header ?? '');
  if (m === null) throw new Error(`no vapid authorization: ${header ?? '(none)'}`);
  const [jwt = '', key = ''] = [m[1], m[2]];
  const [head = '', payload = '', signature = ''] = jwt.split('.');
  const alg = (JSON.parse(Buffer.from(head, 'base64url').toString()) as { alg?: unknown }).alg;
  if (alg !== 'ES256') throw new Error(`alg ${String(alg)}`);
  const ok = verify(
    'sha256',
    Buffer.from(`${head}.${payload}`),
    { key: p256Key(Buffer.from(key, 'base64url')), dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!ok) throw new Error('the JWT signature does not verify with k');
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as VapidClaims;
  if (claims.aud !== origin) throw new Error(`aud ${claims.aud}, not ${origin}`);
  const now = Date.now() / 1000;
  if (!(claims.exp > now && claims.exp <= now + 24 * 60 * 60)) throw new Error('exp out of range');
  if (!/^(mailto:|https:)/.test(claims.sub)) throw new Error(`sub ${claims.sub}`);
  return { key, claims };
}

// --- the service ---

export interface ReceivedPush {
  readonly path: string;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Buffer;
  readonly vapid: { key: string; claims: VapidClaims };
}

/**
 * The push service: POST /<any path> with a valid VAPID header is kept and answered with the
 * status `answer(path)` gives (201 by default); an invalid one gets 403 and is kept in `refused`.
 */
export async function startPushService(answer: (path: string) => number = () => 201) {
  const { cert, key } = selfSignedCertificate();
  const received: ReceivedPush[] = [];
  const refused: string[] = [];
  const waiting: (() => void)[] = [];
  let origin = '';
  const server: Server = createServer({ cert, key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      try {
        const vapid = checkVapid(req.headers.authorization, origin);
        received.push({ path, headers: req.headers, body: Buffer.concat(chunks), vapid });
        res.writeHead(answer(path)).end();
      } catch (err) {
        refused.push(String(err));
        res.writeHead(403).end(String(err));
      }
      for (const wake of waiting.splice(0)) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    /** The certificate to trust (the https agent's `ca`). */
    ca: cert,
    received,
    refused,
    /** Resolves once `n` requests have been answered in all. */
    async requests(n: number): Promise<void> {
      while (received.length + refused.length < n) {
        await new Promise<void>((resolve) => waiting.push(resolve));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
