/** Where a sign-in goes when it was not sent from somewhere else. */
export const DEFAULT_AFTER_SIGN_IN = '/app/devices/list';

/**
 * The `redirect` of /user/login?redirect= as a path of this app, or the default. Only a path of
 * this origin is followed: an absolute URL, a protocol-relative `//host`, a backslash trick
 * (`/\host`, which browsers read as `//host`) or anything that resolves to another origin is an
 * open redirect and is ignored. The value is normalised by the URL parser (which also drops tabs
 * and newlines) and only the parsed path, search and hash are used.
 */
export function safeRedirect(raw: string | undefined, origin: string): string {
  if (raw === undefined || !raw.startsWith('/') || raw.startsWith('//') || raw.includes('\\')) {
    return DEFAULT_AFTER_SIGN_IN;
  }
  let url: URL;
  try {
    url = new URL(raw, origin);
  } catch {
    return DEFAULT_AFTER_SIGN_IN;
  }
  if (url.origin !== origin) return DEFAULT_AFTER_SIGN_IN;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // Back into the user area would only bounce (a signed-in user is sent to the app from there).
  if (path === '/user' || path.startsWith('/user/')) return DEFAULT_AFTER_SIGN_IN;
  return path;
}
