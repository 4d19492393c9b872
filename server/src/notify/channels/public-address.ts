import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/*
 * Push endpoints come from browsers, that is from any signed-in user: without a check, one could
 * make the server POST to hosts inside the plant network or the cloud's metadata service. Real
 * push services (FCM, Mozilla, Apple, Windows) are public, so endpoints on private, loopback,
 * link-local and other special addresses are refused, both when the name is looked at and when
 * the connection is made (a name may resolve differently the second time).
 */

const special = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  special.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  // Local-use NAT64 (RFC 8215): translated by the site's own gateway, into its own network.
  ['64:ff9b:1::', 48],
  // Teredo: the IPv4 inside is obfuscated, and no push service is reached through it.
  ['2001::', 32],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  // Site-local (deprecated, RFC 3879), still routed inside some sites.
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  special.addSubnet(net, prefix, 'ipv6');
}

/** The eight 16-bit groups of a valid IPv6 address (a dotted IPv4 tail included). */
function groupsOf(address: string): number[] {
  let text = address.replace(/%.*$/, '');
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted !== null) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const before = groups(head);
  const after = tail === undefined ? [] : groups(tail);
  return [...before, ...Array<number>(8 - before.length - after.length).fill(0), ...after];
}

/**
 * The IPv4 address an IPv6 address carries to an IPv4 host: IPv4-mapped (`::ffff:a.b.c.d`),
 * IPv4-translated (`::ffff:0:a.b.c.d`), IPv4-compatible (`::a.b.c.d`), NAT64's well-known prefix
 * (`64:ff9b::/96`) and 6to4 (`2002:AABB:CCDD::/48`). Such an address reaches that IPv4 host, so
 * the IPv4 rules decide (`64:ff9b::10.0.0.1` is the plant's 10.0.0.1 behind a NAT64 gateway).
 */
function embeddedIpv4(address: string): string | undefined {
  const g = groupsOf(address);
  const at = (i: number) => g[i] ?? 0;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zero(0, 5) && (at(5) === 0xffff || at(5) === 0)) return v4(at(6), at(7));
  if (zero(0, 4) && at(4) === 0xffff && at(5) === 0) return v4(at(6), at(7));
  if (at(0) === 0x64 && at(1) === 0xff9b && zero(2, 6)) return v4(at(6), at(7));
  if (at(0) === 0x2002) return v4(at(1), at(2));
  return undefined;
}

/** True for an address a public push service could have; false for private and special ones. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 4) return !special.check(address, 'ipv4');
  const ipv4 = embeddedIpv4(address);
  if (ipv4 !== undefined) return isPublicAddress(ipv4);
  return !special.check(address.replace(/%.*$/, ''), 'ipv6');
}

/** The host of a URL as `isIP` reads it (IPv6 without its brackets). */
export function hostOf(url: string): string {
  return new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
}

/** Whether every address the endpoint's host has now is public. */
export async function endpointIsPublic(endpoint: string): Promise<boolean> {
  const host = hostOf(endpoint);
  if (isIP(host) !== 0) return isPublicAddress(host);
  const addresses = await new Promise<LookupAddress[]>((resolve) =>
    dnsLookup(host, { all: true }, (err, found) => resolve(err === null ? found : [])),
  );
  // A name that does not resolve is left to the request (a failure to retry, not a refusal).
  return addresses.every((a) => isPublicAddress(a.address));
}

/** A `lookup` for sockets that fails for names resolving to anything but public addresses. */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, found) => {
    if (err !== null) return callback(err, '', 4);
    const refused = found.find((a) => !isPublicAddress(a.address));
    if (refused !== undefined) {
      const error = Object.assign(
        new Error(`${hostname} resolves to ${refused.address}, not public`),
        {
          code: 'EPRIVATEADDRESS',
        },
      );
      return callback(error, '', 4);
    }
    if (options.all === true) {
      return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, found);
    }
    const first = found[0];
    if (first === undefined) return callback(new Error(`${hostname} has no address`), '', 4);
    return callback(null, first.address, first.family);
  });
};
