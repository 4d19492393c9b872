import os from 'node:os';
import { STATIC_IP_MISSING, type GatewayNetwork } from '@plant/shared-schema';

export interface InterfaceAddress {
  readonly interface: string;
  readonly family: 'IPv4' | 'IPv6';
  readonly address: string;
  readonly netmask: string;
}

/** The machine's real addresses (loopback left out), reported in every status. */
export function realAddresses(): InterfaceAddress[] {
  const out: InterfaceAddress[] = [];
  for (const [name, list] of Object.entries(os.networkInterfaces())) {
    for (const a of list ?? []) {
      if (a.internal) continue;
      out.push({ interface: name, family: a.family, address: a.address, netmask: a.netmask });
    }
  }
  return out.slice(0, 64);
}

/**
 * What is wrong with the network settings the server holds for this gateway (spec 001 §3, §8):
 * a static setup without address or mask, or with an address this machine does not have. The
 * agent does not change the machine's network itself (the edge box's own tools do); it reports.
 */
export function networkProblems(
  network: GatewayNetwork,
  addresses: readonly InterfaceAddress[],
): string[] {
  if (network.ip_assignment !== 'static') return [];
  if (network.ip === null || network.subnet_mask === null) return [STATIC_IP_MISSING];
  const match = addresses.find((a) => a.family === 'IPv4' && a.address === network.ip);
  if (match === undefined) {
    const have = addresses.filter((a) => a.family === 'IPv4').map((a) => a.address);
    return [
      `${STATIC_IP_MISSING} The gateway is set to ${network.ip}, this machine has ${have.join(', ') || 'no IPv4 address'}.`,
    ];
  }
  if (match.netmask !== network.subnet_mask) {
    return [
      `${STATIC_IP_MISSING} The subnet mask is set to ${network.subnet_mask}, this machine uses ${match.netmask}.`,
    ];
  }
  return [];
}
