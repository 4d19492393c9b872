import {
  createRootRouteWithContext,
  createRoute,
  redirect,
  type AnyRoute,
} from '@tanstack/react-router';
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { ReactNode } from 'react';
import { z } from 'zod';
import { ROUTE_REQUIREMENTS, type RouteRequirement } from '@plant/shared-schema';
import { ALARMS_REQUIREMENT } from '../features/alarms/alarm-paths';
import { AreaPage } from '../features/areas/area-page';
import { ErrorPage, NoPermissionPage } from '../features/areas/error-pages';
import { RootLayout } from '../features/shell/root-layout';
import { sessionAtom } from '../state/session';
import { redirectSignedIn, requirePermission, requireSession, type RouterContext } from './guards';
import { lazyPage } from './lazy';
import { RouteError } from './route-error';

/*
 * Every route of spec 000 §2, code-based. Pages are lazy chunks (lazy.tsx: 120 s time-out, a
 * failed load offers a reload). Areas that later issues build show their title, breadcrumb and an
 * honest empty state (AreaPage).
 */

const UserLayout = lazyPage(() => import('../features/user/user-layout'), 'UserLayout');
const LoginPage = lazyPage(() => import('../features/user/login-page'), 'LoginPage');
const RegisterPage = lazyPage(() => import('../features/user/register-page'), 'RegisterPage');
const NorolePage = lazyPage(() => import('../features/user/norole-page'), 'NorolePage');
const ForgotPasswordPage = lazyPage(
  () => import('../features/user/forgot-password-page'),
  'ForgotPasswordPage',
);
const ResetPasswordPage = lazyPage(
  () => import('../features/user/reset-password-page'),
  'ResetPasswordPage',
);
const AppLayout = lazyPage(() => import('../features/shell/app-layout'), 'AppLayout');
const RolesPage = lazyPage(() => import('../features/roles/roles-page'), 'RolesPage');
const UsersPage = lazyPage(() => import('../features/users/users-page'), 'UsersPage');
const IntegrationsPage = lazyPage(
  () => import('../features/accounts/account-lists'),
  'IntegrationsPage',
);
const ServicesPage = lazyPage(() => import('../features/accounts/account-lists'), 'ServicesPage');
const ErrorCodeListsPage = lazyPage(
  () => import('../features/accounts/account-lists'),
  'ErrorCodeListsPage',
);
const AccountsListPage = lazyPage(
  () => import('../features/accounts/accounts-pages'),
  'AccountsListPage',
);
const AccountDetailsPage = lazyPage(
  () => import('../features/accounts/accounts-pages'),
  'AccountDetailsPage',
);
const AccountDesignPage = lazyPage(
  () => import('../features/accounts/accounts-pages'),
  'AccountDesignPage',
);
const UserDetailsPage = lazyPage(() => import('../features/users/user-pages'), 'UserDetailsPage');
const UserActionsPage = lazyPage(() => import('../features/users/user-pages'), 'UserActionsPage');
const UserNotificationsPage = lazyPage(
  () => import('../features/users/user-pages'),
  'UserNotificationsPage',
);
const DevicesListPage = lazyPage(
  () => import('../features/devices/devices-list-page'),
  'DevicesListPage',
);
const DeviceDetailsPage = lazyPage(
  () => import('../features/devices/device-details-page'),
  'DeviceDetailsPage',
);
const TerminalPage = lazyPage(() => import('../features/terminal/terminal-page'), 'TerminalPage');
const GatewaysListPage = lazyPage(
  () => import('../features/gateway-pages/gateways-list-page'),
  'GatewaysListPage',
);
const GatewayDetailsPage = lazyPage(
  () => import('../features/gateway-pages/gateway-details-page'),
  'GatewayDetailsPage',
);
const LogsPage = lazyPage(() => import('../features/gateway-logs/logs-page'), 'LogsPage');
const StreamPage = lazyPage(() => import('../features/devices/stream-page'), 'StreamPage');
const ScanPage = lazyPage(() => import('../features/areas/scan-page'), 'ScanPage');
const QrPage = lazyPage(() => import('../features/qr/qr-page'), 'QrPage');
const QrScanPage = lazyPage(() => import('../features/qr/qr-scan-page'), 'QrScanPage');
const QrLabelsPage = lazyPage(() => import('../features/qr/qr-labels-page'), 'QrLabelsPage');
const TemplatesListPage = lazyPage(
  () => import('../features/templates/templates-list-page'),
  'TemplatesListPage',
);
const TemplateDetailsPage = lazyPage(
  () => import('../features/templates/template-details-page'),
  'TemplateDetailsPage',
);
const DemoTemplatePage = lazyPage(
  () => import('../features/templates/demo-pages'),
  'DemoTemplatePage',
);
const DemoDevicePage = lazyPage(() => import('../features/templates/demo-pages'), 'DemoDevicePage');
const AlarmsListPage = lazyPage(
  () => import('../features/alarms/alarms-list-page'),
  'AlarmsListPage',
);
const AlarmPage = lazyPage(() => import('../features/alarms/alarm-page'), 'AlarmPage');
const AccessTokensPage = lazyPage(
  () => import('../features/developer/access-tokens-page'),
  'AccessTokensPage',
);
const ConsentPage = lazyPage(() => import('../features/developer/consent-page'), 'ConsentPage');

export const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  notFoundComponent: ErrorPage,
  errorComponent: RouteError,
});

const redirectTo = (to: string) => () => {
  throw redirect({ to });
};

const indexRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  beforeLoad: redirectTo('/app/devices'),
});
const qrRedirect = createRoute({
  getParentRoute: () => rootRoute,
  path: 'qr',
  beforeLoad: redirectTo('/app/qr'),
});
const scanRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'scan',
  validateSearch: z.object({
    // A serial of digits only arrives as a number (the router JSON-parses search values).
    id: z
      .union([z.string(), z.number().transform(String)])
      .pipe(z.string().max(200))
      .optional()
      .catch(undefined),
  }),
  component: ScanPage,
});
const errorRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'error',
  component: ErrorPage,
});
const noPermissionRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'nopermission',
  component: NoPermissionPage,
});

// The user area.
const redirectSearch = z.object({ redirect: z.string().max(2000).optional().catch(undefined) });
const userRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'user',
  component: UserLayout,
});
/** Screens a signed-in user does not see: they go to the app. norole is shown to anyone. */
const signedOutOnly = ({ context }: { context: RouterContext }) => redirectSignedIn(context.store);
const userRoutes = [
  createRoute({
    getParentRoute: () => userRoute,
    path: '/',
    beforeLoad: redirectTo('/user/login'),
  }),
  createRoute({
    getParentRoute: () => userRoute,
    path: 'login',
    validateSearch: redirectSearch,
    beforeLoad: ({ context, search }) => redirectSignedIn(context.store, search.redirect),
    component: LoginPage,
  }),
  createRoute({ getParentRoute: () => userRoute, path: 'norole', component: NorolePage }),
  createRoute({
    getParentRoute: () => userRoute,
    path: 'register',
    beforeLoad: signedOutOnly,
    component: RegisterPage,
  }),
  createRoute({
    getParentRoute: () => userRoute,
    path: 'forgot-password',
    beforeLoad: signedOutOnly,
    component: ForgotPasswordPage,
  }),
  ...['reset-password', 'set-password'].map((path) =>
    createRoute({
      getParentRoute: () => userRoute,
      path,
      validateSearch: z.object({
        token: z.string().max(200).optional().catch(undefined),
        email: z.string().max(250).optional().catch(undefined),
        // An invitation's link (spec 001 §6): answered signed in or not.
        invitation: z.string().max(200).optional().catch(undefined),
      }),
      beforeLoad: ({ context, search }) =>
        search.invitation === undefined ? signedOutOnly({ context }) : undefined,
      component: ResetPasswordPage,
    }),
  ),
];

// The app.
export const appRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'app',
  beforeLoad: ({ context, location }) => requireSession(context.store, location.href),
  component: AppLayout,
});

/** Static data of a route: its title (menu, page head) and what it needs. */
declare module '@tanstack/react-router' {
  interface StaticDataRouteOption {
    title?: MessageDescriptor;
  }
}

interface AreaOptions {
  readonly requirement?: RouteRequirement;
  readonly children?: (parent: AnyRoute) => AnyRoute[];
  /** The page; default: the area's empty state. */
  readonly component?: () => ReactNode;
}

/**
 * A route of an area, guarded by its requirement. Without children its page is `component` or the
 * area's empty state; with children it only frames them, and its index shows the empty state
 * unless a child takes the index.
 */
function area(parent: AnyRoute, path: string, title: MessageDescriptor, options: AreaOptions = {}) {
  const { requirement } = options;
  const page = options.component ?? (() => <AreaPage title={title} />);
  const route = createRoute({
    getParentRoute: () => parent,
    path,
    staticData: { title },
    ...(requirement === undefined
      ? {}
      : {
          beforeLoad: ({ context }: { context: RouterContext }) =>
            requirePermission(context.store, requirement),
        }),
    ...(options.children === undefined ? { component: page } : {}),
  });
  if (options.children === undefined) return route;
  const children = options.children(route);
  const hasIndex = children.some((c) => (c.options as { path?: string }).path === '/');
  const index = createRoute({ getParentRoute: () => route, path: '/', component: page });
  return route.addChildren(hasIndex ? children : [index, ...children]);
}

/** A path that only forwards (`/app/x` -> `/app/x/list`). */
function forward(parent: AnyRoute, path: string, to: string) {
  return createRoute({ getParentRoute: () => parent, path, beforeLoad: redirectTo(to) });
}

/** A screen whose last segment may be left out (`{selected?}` of spec 000 §2): both paths. */
function optional(
  parent: AnyRoute,
  path: string,
  param: string,
  title: MessageDescriptor,
  component?: () => ReactNode,
) {
  const options = component === undefined ? {} : { component };
  return [area(parent, path, title, options), area(parent, `${path}/${param}`, title, options)];
}

interface ListAreaOptions {
  /** The list's page; default: the area's empty state. */
  readonly list?: () => ReactNode;
  /** Screens of the area beside the list and the items (`demo/smartphone`). */
  readonly more?: (parent: AnyRoute) => AnyRoute[];
  /** One item: its id's segment (`$boardid`), its title and its screens. */
  readonly item: {
    readonly param: string;
    readonly title: MessageDescriptor;
    readonly children?: (parent: AnyRoute) => AnyRoute[];
  };
}

/**
 * The usual shape of an area: `/app/x` forwards to its list, the list, and one item at
 * `/app/x/{id}` with its screens. Paths that are none of these are unknown (the error screen).
 */
function listArea(path: string, title: MessageDescriptor, options: ListAreaOptions) {
  const { item } = options;
  return area(appRoute, path, title, {
    children: (p) => [
      forward(p, '/', `/app/${path}/list`),
      area(p, 'list', title, options.list === undefined ? {} : { component: options.list }),
      ...(options.more?.(p) ?? []),
      area(
        p,
        item.param,
        item.title,
        item.children === undefined ? {} : { children: item.children },
      ),
    ],
  });
}

/** `…/roles/v2` and `…/roles/{selected}/v2` are the same screen without the v2. */
function dropV2(parent: AnyRoute, path: string) {
  return createRoute({
    getParentRoute: () => parent,
    path,
    beforeLoad: ({ location }) => {
      throw redirect({ to: location.pathname.replace(/\/v2\/?$/, '') });
    },
  });
}

const accounts = area(appRoute, 'accounts', msg`Accounts`, {
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
        ...optional(a, 'integrations', '$selected', msg`Integrations`, () => <IntegrationsPage />),
        ...optional(a, 'services', '$selected', msg`Services`, () => <ServicesPage />),
        ...optional(a, 'errorcodelists', '$selected', msg`Error code lists`, () => (
          <ErrorCodeListsPage />
        )),
      ],
    }),
  ],
});

const feedbackRedirects: Record<string, string> = {
  bug: 'platform',
  story: 'platform',
  problem: 'platform',
  feature: 'platform',
  help: 'operations',
};

/** The tabs of a module, and of one version of it. */
const moduleTabs = (m: AnyRoute) => [
  area(m, 'general', msg`General`),
  area(m, 'interface', msg`Interface`),
  area(m, 'featureflags', msg`Feature flags`),
  area(m, 'actions', msg`Actions`),
  area(m, 'datastreams', msg`Data streams`),
];

const areas = [
  createRoute({
    getParentRoute: () => appRoute,
    path: '/',
    beforeLoad: redirectTo('/app/devices/list'),
  }),
  accounts,
  listArea('firmware', msg`Firmware`, {
    item: {
      param: '$firmwareid',
      title: msg`Firmware`,
      children: (f) => [area(f, 'details', msg`Details`)],
    },
  }),
  area(appRoute, 'integration/$integrationslug', msg`Integration`),
  area(appRoute, 'feedback', msg`Feedback`, {
    children: (p) => [
      forward(p, '/', '/app/feedback/problem'),
      area(p, 'platform', msg`Platform feedback`),
      area(p, 'hardware', msg`Hardware feedback`),
      area(p, 'operations', msg`Operations feedback`),
      ...Object.entries(feedbackRedirects).map(([from, to]) =>
        forward(p, from, `/app/feedback/${to}`),
      ),
    ],
  }),
  listArea('boards', msg`Boards`, {
    item: {
      param: '$boardid',
      title: msg`Board`,
      children: (b) => [area(b, 'details', msg`Details`)],
    },
  }),
  listArea('users', msg`Users`, {
    list: () => <UsersPage />,
    item: {
      param: '$userid',
      title: msg`User`,
      children: (u) => [
        area(u, 'details', msg`Details`, { component: () => <UserDetailsPage /> }),
        area(u, 'actions', msg`Actions`, { component: () => <UserActionsPage /> }),
        area(u, 'accesstokens', msg`Access tokens`, { component: () => <AccessTokensPage /> }),
        area(u, 'notifications', msg`Notifications`, {
          component: () => <UserNotificationsPage />,
        }),
      ],
    },
  }),
  listArea('templates', msg`Templates`, {
    list: () => <TemplatesListPage />,
    more: (p) => [area(p, 'demo/smartphone', msg`Demo`, { component: () => <DemoTemplatePage /> })],
    item: {
      param: '$id',
      title: msg`Template`,
      children: (t) => [
        createRoute({
          getParentRoute: () => t,
          path: '/',
          beforeLoad: ({ params }) => {
            throw redirect({ to: `/app/templates/${(params as { id: string }).id}/details` });
          },
        }),
        area(t, 'input/$inputid', msg`Input`),
        area(t, 'dashboard/$dashboardid', msg`Dashboard`),
        area(t, 'details', msg`Details`, { component: () => <TemplateDetailsPage /> }),
        area(t, 'scene/$sceneid', msg`Scene`),
        area(t, '3d/$threedmodelid', msg`3D model`),
      ],
    },
  }),
  listArea('devices', msg`Assets`, {
    list: () => <DevicesListPage />,
    more: (p) => [
      area(p, '3dmodel/$deviceid/$modelid', msg`3D model`),
      area(p, 'demo/smartphone', msg`Demo`, { component: () => <DemoDevicePage /> }),
    ],
    item: {
      param: '$id',
      title: msg`Asset`,
      children: (d) => [
        createRoute({
          getParentRoute: () => d,
          path: '/',
          beforeLoad: ({ params }) => {
            throw redirect({ to: `/app/devices/${(params as { id: string }).id}/details` });
          },
        }),
        area(d, 'details', msg`Details`, { component: () => <DeviceDetailsPage /> }),
        area(d, 'input/$inputid', msg`Input`, { component: () => <StreamPage /> }),
        area(d, 'uml/$diagramid', msg`UML diagram`),
        area(d, 'dashboard/$dashboardid', msg`Dashboard`),
        area(d, 'report/$reportid', msg`Report`),
        area(d, 'eventinspection/$opportunityid', msg`Event inspection`),
        area(d, 'i/$integrationslug', msg`Integration`),
        area(d, 'servicebooklet', msg`Service booklet`),
        area(d, 'scene/$sceneid', msg`Scene`),
        area(d, 'scene/v3/$sceneid', msg`Scene`),
        area(d, '3d/$threedmodelid', msg`3D model`),
      ],
    },
  }),
  // Issue 17: the account's alarms, and one alarm (what a push notification opens).
  area(appRoute, 'alarms', msg`Alarms`, {
    requirement: ALARMS_REQUIREMENT,
    component: () => <AlarmsListPage />,
    children: (p) => [area(p, '$alarmid', msg`Alarm`, { component: () => <AlarmPage /> })],
  }),
  // Issue 18: the consent screen a third-party application sends the user to.
  area(appRoute, 'oauth/authorize', msg`Authorize application`, {
    component: () => <ConsentPage />,
  }),
  area(appRoute, 'helpcenter/$helpcenterid/$helpcenterlang', msg`Help center`, {
    requirement: ROUTE_REQUIREMENTS.helpcenter,
  }),
  area(appRoute, 'service', msg`Service requests`, {
    children: (p) => [
      area(p, 'history', msg`Past service requests`),
      area(p, '$id/details', msg`Service request`),
    ],
  }),
  area(appRoute, 'tasks', msg`Tasks`, {
    children: (p) => [area(p, '$id/designer', msg`Form designer`)],
  }),
  area(appRoute, 'security-insights', msg`Security insights`, {
    children: (p) => [
      forward(p, '/', '/app/security-insights/overview'),
      area(p, 'overview', msg`Overview`, { requirement: ROUTE_REQUIREMENTS.securityInsights }),
      area(p, 'threat-overview', msg`Threat overview`, {
        requirement: ROUTE_REQUIREMENTS.securityInsights,
      }),
    ],
  }),
  area(appRoute, 'versions', msg`Release management`, {
    children: (p) => [
      forward(p, '/', '/app/versions/modules'),
      area(p, 'platforms', msg`Platforms`),
      area(p, 'platforms/$slug/$id/general', msg`Platform`),
      area(p, 'modules', msg`Modules`),
      // modules/{id}/{version?}, each with its tabs.
      area(p, 'modules/$id', msg`Module`, {
        children: (m) => [
          ...moduleTabs(m),
          area(m, '$version', msg`Version`, { children: moduleTabs }),
        ],
      }),
    ],
  }),
  area(appRoute, 'gateways', msg`Gateways`, {
    requirement: ROUTE_REQUIREMENTS.gateways,
    children: (p) => [
      forward(p, '/', '/app/gateways/list'),
      area(p, 'list', msg`Gateways`, { component: () => <GatewaysListPage /> }),
      area(p, '$id/details', msg`Gateway`, { component: () => <GatewayDetailsPage /> }),
      area(p, '$id/terminal', msg`Terminal`, {
        requirement: ROUTE_REQUIREMENTS.gatewayTerminal,
        component: () => <TerminalPage />,
      }),
      area(p, '$id/logs', msg`Gateway logs`, { component: () => <LogsPage /> }),
    ],
  }),
  listArea('dashboards', msg`Dashboards`, {
    item: { param: '$dashboardid', title: msg`Dashboard` },
  }),
  area(appRoute, 'translations', msg`Translations`, {
    children: (p) => [
      forward(p, '/', '/app/translations/list'),
      area(p, 'list', msg`Translations`),
    ],
  }),
  listArea('themes', msg`Themes`, { item: { param: '$themeid', title: msg`Theme` } }),
  area(appRoute, 'report/$id/page/$pageid', msg`Report`),
  area(appRoute, 'single', msg`Single view`),
  area(appRoute, 'api', msg`API`, {
    component: lazyPage(
      () => import('../features/api-reference/api-reference-page'),
      'ApiReferencePage',
    ),
    children: (p) => [
      area(p, 'map', msg`Map`, {
        component: lazyPage(() => import('../features/api-reference/api-map-page'), 'ApiMapPage'),
      }),
    ],
  }),
  area(appRoute, 'qr', msg`QR codes`, {
    component: () => <QrPage />,
    children: (p) => [
      area(p, 'scan', msg`Scan`, { component: () => <QrScanPage /> }),
      area(p, 'details', msg`QR code labels`, { component: () => <QrLabelsPage /> }),
    ],
  }),
];

export const routeTree = rootRoute.addChildren([
  indexRoute,
  qrRedirect,
  scanRoute,
  errorRoute,
  noPermissionRoute,
  userRoute.addChildren(userRoutes),
  appRoute.addChildren(areas),
]);
