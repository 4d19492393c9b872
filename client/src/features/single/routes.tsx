import { msg } from '@lingui/core/macro';
import { area, type AreaDefinition } from '../../routes/area-routes';

/** The single view (a later issue builds it). */
export const singleArea: AreaDefinition = {
  app: (app) => [area(app, 'single', msg`Single view`)],
};
