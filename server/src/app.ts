import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { secureHeaders } from 'hono/secure-headers';
import { API_BASE } from '@plant/shared-schema';
import type { AppEnv } from './http/context';
import { errorResponse } from './http/errors';
import type { Logger } from './logger';
import { authRoutes } from './routes/auth';
import { clientReportRoutes } from './routes/client-reports';
import { originRoutes } from './routes/origin';
import { userRoutes } from './routes/user';
import type { Services } from './services';

/** Bodies past this are refused with 413 before they are read into memory. */
export const MAX_BODY_BYTES = 64 * 1024;

/** The whole HTTP application: one sub-app per area, mounted under /api/v1 or at the origin. */
export function createApp(services: Services, log: Logger): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use(secureHeaders());
  app.use(
    `${API_BASE}/*`,
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: (c) => c.json({ success: false, message: 'The request body is too large.' }, 413),
    }),
  );

  const api = new Hono<AppEnv>();
  api.route('/', authRoutes(services));
  api.route('/', clientReportRoutes(services));
  api.route('/', userRoutes(services));
  api.notFound((c) => c.json({ success: false, message: 'Not found.' }, 404));
  app.route(API_BASE, api);
  app.route('/', originRoutes(services));

  app.notFound((c) => c.json({ success: false, message: 'Not found.' }, 404));
  app.onError((err, c) => errorResponse(err, c, log));
  return app;
}
