import { msg } from '@lingui/core/macro';
import { ROUTE_REQUIREMENTS } from '@plant/shared-schema';
import { area, type AreaDefinition } from '../../routes/area-routes';
import { helpCenterPath } from './helpcenter-paths';

/** The help center (a later issue builds it): one help center in one language. */
export const helpcenterArea: AreaDefinition = {
  app: (app) => [
    area(app, 'helpcenter/$helpcenterid/$helpcenterlang', msg`Help center`, {
      requirement: ROUTE_REQUIREMENTS.helpcenter,
    }),
  ],
  menu: [
    {
      group: 'service',
      placeholder: true,
      position: 30,
      entry: ({ language }) => ({
        key: 'helpcenter',
        label: msg`Help center`,
        icon: 'help',
        to: helpCenterPath(language),
        section: '/app/helpcenter',
        requirement: ROUTE_REQUIREMENTS.helpcenter,
      }),
    },
  ],
};
