import { msg } from '@lingui/core/macro';
import { area, listArea, type AreaDefinition } from '../../routes/area-routes';

/** Firmware (a later issue builds it): the list and one firmware's details. */
export const firmwareArea: AreaDefinition = {
  app: (app) => [
    listArea(app, 'firmware', msg`Firmware`, {
      item: {
        param: '$firmwareid',
        title: msg`Firmware`,
        children: (f) => [area(f, 'details', msg`Details`)],
      },
    }),
  ],
};
