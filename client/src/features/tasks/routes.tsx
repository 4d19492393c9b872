import { msg } from '@lingui/core/macro';
import { area, type AreaDefinition } from '../../routes/area-routes';
import { lazyPage } from '../../routes/lazy';
import { TASKS_REQUIREMENT } from './paths';

const TasksPage = lazyPage(() => import('./tasks-page'), 'TasksPage');
const FormDesignerPage = lazyPage(() => import('./form-designer-page'), 'FormDesignerPage');

/**
 * Forms and tasks (issue 37 item 1, spec 000 §2): /app/tasks lists the forms and the tasks that
 * tie them to assets; /app/tasks/{id}/designer designs one form. Filling in happens on the
 * asset (its service booklet, devices/routes.tsx).
 */
export const tasksArea: AreaDefinition = {
  app: (app) => [
    area(app, 'tasks', msg`Tasks`, {
      requirement: TASKS_REQUIREMENT,
      component: () => <TasksPage />,
      children: (p) => [
        area(p, '$id/designer', msg`Form designer`, { component: () => <FormDesignerPage /> }),
      ],
    }),
  ],
  menu: [
    {
      group: 'service',
      position: 25,
      entry: {
        key: 'tasks',
        label: msg`Tasks`,
        icon: 'task',
        to: '/app/tasks',
        section: '/app/tasks',
        requirement: TASKS_REQUIREMENT,
        badge: 'tasks',
      },
    },
  ],
};
