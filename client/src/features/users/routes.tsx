import { msg } from '@lingui/core/macro';
import { area, listArea, type AreaDefinition } from '../../routes/area-routes';
import { lazyPage } from '../../routes/lazy';

const UsersPage = lazyPage(() => import('./users-page'), 'UsersPage');
const UserDetailsPage = lazyPage(() => import('./user-pages'), 'UserDetailsPage');
const UserActionsPage = lazyPage(() => import('./user-pages'), 'UserActionsPage');
const UserNotificationsPage = lazyPage(() => import('./user-pages'), 'UserNotificationsPage');
const SecurityPage = lazyPage(() => import('../two-factor/security-page'), 'SecurityPage');
const AccessTokensPage = lazyPage(
  () => import('../developer/access-tokens-page'),
  'AccessTokensPage',
);

/** The account's users: the list, and one user's details, actions, tokens and notifications. */
export const usersArea: AreaDefinition = {
  app: (app) => [
    listArea(app, 'users', msg`Users`, {
      list: () => <UsersPage />,
      item: {
        param: '$userid',
        title: msg`User`,
        children: (u) => [
          area(u, 'details', msg`Details`, { component: () => <UserDetailsPage /> }),
          area(u, 'actions', msg`Actions`, { component: () => <UserActionsPage /> }),
          area(u, 'accesstokens', msg`Access tokens`, { component: () => <AccessTokensPage /> }),
          area(u, 'security', msg`Two-factor sign-in`, { component: () => <SecurityPage /> }),
          area(u, 'notifications', msg`Notifications`, {
            component: () => <UserNotificationsPage />,
          }),
        ],
      },
    }),
  ],
  menu: [
    {
      group: 'administration',
      position: 10,
      entry: {
        key: 'users',
        label: msg`Users`,
        icon: 'users',
        to: '/app/users/list',
        section: '/app/users',
      },
    },
  ],
};
