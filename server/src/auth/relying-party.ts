import type { RelyingParty } from './webauthn';

/** The name authenticators show beside a passkey (and the issuer an authenticator app shows). */
export const RELYING_PARTY_NAME = 'Machine Platform';

const LOOPBACK_NAME = /^(localhost|[a-z0-9-]+(\.[a-z0-9-]+)*\.localhost)$/;

/**
 * WEBAUTHN_RP_ID and WEBAUTHN_ORIGINS (config.ts), checked: the RP ID is a host name (APP_URL's
 * by default), each origin a `scheme://host[:port]` whose host is the RP ID or below it (what
 * browsers require of a page using the RP ID), by default APP_URL's origin. `http://localhost:*`
 * takes any port, for loopback names only: the development server and the browser tests serve
 * the page on a port picked at start, and nobody else can open a page at the user's own
 * localhost. Answers the relying party's settings or the problems, one line each.
 */
export function parseRelyingParty(
  rpIdRaw: string | undefined,
  originsRaw: string | undefined,
  appUrl: string,
): { readonly relyingParty: Omit<RelyingParty, 'name'> } | { readonly problems: string[] } {
  const problems: string[] = [];
  const app = new URL(appUrl);
  // APP_URL's host as it is when none is given (an IP address: browsers then offer no passkeys).
  const id = (rpIdRaw ?? app.hostname).toLowerCase();
  if (rpIdRaw !== undefined && !/^[a-z0-9-]+(\.[a-z0-9-]+)*$/.test(id))
    problems.push('WEBAUTHN_RP_ID: must be a host name like plant.example.com');
  const origins =
    originsRaw === undefined || originsRaw.trim() === ''
      ? [app.origin]
      : originsRaw.split(',').map((o) => o.trim());
  for (const origin of origins) {
    const wildcard = origin.endsWith(':*');
    let url: URL;
    try {
      url = new URL(wildcard ? origin.slice(0, -2) : origin);
    } catch {
      problems.push(`WEBAUTHN_ORIGINS: ${origin} is not an origin like https://plant.example.com`);
      continue;
    }
    const exact = wildcard ? `${url.protocol}//${url.hostname}` : url.origin;
    if (
      (url.protocol !== 'https:' && url.protocol !== 'http:') ||
      exact !== origin.replace(/:\*$/, '')
    )
      problems.push(`WEBAUTHN_ORIGINS: ${origin} is not an origin like https://plant.example.com`);
    else if (wildcard && !LOOPBACK_NAME.test(url.hostname))
      problems.push(`WEBAUTHN_ORIGINS: a port wildcard is for localhost only (${origin})`);
    else if (url.hostname !== id && !url.hostname.endsWith(`.${id}`))
      problems.push(`WEBAUTHN_ORIGINS: ${origin} is not on the RP ID ${id} or below it`);
  }
  return problems.length > 0 ? { problems } : { relyingParty: { id, origins } };
}
