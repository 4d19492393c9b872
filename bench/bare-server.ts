import { serve } from '@hono/node-server';
import { Hono } from 'hono';

/**
 * The baseline of the GET user benchmark: a bare Hono route that answers the same JSON, with no
 * token check, no database and no middleware.
 */
const body: unknown = JSON.parse(process.env.BARE_BODY ?? '{}');
const app = new Hono();
app.get('/api/v1/user', (c) => c.json(body as object));
const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
  process.stdout.write(`bare listening http://127.0.0.1:${info.port}\n`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
