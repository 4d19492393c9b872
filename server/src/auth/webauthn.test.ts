import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CborError, decodeCbor } from './cbor';
import { encodeCbor, FakeAuthenticator } from './fake-authenticator';
import { parseRelyingParty } from './relying-party';
import { verifyAssertion, verifyRegistration, WebAuthnError, type RelyingParty } from './webauthn';

const RP: RelyingParty = {
  id: 'plant.test',
  name: 'Machine Platform',
  origins: ['https://plant.test', 'http://localhost:*'],
};
const b = (s: string) => Buffer.from(s, 'base64url');
const challenge = () => randomBytes(32).toString('base64url');

function registered(device: FakeAuthenticator, c = challenge()) {
  const answer = device.register(c);
  return verifyRegistration(
    {
      clientDataJSON: b(answer.response.clientDataJSON),
      attestationObject: b(answer.response.attestationObject),
    },
    RP,
    false,
  );
}

function asserted(
  stored: ReturnType<typeof registered>,
  answer: ReturnType<FakeAuthenticator['assert']>,
  signCount = stored.signCount,
) {
  return verifyAssertion(
    {
      clientDataJSON: b(answer.response.clientDataJSON),
      authenticatorData: b(answer.response.authenticatorData),
      signature: b(answer.response.signature),
    },
    { key: stored.key, signCount },
    RP,
    false,
  );
}

describe('WebAuthn verification with node:crypto', () => {
  for (const algorithm of ['ES256', 'RS256'] as const) {
    it(`verifies a registration and an assertion made with ${algorithm} keys`, () => {
      const device = new FakeAuthenticator({
        rpId: RP.id,
        origin: 'https://plant.test',
        algorithm,
      });
      const c = challenge();
      const reg = registered(device, c);
      expect(reg.challenge).toBe(c);
      expect(reg.credentialId).toBe(device.id);
      expect(reg.key.algorithm).toBe(algorithm === 'ES256' ? -7 : -257);
      const c2 = challenge();
      const ok = asserted(reg, device.assert(c2));
      expect(ok).toEqual({ challenge: c2, signCount: 1 });
    });
  }

  it('refuses another origin, another RP ID, no user presence and a foreign signature', () => {
    const device = new FakeAuthenticator({ rpId: RP.id, origin: 'https://plant.test' });
    const reg = registered(device);
    const create = (change: Parameters<FakeAuthenticator['register']>[1]) => {
      const answer = device.register(challenge(), change);
      return () =>
        verifyRegistration(
          {
            clientDataJSON: b(answer.response.clientDataJSON),
            attestationObject: b(answer.response.attestationObject),
          },
          RP,
          false,
        );
    };
    expect(create({ origin: 'https://evil.example' })).toThrow(WebAuthnError);
    expect(create({ origin: 'http://127.0.0.1:3000' })).toThrow(WebAuthnError);
    expect(create({ rpId: 'evil.example' })).toThrow(/another relying party/);
    expect(create({ flags: 0x44 })).toThrow(/not present/);
    // Any port of localhost (the development and test pages), nothing else with a wildcard.
    expect(create({ origin: 'http://localhost:41234' })).not.toThrow();
    expect(create({ origin: 'http://localhost.evil.example:1' })).toThrow(WebAuthnError);
    // An attestation format other than none is taken, its statement ignored.
    expect(create({ fmt: 'packed' })).not.toThrow();

    const other = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    expect(() => asserted(reg, device.assert(challenge(), { key: other }))).toThrow(
      /does not verify/,
    );
    expect(() =>
      asserted(reg, device.assert(challenge(), { origin: 'https://evil.example' })),
    ).toThrow(WebAuthnError);
  });

  it('refuses an assertion whose counter does not move past the stored one (a clone)', () => {
    const device = new FakeAuthenticator({ rpId: RP.id, origin: 'https://plant.test' });
    const reg = registered(device);
    expect(asserted(reg, device.assert(challenge(), { counter: 5 }), 0).signCount).toBe(5);
    expect(() => asserted(reg, device.assert(challenge(), { counter: 5 }), 5)).toThrow(/counter/);
    expect(() => asserted(reg, device.assert(challenge(), { counter: 3 }), 5)).toThrow(/counter/);
  });

  it('reads CBOR within bounds and refuses junk as a WebAuthn failure, never a crash', () => {
    expect(decodeCbor(encodeCbor(new Map([['a', [1, -2, 'x']]])))).toEqual(
      new Map([['a', [1, -2, 'x']]]),
    );
    expect(() =>
      decodeCbor(Buffer.from([0x9b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff])),
    ).toThrow(CborError);
    expect(() => decodeCbor(Buffer.from([0x5f]))).toThrow(CborError);
    expect(() => decodeCbor(Buffer.alloc(40, 0x81))).toThrow(/deep/);
    const device = new FakeAuthenticator({ rpId: RP.id, origin: 'https://plant.test' });
    const valid = device.register(challenge());
    const attestation = b(valid.response.attestationObject);
    for (let i = 0; i < 300; i++) {
      // Random bytes, and the real object cut short or with a byte changed.
      const junk =
        i % 3 === 0
          ? randomBytes(1 + (i % 90))
          : i % 3 === 1
            ? attestation.subarray(0, i % attestation.length)
            : Buffer.from(attestation).fill(
                i % 256,
                i % attestation.length,
                1 + (i % attestation.length),
              );
      const attempt = () =>
        verifyRegistration(
          { clientDataJSON: b(valid.response.clientDataJSON), attestationObject: junk },
          RP,
          false,
        );
      if (junk.equals(attestation)) continue;
      try {
        attempt();
      } catch (err) {
        expect(err).toBeInstanceOf(WebAuthnError);
      }
    }
  });

  it('reads WEBAUTHN_RP_ID and WEBAUTHN_ORIGINS: origins on the RP ID, a port wildcard for localhost only', () => {
    expect(parseRelyingParty(undefined, undefined, 'https://plant.example.com')).toEqual({
      relyingParty: { id: 'plant.example.com', origins: ['https://plant.example.com'] },
    });
    expect(
      parseRelyingParty(
        'example.com',
        'https://plant.example.com,https://example.com',
        'http://x:1',
      ),
    ).toEqual({
      relyingParty: {
        id: 'example.com',
        origins: ['https://plant.example.com', 'https://example.com'],
      },
    });
    expect(parseRelyingParty('localhost', 'http://localhost:*', 'http://127.0.0.1:0')).toEqual({
      relyingParty: { id: 'localhost', origins: ['http://localhost:*'] },
    });
    const problems = (rpId: string | undefined, origins: string) => {
      const parsed = parseRelyingParty(rpId, origins, 'https://plant.example.com');
      return 'problems' in parsed ? parsed.problems : [];
    };
    expect(problems(undefined, 'https://evil.example')).toEqual([
      'WEBAUTHN_ORIGINS: https://evil.example is not on the RP ID plant.example.com or below it',
    ]);
    expect(problems('example.com', 'https://plant.example.com:*')).toEqual([
      'WEBAUTHN_ORIGINS: a port wildcard is for localhost only (https://plant.example.com:*)',
    ]);
    expect(problems('https://example.com', 'https://example.com')).toHaveLength(2);
    expect(problems(undefined, 'https://plant.example.com/path')).toHaveLength(1);
  });
});
