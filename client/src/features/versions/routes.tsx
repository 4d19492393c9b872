import type { AnyRoute } from '@tanstack/react-router';
import { msg } from '@lingui/core/macro';
import { area, forward, type AreaDefinition } from '../../routes/area-routes';

/** The tabs of a module, and of one version of it. */
const moduleTabs = (m: AnyRoute) => [
  area(m, 'general', msg`General`),
  area(m, 'interface', msg`Interface`),
  area(m, 'featureflags', msg`Feature flags`),
  area(m, 'actions', msg`Actions`),
  area(m, 'datastreams', msg`Data streams`),
];

/** Release management (a later issue builds it): platforms and modules with their versions. */
export const versionsArea: AreaDefinition = {
  app: (app) => [
    area(app, 'versions', msg`Release management`, {
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
  ],
  menu: [
    {
      group: 'administration',
      placeholder: true,
      position: 40,
      entry: {
        key: 'versions',
        label: msg`Release management`,
        icon: 'release',
        to: '/app/versions',
        section: '/app/versions',
      },
    },
  ],
};
