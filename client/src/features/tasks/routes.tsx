import { msg } from '@lingui/core/macro';
import { area, type AreaDefinition } from '../../routes/area-routes';

/** Tasks (a later issue builds them), and a task's form designer. */
export const tasksArea: AreaDefinition = {
  app: (app) => [
    area(app, 'tasks', msg`Tasks`, {
      children: (p) => [area(p, '$id/designer', msg`Form designer`)],
    }),
  ],
};
