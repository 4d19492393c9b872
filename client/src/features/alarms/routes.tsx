import { msg } from '@lingui/core/macro';
import { area, type AreaDefinition } from '../../routes/area-routes';
import { lazyPage } from '../../routes/lazy';
import { ALARMS_REQUIREMENT, alarmPaths } from './alarm-paths';

const AlarmsListPage = lazyPage(() => import('./alarms-list-page'), 'AlarmsListPage');
const AlarmPage = lazyPage(() => import('./alarm-page'), 'AlarmPage');

/** Issue 17: the account's alarms, and one alarm (what a push notification opens). */
export const alarmsArea: AreaDefinition = {
  app: (app) => [
    area(app, 'alarms', msg`Alarms`, {
      requirement: ALARMS_REQUIREMENT,
      component: () => <AlarmsListPage />,
      children: (p) => [area(p, '$alarmid', msg`Alarm`, { component: () => <AlarmPage /> })],
    }),
  ],
  menu: [
    {
      group: 'operations',
      position: 40,
      entry: {
        key: 'alarms',
        label: msg`Alarms`,
        icon: 'alarm',
        to: alarmPaths.list(),
        section: alarmPaths.list(),
        requirement: ALARMS_REQUIREMENT,
        badge: 'alarms',
      },
    },
  ],
};
