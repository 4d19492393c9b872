import { msg } from '@lingui/core/macro';
import { area, forward, type AreaDefinition } from '../../routes/area-routes';

/** Translations (a later issue builds them): the list. */
export const translationsArea: AreaDefinition = {
  app: (app) => [
    area(app, 'translations', msg`Translations`, {
      children: (p) => [
        forward(p, '/', '/app/translations/list'),
        area(p, 'list', msg`Translations`),
      ],
    }),
  ],
  menu: [
    {
      group: 'administration',
      placeholder: true,
      position: 60,
      entry: {
        key: 'translations',
        label: msg`Translations`,
        icon: 'translate',
        to: '/app/translations/list',
        section: '/app/translations',
      },
    },
  ],
};
