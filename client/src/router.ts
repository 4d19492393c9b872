import { createRouter } from '@tanstack/react-router';
import { appStore } from './state/store';
import { routeTree } from './routes/tree';
import { RouteError } from './routes/route-error';
import { ErrorPage } from './features/areas/error-pages';

/** The app's router: the jotai store rides in the context for the guards. */
export const router = createRouter({
  routeTree,
  context: { store: appStore },
  defaultErrorComponent: RouteError,
  defaultNotFoundComponent: ErrorPage,
  notFoundMode: 'root',
  defaultPreload: 'intent',
  scrollRestoration: true,
});
