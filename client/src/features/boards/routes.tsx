import { msg } from '@lingui/core/macro';
import { area, listArea, type AreaDefinition } from '../../routes/area-routes';

/** Boards (a later issue builds them): the list and one board's details. */
export const boardsArea: AreaDefinition = {
  app: (app) => [
    listArea(app, 'boards', msg`Boards`, {
      item: {
        param: '$boardid',
        title: msg`Board`,
        children: (b) => [area(b, 'details', msg`Details`)],
      },
    }),
  ],
};
