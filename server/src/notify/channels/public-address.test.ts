import { Agent, request } from 'node:https';
import { describe, expect, it } from 'vitest';
import { endpointIsPublic, isPublicAddress, publicOnlyLookup } from './public-address';

describe('public addresses for push endpoints', () => {
  it.each([
    ['142.250.185.74', true],
    ['2a00:1450:4001:82b::200a', true],
    ['127.0.0.1', false],
    ['10.1.2.3', false],
    ['172.20.0.1', false],
    ['192.168.178.1', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['0.0.0.0', false],
    ['::1', false],
    ['::', false],
    ['fd12:3456::1', false],
    ['fe80::1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:8.8.8.8', true],
    ['::ffff:0a00:0001', false],
    ['::ffff:0:10.0.0.1', false],
    // NAT64 (well-known prefix): the IPv4 inside decides.
    ['64:ff9b::10.0.0.1', false],
    ['64:ff9b::a9fe:a9fe', false],
    ['64:ff9b::7f00:1', false],
    ['64:ff9b::8.8.8.8', true],
    ['64:ff9b:1::8.8.8.8', false],
    // IPv4-compatible.
    ['::127.0.0.1', false],
    ['::192.168.1.1', false],
    ['::a9fe:a9fe', false],
    ['::8.8.8.8', true],
    // Site-local.
    ['fec0::1', false],
    ['feff:ffff::1', false],
    // 6to4: the IPv4 in the second and third groups decides.
    ['2002:0a00:0001::1', false],
    ['2002:c0a8:0101::', false],
    ['2002:7f00:1::1', false],
    ['2002:a9fe:a9fe::1', false],
    ['2002:0808:0808::1', true],
    // Teredo and documentation.
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', false],
    ['2001:db8::1', false],
    ['not-an-address', false],
  ])('%s is public: %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });

  it('looks at what a name resolves to', async () => {
    expect(await endpointIsPublic('https://localhost/push')).toBe(false);
    expect(await endpointIsPublic('https://127.0.0.1:8443/push')).toBe(false);
    expect(await endpointIsPublic('https://[::1]/push')).toBe(false);
    expect(await endpointIsPublic('https://[64:ff9b::a00:1]/push')).toBe(false);
    expect(await endpointIsPublic('https://[2002:a00:1::1]/push')).toBe(false);
    expect(await endpointIsPublic('https://[::7f00:1]/push')).toBe(false);
    expect(await endpointIsPublic('https://[fec0::1]/push')).toBe(false);
    expect(await endpointIsPublic('https://8.8.8.8/push')).toBe(true);
  });

  it('a connection to a name that resolves privately fails before it is made', async () => {
    const agent = new Agent({ lookup: publicOnlyLookup });
    try {
      const error = await new Promise<unknown>((resolve) => {
        const req = request('https://localhost:1/push', { method: 'POST', agent }, () =>
          resolve(undefined),
        );
        req.on('error', resolve);
        req.end();
      });
      expect((error as { code?: unknown }).code).toBe('EPRIVATEADDRESS');
    } finally {
      agent.destroy();
    }
  });
});
