/**
 * Route builders for the calls of spec 000 §7 that exist so far. Paths are relative to the API base
 * (`/api/v1/`), except staticconf which lives at the origin. Never build these strings in place.
 */
const seg = (value: string) => encodeURIComponent(value);

export const API_BASE = '/api/v1';

export const apiPaths = {
  staticconf: () => '/staticconf',
  token: () => 'oauth/token',
  register: () => 'register',
  logout: () => 'logout',
  user: () => 'user',
  userById: (id: string) => `users/${seg(id)}`,
  userAccount: () => 'user/account',
  /** The account switcher's tree (AccountTree). */
  userAccounts: () => 'user/accounts',
  setActiveAccount: (userId: string, accountId: string) =>
    `user/${seg(userId)}/setActiveAccount/${seg(accountId)}`,
  style: (accountId?: string) =>
    accountId === undefined ? 'style' : `style?account=${seg(accountId)}`,
  requestFailed: () => 'requestFailed',
  browserMqtt: (browserId: string) => `user/browser/mqtt?browser_id=${seg(browserId)}`,
  subscriptions: () => 'subscriptions',
  passwordForgot: () => 'password/forgot',
  passwordReset: () => 'password/reset',
  collection: (collection: string) => seg(collection),
  model: (collection: string, id: string) => `${seg(collection)}/${seg(id)}`,
  mqttlogs: (fromTs: number) => `account/mqttlogs?from=${fromTs}`,
  snapshot: (cursor?: string, limit?: number) => {
    const q = new URLSearchParams();
    if (cursor !== undefined) q.set('cursor', cursor);
    if (limit !== undefined) q.set('limit', String(limit));
    const s = q.toString();
    return s === '' ? 'sync/snapshot' : `sync/snapshot?${s}`;
  },
  graph: (type: string, id: string) => `graph/${seg(type)}/${seg(id)}`,
  /** A scanned gateway QR code: its id or serial (LinkGatewayResult). */
  linkGateway: (idOrSerial: string) => `linkGateway?id=${seg(idOrSerial)}`,
} as const;

/**
 * Client routes (spec 000 §2) that the server names in its answers (linkGateway's `path`). Absolute
 * paths of the web app, not of the API.
 */
export const appPaths = {
  gatewayDetails: (id: string) => `/app/gateways/${seg(id)}/details`,
} as const;
