import { msg } from '@lingui/core/macro';
import { area, listArea, type AreaDefinition } from '../../routes/area-routes';
import { lazyPage } from '../../routes/lazy';
import { RELEASES_REQUIREMENT } from '../versions/paths';

const FirmwareListPage = lazyPage(() => import('./firmware-list-page'), 'FirmwareListPage');
const FirmwarePage = lazyPage(() => import('./firmware-page'), 'FirmwarePage');

/** Firmware (issue 35, spec 001 §3): the list and one firmware's details, with its versions. */
export const firmwareArea: AreaDefinition = {
  app: (app) => [
    listArea(app, 'firmware', msg`Firmware`, {
      requirement: RELEASES_REQUIREMENT,
      list: () => <FirmwareListPage />,
      item: {
        param: '$firmwareid',
        title: msg`Firmware`,
        children: (f) => [
          area(f, '/', msg`Details`, { component: () => <FirmwarePage /> }),
          area(f, 'details', msg`Details`, { component: () => <FirmwarePage /> }),
        ],
      },
    }),
  ],
};
