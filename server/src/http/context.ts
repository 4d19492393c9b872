import type { Context } from 'hono';
import type { HttpBindings } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Authenticated } from '../services/auth.service';
import type { Session } from '../services/user.service';

export interface AppVariables {
  /** Set by requireAuth: the user and token behind the bearer token. */
  auth: Authenticated;
  /** Set by requireAuth: the user's session in its active account (roles, rights). */
  session: Session;
  /** Set for every request: the proxies whose X-Forwarded-For is believed (TRUSTED_PROXIES). */
  trustedProxies: ReadonlySet<string>;
}

export interface AppEnv {
  Variables: AppVariables;
  /** Present when served by @hono/node-server; absent when a test calls app.fetch directly. */
  Bindings: Partial<HttpBindings>;
}

/**
 * One request header. Read from node's own request when there is one: asking Hono makes the node
 * adapter build a whole undici Headers object, a measurable share of a cached GET.
 */
export function requestHeader(c: Context<AppEnv>, name: string): string | undefined {
  const incoming = c.env.incoming;
  if (incoming === undefined) return c.req.header(name);
  const value = incoming.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The peer of the request, as rate limits and reports key it. An IPv6 peer is cut to its /64:
 * one machine commonly holds a whole /64, and counting each address apart would give it endless
 * fresh limits. Behind a load balancer named in TRUSTED_PROXIES, the peer is the balancer: then
 * the client is the right-most address of X-Forwarded-For that is not itself a trusted proxy
 * (what a client writes there itself sits further left and is never believed).
 */
export function clientAddress(c: Context<AppEnv>): string {
  let address: string | undefined;
  try {
    address = getConnInfo(c).remote.address;
  } catch {
    address = undefined;
  }
  if (address === undefined) return 'unknown';
  const trusted = c.get('trustedProxies') as ReadonlySet<string> | undefined;
  // Trust compares whole addresses (never the /64 the limits count by: a neighbour in the
  // proxy's /64 is not the proxy).
  if (trusted !== undefined && trusted.has(exactAddress(address))) {
    const forwarded = (requestHeader(c, 'x-forwarded-for') ?? '')
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part !== '');
    for (let i = forwarded.length - 1; i >= 0; i--) {
      const hop = forwarded[i] ?? '';
      if (!trusted.has(exactAddress(hop))) return addressKey(hop);
    }
  }
  return addressKey(address);
}

/** An address as trust compares it: IPv4-mapped IPv6 as IPv4, hex digits in lower case. */
export function exactAddress(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped?.[1] ?? address.toLowerCase();
}

export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1] !== undefined) return mapped[1];
  if (!address.includes(':')) return address;
  const [head = '', tail = ''] = address.split('::', 2);
  const left = head === '' ? [] : head.split(':');
  const right = address.includes('::') ? (tail === '' ? [] : tail.split(':')) : [];
  const groups = address.includes('::')
    ? [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => (g.replace(/^0+/, '') || '0').toLowerCase())
    .join(':')}::/64`;
}
