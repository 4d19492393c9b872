import { describe, expect, it } from 'vitest';
import { addressKey, exactAddress } from './context';

describe('addressKey: how rate limits and reports key a peer', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['::ffff:10.1.2.3', '10.1.2.3'],
    ['::1', '0:0:0:0::/64'],
    ['2001:db8:1:2:aaaa:bbbb:cccc:dddd', '2001:db8:1:2::/64'],
    ['2001:db8:1:2:ffff::1', '2001:db8:1:2::/64'],
    ['2001:0DB8:0001:0002::', '2001:db8:1:2::/64'],
    ['2001:db8::5', '2001:db8:0:0::/64'],
  ])('%s -> %s', (address, key) => {
    expect(addressKey(address)).toBe(key);
  });

  it('two addresses of one /64 share a key; neighbouring /64s do not', () => {
    expect(addressKey('2001:db8:1:2::1')).toBe(addressKey('2001:db8:1:2::ffff'));
    expect(addressKey('2001:db8:1:2::1')).not.toBe(addressKey('2001:db8:1:3::1'));
  });
});

describe('exactAddress: how a trusted proxy is recognised', () => {
  it('compares whole addresses: a neighbour in the proxy’s /64 is not the proxy', () => {
    const trusted = new Set(['2001:db8::10', '10.0.0.5'].map(exactAddress));
    expect(trusted.has(exactAddress('2001:DB8::10'))).toBe(true);
    expect(trusted.has(exactAddress('::ffff:10.0.0.5'))).toBe(true);
    expect(trusted.has(exactAddress('2001:db8::11'))).toBe(false);
    // The rate limits still count both by their /64.
    expect(addressKey('2001:db8::11')).toBe(addressKey('2001:db8::10'));
  });
});
