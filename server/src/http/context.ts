import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Authenticated } from '../services/auth.service';
import type { Session } from '../services/user.service';

export interface AppVariables {
  /** Set by requireAuth: the user and token behind the bearer token. */
  auth: Authenticated;
  /** Set by requireAuth: the user's session in its active account (roles, rights). */
  session: Session;
}

export interface AppEnv {
  Variables: AppVariables;
}

/** The peer address of the request (rate limits, reports). Proxies are not trusted yet. */
export function clientAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
