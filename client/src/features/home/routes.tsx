import { msg } from '@lingui/core/macro';
import { area, type AreaDefinition } from '../../routes/area-routes';
import { lazyPage } from '../../routes/lazy';

const homePath = '/app/home';

const HomePage = lazyPage(() => import('./home-page'), 'HomePage');

/**
 * Home (issue 30 item 4): what needs the user's attention, from the local store. Its own route
 * beside spec 000 §2's: the start page after sign-in stays the devices list (/ and /app forward
 * there, as the spec says); the menu's Home entry opens this page.
 */
export const homeArea: AreaDefinition = {
  app: (app) => [area(app, 'home', msg`Home`, { component: () => <HomePage /> })],
  menu: [
    {
      group: 'operations',
      position: 10,
      entry: { key: 'home', label: msg`Home`, icon: 'home', to: homePath, section: homePath },
    },
  ],
};
