import { createRouter, parseSearchWith } from '@tanstack/react-router';
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
  // Search values are JSON-parsed, except numbers that would not come back as written (a long
  // serial number, leading zeros): those stay text.
  parseSearch: parseSearchWith((value) => {
    const parsed: unknown = JSON.parse(value);
    if (typeof parsed === 'number' && String(parsed) !== value) throw new Error('kept as text');
    return parsed;
  }),
});
