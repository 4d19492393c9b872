import { msg } from '@lingui/core/macro';
import { area, listArea, type AreaDefinition } from '../../routes/area-routes';
import { lazyPage } from '../../routes/lazy';
import { RELEASES_REQUIREMENT } from '../versions/paths';

const BoardsListPage = lazyPage(() => import('./boards-list-page'), 'BoardsListPage');
const BoardPage = lazyPage(() => import('./board-page'), 'BoardPage');

/** Boards (issue 35, spec 001 §3): the list and one board's details with its pins. */
export const boardsArea: AreaDefinition = {
  app: (app) => [
    listArea(app, 'boards', msg({ message: 'Boards', context: 'hardware' }), {
      requirement: RELEASES_REQUIREMENT,
      list: () => <BoardsListPage />,
      item: {
        param: '$boardid',
        title: msg({ message: 'Board', context: 'hardware' }),
        children: (b) => [
          area(b, '/', msg`Details`, { component: () => <BoardPage /> }),
          area(b, 'details', msg`Details`, { component: () => <BoardPage /> }),
        ],
      },
    }),
  ],
};
