import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import {
  DEFAULT_DIRECTION,
  DEFAULT_LANGUAGE,
  LANGUAGES,
  type StaticConf,
} from '@plant/shared-schema';
import type { AppEnv } from '../http/context';
import type { Services } from '../services';

/** Areas that are never the app: an unknown path there is a 404, not the app's index.html. */
const NOT_THE_APP = ['/api', '/mqtt', '/staticconf', '/assets'];
/** The client's own areas (spec 000 §2): every path there is a screen, even one with a dot. */
const APP_AREAS = ['/app', '/user'];

const under = (pathname: string, area: string) =>
  pathname === area || pathname.startsWith(`${area}/`);

/**
 * Whether a missing path answers the app: a screen path, not a file. A file name (a last segment
 * with a dot: /favicon.ico, /robots.txt, an old release's /workbox-1a2b.js) and anything under
 * /api (with or without v1), /mqtt, /staticconf or /assets is a 404. Screens under /app and /user
 * may have a dot in an id or a version (/app/versions/modules/{id}/1.2.0): the app routes them.
 */
export function answersTheApp(pathname: string): boolean {
  if (NOT_THE_APP.some((area) => under(pathname, area))) return false;
  if (APP_AREAS.some((area) => under(pathname, area))) return true;
  const last = pathname.slice(pathname.lastIndexOf('/') + 1);
  return !last.includes('.');
}

/**
 * Calls at the origin rather than under /api/v1: the static configuration, and the built web
 * client (spec 000 §2: every app path answers the app, which routes in the browser). Without a
 * built client, / says how to build it.
 */
export function originRoutes(services: Services, clientDir: string, mapTilesUrl?: string) {
  const app = new Hono<AppEnv>();

  app.get('/staticconf', async (c) => {
    const { design, tied } = await services.accounts.designForHost(c.req.header('host'));
    // Per host: a shared cache must not hand one host's brand to another.
    c.header('Vary', 'Host');
    return c.json({
      theme: { name: design.title ?? 'default', ...design },
      host_tied: tied,
      client_id: services.firstPartyClientId,
      languages: [...LANGUAGES],
      defaultLanguage: DEFAULT_LANGUAGE,
      direction: DEFAULT_DIRECTION,
      // The map's detail tiles only when configured: the shipped base layer needs none.
      ...(mapTilesUrl === undefined ? {} : { map_tiles_url: mapTilesUrl }),
    } satisfies StaticConf);
  });

  const indexFile = path.join(clientDir, 'index.html');
  if (!existsSync(indexFile)) {
    // The app's screens say how to build it (/ is the public landing page, public-pages.ts).
    for (const area of APP_AREAS) {
      app.get(area, (c) => c.html(NOT_BUILT_PAGE));
      app.get(`${area}/*`, (c) => c.html(NOT_BUILT_PAGE));
    }
    return app;
  }
  // Read once: a new build means a new start (npm start builds before it serves).
  const indexHtml = readFileSync(indexFile, 'utf8');

  // The build's source maps stay on the server: they would hand out the whole source. So does
  // its manifest (.vite/manifest.json, read by the bundle budget test): the app never fetches it.
  app.get('*', async (c, next) => {
    if (c.req.path.endsWith('.map') || c.req.path.toLowerCase().startsWith('/.vite/')) {
      return c.json({ success: false, message: 'Not found.' }, 404);
    }
    await next();
    return undefined;
  });
  app.use(
    '*',
    serveStatic({
      root: clientDir,
      onFound: (file, c) => {
        const name = `/${path.relative(clientDir, file).split(path.sep).join('/')}`;
        // Hashed file names (assets/) never change; everything else (index.html, sw.js, the
        // manifest, icons) is checked each time.
        c.header(
          'Cache-Control',
          name.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    }),
  );
  app.get('*', (c) => {
    if (!answersTheApp(c.req.path)) return c.json({ success: false, message: 'Not found.' }, 404);
    c.header('Cache-Control', 'no-cache');
    return c.html(indexHtml);
  });

  return app;
}

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Machine Platform</title></head>
<body>
<main>
<h1>Machine Platform</h1>
<p>The server is running, but the web client is not built. <code>npm start</code> builds it;
or run <code>npx vite build</code> and start again. The API answers under <code>/api/v1/</code>;
its static configuration is at <a href="/staticconf">/staticconf</a>.</p>
</main>
</body>
</html>`;
