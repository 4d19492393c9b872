import { msg } from '@lingui/core/macro';
import { area, type AreaDefinition } from '../../routes/area-routes';

/** Service requests (a later issue builds them): open ones, past ones, one request. */
export const serviceArea: AreaDefinition = {
  app: (app) => [
    area(app, 'service', msg`Service requests`, {
      children: (p) => [
        area(p, 'history', msg`Past service requests`),
        area(p, '$id/details', msg`Service request`),
      ],
    }),
  ],
  menu: [
    {
      group: 'service',
      placeholder: true,
      position: 10,
      entry: {
        key: 'service',
        label: msg`Service requests`,
        icon: 'service',
        to: '/app/service',
        section: '/app/service',
      },
    },
    {
      group: 'service',
      placeholder: true,
      position: 20,
      entry: {
        key: 'serviceHistory',
        label: msg`Past service requests`,
        icon: 'history',
        to: '/app/service/history',
        section: '/app/service/history',
      },
    },
  ],
};
