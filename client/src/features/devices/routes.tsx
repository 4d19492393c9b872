import { createRoute, redirect } from '@tanstack/react-router';
import { msg } from '@lingui/core/macro';
import { area, listArea, type AreaDefinition } from '../../routes/area-routes';
import { lazyPage } from '../../routes/lazy';
import { DashboardPage } from '../dashboards/routes';

const DevicesListPage = lazyPage(() => import('./devices-list-page'), 'DevicesListPage');
const DeviceDetailsPage = lazyPage(() => import('./device-details-page'), 'DeviceDetailsPage');
const StreamPage = lazyPage(() => import('./stream-page'), 'StreamPage');
const DemoDevicePage = lazyPage(() => import('../templates/demo-pages'), 'DemoDevicePage');
const AssetReportPage = lazyPage(() => import('../reports/report-page'), 'ReportPage');
const ScenePage = lazyPage(() => import('../threed/scene-page'), 'ScenePage');
const ThreedModelPage = lazyPage(() => import('../threed/threed-model-page'), 'ThreedModelPage');
const DiagramPage = lazyPage(() => import('../diagrams/diagram-page'), 'DiagramPage');
const ServiceBookletPage = lazyPage(
  () => import('../tasks/service-booklet-page'),
  'ServiceBookletPage',
);
const FillPage = lazyPage(() => import('../tasks/fill-page'), 'FillPage');

/** The assets (/app/devices): the overview, and one asset's details, streams and screens. */
export const devicesArea: AreaDefinition = {
  app: (app) => [
    listArea(app, 'devices', msg`Assets`, {
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
          area(d, 'uml/$diagramid', msg`UML diagram`, { component: () => <DiagramPage /> }),
          area(d, 'dashboard/$dashboardid', msg`Dashboard`, {
            component: () => <DashboardPage />,
          }),
          area(d, 'report/$reportid', msg`Report`, { component: () => <AssetReportPage /> }),
          area(d, 'eventinspection/$opportunityid', msg`Event inspection`, {
            component: lazyPage(() => import('../inspection/inspection-page'), 'InspectionPage'),
          }),
          area(d, 'i/$integrationslug', msg`Integration`, {
            component: lazyPage(() => import('../integration/integration-page'), 'IntegrationPage'),
          }),
          area(d, 'servicebooklet', msg`Service booklet`, {
            component: () => <ServiceBookletPage />,
          }),
          // Filling in a form on the asset (issue 37 item 2), for a task when one is named.
          area(d, 'servicebooklet/fill/$formid', msg`Fill in a form`, {
            component: () => <FillPage />,
          }),
          area(d, 'servicebooklet/fill/$formid/$taskid', msg`Fill in a form`, {
            component: () => <FillPage />,
          }),
          area(d, 'scene/$sceneid', msg`Scene`, { component: () => <ScenePage /> }),
          area(d, 'scene/v3/$sceneid', msg`Scene`, { component: () => <ScenePage /> }),
          area(d, '3d/$threedmodelid', msg`3D model`, { component: () => <ThreedModelPage /> }),
        ],
      },
    }),
  ],
  menu: [
    {
      group: 'operations',
      position: 20,
      entry: {
        key: 'assets',
        label: msg`Assets`,
        icon: 'asset',
        to: '/app/devices/list',
        section: '/app/devices',
      },
    },
    {
      group: 'operations',
      position: 30,
      // Details (spec 000 §2): only on an asset, leading to its details.
      entry: ({ assetId }) =>
        assetId === null
          ? null
          : {
              key: 'details',
              label: msg`Details`,
              icon: 'details',
              to: `/app/devices/${encodeURIComponent(assetId)}/details`,
              section: `/app/devices/${encodeURIComponent(assetId)}`,
              nested: true,
            },
    },
  ],
};
