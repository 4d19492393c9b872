import { msg } from '@lingui/core/macro';
import { area, type AreaDefinition } from '../../routes/area-routes';
import { lazyPage } from '../../routes/lazy';

/**
 * One integration's page (issue 37 item 6): a webhook's address, what it sends, its deliveries.
 * An asset's `i/{slug}` (devices/routes.tsx) shows the same page for that asset.
 */
export const integrationArea: AreaDefinition = {
  app: (app) => [
    area(app, 'integration/$integrationslug', msg`Integration`, {
      component: lazyPage(() => import('./integration-page'), 'IntegrationPage'),
    }),
  ],
};
