import { createRoute, redirect } from '@tanstack/react-router';
import { msg } from '@lingui/core/macro';
import { ROUTE_REQUIREMENTS } from '@plant/shared-schema';
import { area, dropV2, optional, type AreaDefinition } from '../../routes/area-routes';
import type { RouterContext } from '../../routes/guards';
import { lazyPage } from '../../routes/lazy';
import { sessionAtom } from '../../state/session';

const AccountsListPage = lazyPage(() => import('./accounts-pages'), 'AccountsListPage');
const AccountDetailsPage = lazyPage(() => import('./accounts-pages'), 'AccountDetailsPage');
const AccountDesignPage = lazyPage(() => import('./accounts-pages'), 'AccountDesignPage');
const IntegrationsPage = lazyPage(() => import('./account-lists'), 'IntegrationsPage');
const ServicesPage = lazyPage(() => import('./account-lists'), 'ServicesPage');
const ErrorCodeListsPage = lazyPage(() => import('./account-lists'), 'ErrorCodeListsPage');
const RolesPage = lazyPage(() => import('../roles/roles-page'), 'RolesPage');
const AccountSecurityPage = lazyPage(
  () => import('../two-factor/account-security-page'),
  'AccountSecurityPage',
);

/** The accounts: the list, and one account's details, roles, design and lists. */
export const accountsArea: AreaDefinition = {
  app: (app) => [
    area(app, 'accounts', msg`Accounts`, {
      requirement: ROUTE_REQUIREMENTS.accounts,
      children: (p) => [
        createRoute({
          getParentRoute: () => p,
          path: '/',
          beforeLoad: ({ context }: { context: RouterContext }) => {
            const session = context.store.get(sessionAtom);
            const id = session?.user.activeAccount?.id ?? session?.user.account ?? '';
            throw redirect({ to: `/app/accounts/${id}/details/${id}` });
          },
        }),
        area(p, 'list', msg`Account list`, { component: () => <AccountsListPage /> }),
        area(p, '$accountid', msg`Account`, {
          children: (a) => [
            ...optional(a, 'details', '$selected', msg`Details`, () => <AccountDetailsPage />),
            ...optional(a, 'roles', '$selected', msg`Roles`, () => <RolesPage />),
            dropV2(a, 'roles/v2'),
            dropV2(a, 'roles/$selected/v2'),
            ...optional(a, 'design', '$selected', msg`Design`, () => <AccountDesignPage />),
            ...optional(a, 'integrations', '$selected', msg`Integrations`, () => (
              <IntegrationsPage />
            )),
            ...optional(a, 'services', '$selected', msg`Services`, () => <ServicesPage />),
            ...optional(a, 'errorcodelists', '$selected', msg`Error code lists`, () => (
              <ErrorCodeListsPage />
            )),
            ...optional(a, 'security', '$selected', msg`Two-factor sign-in`, () => (
              <AccountSecurityPage />
            )),
          ],
        }),
      ],
    }),
  ],
  menu: [
    {
      group: 'administration',
      position: 20,
      entry: {
        key: 'accounts',
        label: msg`Accounts`,
        icon: 'accounts',
        to: '/app/accounts/list',
        section: '/app/accounts',
        requirement: ROUTE_REQUIREMENTS.accounts,
      },
    },
  ],
};
