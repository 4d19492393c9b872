import { msg } from '@lingui/core/macro';
import { area, type AreaDefinition } from '../../routes/area-routes';
import { lazyPage } from '../../routes/lazy';

const ConsentPage = lazyPage(() => import('./consent-page'), 'ConsentPage');

/**
 * Issue 18: the consent screen a third-party application sends the user to. (A user's access
 * tokens are a screen of the users area.)
 */
export const developerArea: AreaDefinition = {
  app: (app) => [
    area(app, 'oauth/authorize', msg`Authorize application`, {
      component: () => <ConsentPage />,
    }),
  ],
};
