import { msg } from '@lingui/core/macro';
import { area, type AreaDefinition } from '../../routes/area-routes';

/** One integration's page (a later issue builds it). */
export const integrationArea: AreaDefinition = {
  app: (app) => [area(app, 'integration/$integrationslug', msg`Integration`)],
};
