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
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  special.addSubnet(net, prefix, 'ipv6');
}

/** True for an address a public push service could have; false for private and special ones. */
export function isPublicAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped !== undefined) return isPublicAddress(mapped);
  const family = isIP(address);
  if (family === 0) return false;
  return !special.check(address, family === 4 ? 'ipv4' : 'ipv6');
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
