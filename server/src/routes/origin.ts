import { Hono } from 'hono';
import { DEFAULT_DIRECTION, DEFAULT_LANGUAGE, LANGUAGES } from '@plant/shared-schema';
import type { AppEnv } from '../http/context';
import type { Services } from '../services';

/** Calls at the origin rather than under /api/v1: the static configuration and the start page. */
export function originRoutes(services: Services) {
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

  // Until the web client lands (issue 5), / says what runs here and where the API is.
  app.get('/', (c) =>
    c.html(`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Machine Platform</title></head>
<body>
<main>
<h1>Machine Platform</h1>
<p>The server is running. The API answers under <code>/api/v1/</code>; its static configuration is at
<a href="/staticconf">/staticconf</a>. The web client is not part of this build yet.</p>
</main>
</body>
</html>`),
  );

  return app;
}
