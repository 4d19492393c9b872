import { createRoute, redirect } from '@tanstack/react-router';
import { msg } from '@lingui/core/macro';
import { ROUTE_REQUIREMENTS } from '@plant/shared-schema';
import { area, listArea, type AreaDefinition } from '../../routes/area-routes';
import { lazyPage } from '../../routes/lazy';
import { DashboardPage } from '../dashboards/routes';

const TemplatesListPage = lazyPage(() => import('./templates-list-page'), 'TemplatesListPage');
const TemplateDetailsPage = lazyPage(
  () => import('./template-details-page'),
  'TemplateDetailsPage',
);
const DemoTemplatePage = lazyPage(() => import('./demo-pages'), 'DemoTemplatePage');
const ScenePage = lazyPage(() => import('../threed/scene-page'), 'TemplateScenePage');
const ThreedModelPage = lazyPage(
  () => import('../threed/threed-model-page'),
  'TemplateThreedModelPage',
);

/** Templates: the list, the demo, and one template's details and screens. */
export const templatesArea: AreaDefinition = {
  app: (app) => [
    listArea(app, 'templates', msg`Templates`, {
      requirement: ROUTE_REQUIREMENTS.templates,
      list: () => <TemplatesListPage />,
      more: (p) => [
        area(p, 'demo/smartphone', msg`Demo`, { component: () => <DemoTemplatePage /> }),
      ],
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
          area(t, 'dashboard/$dashboardid', msg`Dashboard`, {
            component: () => <DashboardPage />,
          }),
          area(t, 'details', msg`Details`, { component: () => <TemplateDetailsPage /> }),
          area(t, 'scene/$sceneid', msg`Scene`, {
            component: () => <ScenePage />,
          }),
          area(t, '3d/$threedmodelid', msg`3D model`, {
            component: () => <ThreedModelPage />,
          }),
        ],
      },
    }),
  ],
  // Issue 30 item 3: reachable by clicking, not only from an asset's "Save as layout".
  menu: [
    {
      group: 'operations',
      position: 45,
      entry: {
        key: 'templates',
        label: msg`Templates`,
        icon: 'template',
        to: '/app/templates/list',
        section: '/app/templates',
        requirement: ROUTE_REQUIREMENTS.templates,
      },
    },
  ],
};
