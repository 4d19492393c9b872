import { createRootRouteWithContext, createRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { ErrorPage, NoPermissionPage } from '../features/areas/error-pages';
import { RootLayout } from '../features/shell/root-layout';
import { redirectTo } from './area-routes';
import { AREAS } from './areas';
import { requireSession, type RouterContext } from './guards';
import { lazyPage } from './lazy';
import { RouteError } from './route-error';

/*
 * Every route of spec 000 §2, code-based: the root's own screens and redirects here, each area's
 * routes in its folder (`features/<area>/routes.tsx`, gathered by areas.ts). Pages are lazy chunks
 * (lazy.tsx: 120 s time-out, a failed load offers a reload). Areas that later issues build show
 * their title, breadcrumb and an honest empty state (AreaPage).
 */

const AppLayout = lazyPage(() => import('../features/shell/app-layout'), 'AppLayout');
const ScanPage = lazyPage(() => import('../features/areas/scan-page'), 'ScanPage');

export const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  notFoundComponent: ErrorPage,
  errorComponent: RouteError,
});

const indexRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  beforeLoad: redirectTo('/app/devices'),
});
const qrRedirect = createRoute({
  getParentRoute: () => rootRoute,
  path: 'qr',
  beforeLoad: redirectTo('/app/qr'),
});
const scanRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'scan',
  validateSearch: z.object({
    // A serial of digits only arrives as a number (the router JSON-parses search values).
    id: z
      .union([z.string(), z.number().transform(String)])
      .pipe(z.string().max(200))
      .optional()
      .catch(undefined),
  }),
  component: ScanPage,
});
const errorRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'error',
  component: ErrorPage,
});
const noPermissionRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'nopermission',
  component: NoPermissionPage,
});

// The app: signed in, with the shell.
export const appRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'app',
  beforeLoad: ({ context, location }) => requireSession(context.store, location.href),
  component: AppLayout,
});

const appIndex = createRoute({
  getParentRoute: () => appRoute,
  path: '/',
  beforeLoad: redirectTo('/app/devices/list'),
});

export const routeTree = rootRoute.addChildren([
  indexRoute,
  qrRedirect,
  scanRoute,
  errorRoute,
  noPermissionRoute,
  ...AREAS.flatMap((a) => a.root?.(rootRoute) ?? []),
  appRoute.addChildren([appIndex, ...AREAS.flatMap((a) => a.app?.(appRoute) ?? [])]),
]);
