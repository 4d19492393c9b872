import { msg } from '@lingui/core/macro';
import { area, type AreaDefinition } from '../../routes/area-routes';

/** One page of a report (a later issue builds it). */
export const reportArea: AreaDefinition = {
  app: (app) => [area(app, 'report/$id/page/$pageid', msg`Report`)],
};
