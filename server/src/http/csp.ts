import type { MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';

/**
 * The Content-Security-Policy of every page the origin serves (the app's index.html on every app
 * path, its static files, the not-built page), and of the e2e suite's pages (e2e/support/web.ts),
 * so the app is tested under the policy it ships with.
 *
 * Everything comes from our origin: the app's scripts, its sync worker and MapLibre's worker (set
 * to a file of the build with `setWorkerUrl`, so no blob: worker), the service worker and the
 * script it imports (push-sw.js). No inline script and no eval of JavaScript; WebAssembly may be
 * compiled ('wasm-unsafe-eval': the 3D viewer's meshopt decoder builds its WASM module from bytes
 * in its own script, which no policy source can name). Same-origin WebSockets (/mqtt)
 * count as 'self' in CSP level 3 browsers. `mapTilesUrl`, when configured, adds its origin to
 * connect-src (MapLibre fetches the tiles) and img-src.
 *
 * - img-src data: and blob:: file thumbnails and photos are shown from object URLs of the files'
 *   bytes (client/src/sync/files.ts), the account's logos may be data: URLs in its style, and
 *   MapLibre decodes images through blob: URLs.
 * - style-src 'unsafe-inline': Mantine writes its CSS variables into a <style> element it
 *   creates, the account's design is a <style> element (client/src/session/style.ts), and
 *   components set style attributes (React's `style`, Mantine's style props); styles cannot run
 *   code, and hashing or nonces cannot cover elements made at run time.
 * - frame-ancestors 'none' (and X-Frame-Options DENY for older browsers): no page may frame the
 *   app, so the consent screen cannot be clickjacked.
 */
export function contentSecurityPolicy(mapTilesUrl?: string): string {
  const tiles = mapTilesUrl === undefined ? [] : [new URL(mapTilesUrl).origin];
  const directives: Record<string, readonly string[]> = {
    'default-src': ["'self'"],
    'script-src': ["'self'", "'wasm-unsafe-eval'"],
    'worker-src': ["'self'"],
    'connect-src': ["'self'", ...tiles],
    'img-src': ["'self'", 'data:', 'blob:', ...tiles],
    'style-src': ["'self'", "'unsafe-inline'"],
    'font-src': ["'self'"],
    'manifest-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${sources.join(' ')}`)
    .join('; ');
}

/**
 * The browser security headers of the origin's pages: Hono's secure headers (X-Frame-Options
 * DENY rather than SAMEORIGIN: the app is never framed, not even by itself) and the CSP above.
 */
export function pageHeaders(mapTilesUrl?: string): MiddlewareHandler {
  const policy = contentSecurityPolicy(mapTilesUrl);
  const secure = secureHeaders({ xFrameOptions: 'DENY' });
  return (c, next) =>
    secure(c, async () => {
      await next();
      c.res.headers.set('Content-Security-Policy', policy);
    });
}
