import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import {
  API_BASE,
  appPaths,
  MAX_BODY_BYTES,
  UPLOAD_CHUNK_MAX_BYTES,
  type PushKey,
} from '@plant/shared-schema';
import { clientAddress, exactAddress, type AppEnv } from './http/context';
import { pageHeaders } from './http/csp';
import { errorResponse } from './http/errors';
import { isHelpHost } from './help/host-page';
import type { Logger } from './logger';
import { API_ROUTE_MODULES, type ApiDeps } from './routes';
import { oauthOriginRoutes } from './routes/oauth';
import { originRoutes } from './routes/origin';
import type { Services } from './services';
import { DomainError } from './services/domain-error';
import type { Session } from './services/session';
import type { ValuesService } from './gateways/values.service';
import type { FileService } from './files/file.service';
import type { RecipientInvites } from './notify/recipient-invites';
import type { ReportService } from './reports/report.service';
import type { BookletService } from './booklet/booklet.service';

/** Bodies past this are refused with 413 before they are read into memory. */
export { MAX_BODY_BYTES };

/** The whole HTTP application: one sub-app per area, mounted under /api/v1 or at the origin. */
export function createApp(
  services: Services,
  log: Logger,
  clientDir: string,
  values: ValuesService,
  files: FileService,
  /** Web push: the VAPID public key browsers subscribe with, and how long they wait. */
  push: PushKey,
  trustedProxies: readonly string[] = [],
  mapTilesUrl?: string,
  /** Recipient invitations of the alarm dispatcher (`AlarmDispatcher.invites`). */
  alarmRecipients?: RecipientInvites,
  /** Reports' runs and files (issue 31). */
  reports?: ReportService,
  /** HELPCENTER_HOST and its page (help/host-page.ts): that host gets nothing else. */
  helpHost?: { readonly host: string; readonly app: Hono<AppEnv> },
  /** The public pages (public/public-pages.ts): /, /about, /jobs, the sitemap, robots.txt. */
  publicPages?: Hono<AppEnv>,
  /** The service booklet's PDF (issue 37 item 3). */
  booklet?: BookletService,
): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const proxies: ReadonlySet<string> = new Set(trustedProxies.map(exactAddress));
  app.use(async (c, next) => {
    if (helpHost !== undefined && isHelpHost(c.req.header('host'), helpHost.host))
      return helpHost.app.fetch(c.req.raw, c.env);
    c.set('trustedProxies', proxies);
    return next();
  });
  // The full set of browser security headers is sent where HTML is served (origin routes); the
  // JSON API gets its two headers from the node listener (server.ts), where they cost nothing.
  // Only on methods that carry a body: reading the limit on a GET would make the node adapter build
  // a full Request object for nothing, which costs more than the rest of a cached GET.
  const tooLarge = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: (c) => c.json({ success: false, message: 'The request body is too large.' }, 413),
  });
  // A file's chunks are larger, and streamed to disk as they come (never held in memory whole).
  const chunkTooLarge = bodyLimit({
    maxSize: UPLOAD_CHUNK_MAX_BYTES,
    onError: (c) => c.json({ success: false, message: 'The chunk is too large.' }, 413),
  });
  const uploadPath = new RegExp(`^${API_BASE}/files/[^/]+/upload$`);
  app.on(['POST', 'PUT', 'PATCH', 'DELETE'], `${API_BASE}/*`, (c, next) => {
    if (c.req.method === 'PUT' && uploadPath.test(c.req.path)) return chunkTooLarge(c, next);
    return tooLarge(c, next);
  });

  const api = new Hono<AppEnv>();
  const deps: ApiDeps = {
    services,
    log,
    values,
    files,
    push,
    alarmRecipients,
    reports,
    booklet,
  };
  for (const routes of API_ROUTE_MODULES) {
    const sub = routes(deps);
    if (sub !== null) api.route('/', sub);
  }
  api.notFound((c) => c.json({ success: false, message: 'Not found.' }, 404));
  app.route(API_BASE, api);
  // Before the app's pages: they carry their own headers (a policy without any script).
  if (publicPages !== undefined) app.route('/', publicPages);
  const origin = new Hono<AppEnv>();
  origin.use(pageHeaders(mapTilesUrl));
  origin.route('/', oauthOriginRoutes(appPaths.oauthConsent()));
  origin.route('/', originRoutes(services, clientDir, mapTilesUrl));
  app.route('/', origin);

  app.notFound((c) => c.json({ success: false, message: 'Not found.' }, 404));
  app.onError((err, c) => {
    // Security insights count a signed-in caller's rate-limit hits in its active account.
    const session = c.get('session') as Session | undefined;
    if (err instanceof DomainError && err.kind === 'rate_limited' && session?.activeAccount)
      services.securityEvents.requestLimited(
        session.activeAccount.id,
        session.user.id,
        clientAddress(c),
      );
    return errorResponse(err, c, log);
  });
  return app;
}
