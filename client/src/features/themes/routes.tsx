import { msg } from '@lingui/core/macro';
import { listArea, type AreaDefinition } from '../../routes/area-routes';

/** Themes (a later issue builds them): the list and one theme. */
export const themesArea: AreaDefinition = {
  app: (app) => [
    listArea(app, 'themes', msg`Themes`, { item: { param: '$themeid', title: msg`Theme` } }),
  ],
  menu: [
    {
      group: 'administration',
      placeholder: true,
      position: 50,
      entry: {
        key: 'themes',
        label: msg`Themes`,
        icon: 'palette',
        to: '/app/themes/list',
        section: '/app/themes',
      },
    },
  ],
};
