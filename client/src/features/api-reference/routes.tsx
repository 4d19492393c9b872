import { msg } from '@lingui/core/macro';
import { area, type AreaDefinition } from '../../routes/area-routes';
import { lazyPage } from '../../routes/lazy';

const ApiReferencePage = lazyPage(() => import('./api-reference-page'), 'ApiReferencePage');
const ApiMapPage = lazyPage(() => import('./api-map-page'), 'ApiMapPage');

/** The API reference, and the map of the models. */
export const apiReferenceArea: AreaDefinition = {
  app: (app) => [
    area(app, 'api', msg`API`, {
      component: ApiReferencePage,
      children: (p) => [area(p, 'map', msg`Map`, { component: ApiMapPage })],
    }),
  ],
};
