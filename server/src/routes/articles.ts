import { Hono } from 'hono';
import { articleSearchQuerySchema } from '@plant/shared-schema';
import { requireAuth } from '../http/auth';
import type { AppEnv } from '../http/context';
import { validQuery } from '../http/validate';
import type { Services } from '../services';

/** The help centre's search (issue 33 item 4; help/article.service.ts). */
export function articleRoutes(services: Services) {
  const app = new Hono<AppEnv>();
  app.get('/articles/search', requireAuth(services), async (c) => {
    const q = validQuery(c, articleSearchQuerySchema);
    return c.json({ data: await services.articles.search(c.get('session'), q) });
  });
  return app;
}
