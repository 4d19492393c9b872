import { createRoute, redirect, type AnyRoute } from '@tanstack/react-router';
import { msg } from '@lingui/core/macro';
import { area, forward, type AreaDefinition } from '../../routes/area-routes';
import { lazyPage } from '../../routes/lazy';
import { RELEASES_REQUIREMENT } from './paths';

const ModulesPage = lazyPage(() => import('./modules-page'), 'ModulesPage');
const PlatformsPage = lazyPage(() => import('./platforms-page'), 'PlatformsPage');
/** One version's page: it reads the module, the version and the tab from the path. */
const ReleasePage = lazyPage(() => import('./release-page'), 'ReleasePage');

/** `…/{id}` and `…/{id}/{version}` open their general tab. */
const toGeneral = (parent: AnyRoute) =>
  createRoute({
    getParentRoute: () => parent,
    path: '/',
    beforeLoad: ({ location }) => {
      throw redirect({ to: `${location.pathname.replace(/\/$/, '')}/general` });
    },
  });

/** The tabs of a module (its newest version's), and of one version of it. */
const moduleTabs = (m: AnyRoute) => [
  toGeneral(m),
  area(m, 'general', msg`General`, { component: () => <ReleasePage /> }),
  area(m, 'interface', msg`Interface`, { component: () => <ReleasePage /> }),
  area(m, 'featureflags', msg`Feature flags`, { component: () => <ReleasePage /> }),
  area(m, 'actions', msg`Actions`, { component: () => <ReleasePage /> }),
  area(m, 'datastreams', msg`Data streams`, { component: () => <ReleasePage /> }),
];

/**
 * Release management (issue 35, spec 000 §2): modules and platforms (the gateway agent's and the
 * firmware's versions) with their versions and rollouts; firmware and boards are areas beside it.
 */
export const versionsArea: AreaDefinition = {
  app: (app) => [
    area(app, 'versions', msg`Release management`, {
      requirement: RELEASES_REQUIREMENT,
      children: (p) => [
        forward(p, '/', '/app/versions/modules'),
        area(p, 'platforms', msg`Platforms`, { component: () => <PlatformsPage /> }),
        area(p, 'platforms/$slug/$id/general', msg`Platform`, {
          component: () => <ReleasePage />,
        }),
        area(p, 'modules', msg`Modules`, { component: () => <ModulesPage /> }),
        // modules/{id}/{version?}, each with its tabs.
        area(p, 'modules/$id', msg`Module`, {
          children: (m) => [
            ...moduleTabs(m),
            area(m, '$version', msg`Version`, { children: moduleTabs }),
          ],
        }),
      ],
    }),
  ],
  menu: [
    {
      group: 'administration',
      position: 40,
      entry: {
        key: 'versions',
        label: msg`Release management`,
        icon: 'release',
        to: '/app/versions',
        section: '/app/versions',
        requirement: RELEASES_REQUIREMENT,
      },
    },
  ],
};
