import { msg } from '@lingui/core/macro';
import { area, forward, type AreaDefinition } from '../../routes/area-routes';
import { lazyPage } from '../../routes/lazy';

const TranslationsPage = lazyPage(() => import('./translations-page'), 'TranslationsPage');

/** Who sees the translations (menu entry and route). */
export const TRANSLATIONS_REQUIREMENT = { permission: 'translation::view' } as const;

/** Translations (issue 36 item 2, spec 000 §2): every text of the product and the account's words. */
export const translationsArea: AreaDefinition = {
  app: (app) => [
    area(app, 'translations', msg`Translations`, {
      requirement: TRANSLATIONS_REQUIREMENT,
      children: (p) => [
        forward(p, '/', '/app/translations/list'),
        area(p, 'list', msg`Translations`, { component: () => <TranslationsPage /> }),
      ],
    }),
  ],
  menu: [
    {
      group: 'administration',
      position: 60,
      entry: {
        key: 'translations',
        label: msg`Translations`,
        icon: 'translate',
        to: '/app/translations/list',
        section: '/app/translations',
        requirement: TRANSLATIONS_REQUIREMENT,
      },
    },
  ],
};
