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
  setActiveAccount: (userId: string, accountId: string) =>
    `user/${seg(userId)}/setActiveAccount/${seg(accountId)}`,
  style: (accountId?: string) =>
    accountId === undefined ? 'style' : `style?account=${seg(accountId)}`,
  requestFailed: () => 'requestFailed',
  subscriptions: () => 'subscriptions',
  passwordForgot: () => 'password/forgot',
  passwordReset: () => 'password/reset',
} as const;
