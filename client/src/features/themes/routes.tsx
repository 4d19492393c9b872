import { msg } from '@lingui/core/macro';
import { listArea, type AreaDefinition } from '../../routes/area-routes';
import { lazyPage } from '../../routes/lazy';
import { THEMES_REQUIREMENT } from './paths';

const ThemesListPage = lazyPage(() => import('./themes-list-page'), 'ThemesListPage');
const ThemePage = lazyPage(() => import('./theme-page'), 'ThemePage');

/** Themes (issue 36 item 1, spec 001 §3): the list and one theme with its live preview. */
export const themesArea: AreaDefinition = {
  app: (app) => [
    listArea(app, 'themes', msg`Themes`, {
      requirement: THEMES_REQUIREMENT,
      list: () => <ThemesListPage />,
      item: { param: '$themeid', title: msg`Theme`, component: () => <ThemePage /> },
    }),
  ],
  menu: [
    {
      group: 'administration',
      position: 50,
      entry: {
        key: 'themes',
        label: msg`Themes`,
        icon: 'palette',
        to: '/app/themes/list',
        section: '/app/themes',
        requirement: THEMES_REQUIREMENT,
      },
    },
  ],
};
