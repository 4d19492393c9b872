import { Hono } from 'hono';
import { z } from 'zod';
import { requireAuth } from '../http/auth';
import type { AppEnv } from '../http/context';
import { validParams, validQuery } from '../http/validate';
import type { Services } from '../services';
import { SNAPSHOT_DEFAULT_LIMIT, SNAPSHOT_MAX_LIMIT } from '../services/sync.service';

const digits = (message: string) =>
  z
    .string({ error: message })
    .regex(/^\d{1,15}$/, message)
    .transform(Number);

const mqttlogsQuery = z.object({
  from: digits('The from timestamp must be a whole number of milliseconds.'),
});
const snapshotQuery = z.object({
  cursor: z.string().max(500).optional(),
  limit: digits('The limit must be a whole number.')
    .pipe(
      z.number().min(1).max(SNAPSHOT_MAX_LIMIT, `The limit may be at most ${SNAPSHOT_MAX_LIMIT}.`),
    )
    .optional(),
  first_type: z.string().min(1).max(64).optional(),
  first_parent: z
    .string()
    .max(300)
    .regex(/^[a-z_]{1,64}:.{1,235}$/, 'The first parent must be "<type>:<id>".')
    .optional(),
});
const graphParams = z.object({ type: z.string().max(64), id: z.string().max(64) });

/** The sync engine's reads: missed updates, the bootstrap snapshot, one model's graph. */
export function syncRoutes(services: Services) {
  const app = new Hono<AppEnv>();
  const auth = requireAuth(services);

  app.get('/account/mqttlogs', auth, async (c) => {
    const { from } = validQuery(c, mqttlogsQuery);
    return c.json(await services.sync.missedUpdates(c.get('session'), from));
  });

  app.get('/sync/snapshot', auth, async (c) => {
    const query = validQuery(c, snapshotQuery);
    const parent = query.first_parent?.split(/:(.*)/s);
    const data = await services.sync.snapshot(
      c.get('session'),
      query.cursor,
      query.limit ?? SNAPSHOT_DEFAULT_LIMIT,
      query.first_type === undefined
        ? undefined
        : {
            type: query.first_type,
            ...(parent === undefined
              ? {}
              : { parent: { type: parent[0] ?? '', id: parent[1] ?? '' } }),
          },
    );
    return c.json({ data });
  });

  app.get('/graph/:type/:id', auth, async (c) => {
    const { type, id } = validParams(c, graphParams);
    return c.json({ data: await services.sync.graph(c.get('session'), type, id) });
  });

  return app;
}
