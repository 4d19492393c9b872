import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { API_BASE, DEFAULT_DIRECTION, DEFAULT_LANGUAGE, LANGUAGES } from '@plant/shared-schema';
import type { AppEnv } from '../http/context';
import type { Services } from '../services';

/** Files the browser must ask for again every time: the shell's entry and the service worker. */
const ALWAYS_REVALIDATE = new Set(['/', '/index.html', '/sw.js', '/manifest.webmanifest']);
/** Paths that are never the app: an unknown one there is a 404, not the app's index.html. */
const NOT_THE_APP = [`${API_BASE}/`, '/mqtt', '/staticconf', '/assets/'];

/**
 * Calls at the origin rather than under /api/v1: the static configuration, and the built web
 * client (spec 000 §2: every app path answers the app, which routes in the browser). Without a
 * built client, / says how to build it.
 */
export function originRoutes(services: Services, clientDir: string) {
  const app = new Hono<AppEnv>();

  app.get('/staticconf', (c) =>
    c.json({
      theme: { name: 'default' },
      client_id: services.firstPartyClientId,
      languages: LANGUAGES,
      defaultLanguage: DEFAULT_LANGUAGE,
      direction: DEFAULT_DIRECTION,
    }),
  );

  const indexFile = path.join(clientDir, 'index.html');
  if (!existsSync(indexFile)) {
    app.get('/', (c) => c.html(NOT_BUILT_PAGE));
    return app;
  }
  // Read once: a new build means a new start (npm start builds before it serves).
  const indexHtml = readFileSync(indexFile, 'utf8');

  app.use(
    '*',
    serveStatic({
      root: clientDir,
      onFound: (file, c) => {
        const name = `/${path.relative(clientDir, file).split(path.sep).join('/')}`;
        // Hashed file names (assets/) never change; everything else is checked each time.
        c.header(
          'Cache-Control',
          name.startsWith('/assets/') && !ALWAYS_REVALIDATE.has(name)
            ? 'public, max-age=31536000, immutable'
            : 'no-cache',
        );
      },
    }),
  );
  app.get('*', (c) => {
    if (NOT_THE_APP.some((prefix) => c.req.path.startsWith(prefix))) {
      return c.json({ success: false, message: 'Not found.' }, 404);
    }
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
