import { msg } from '@lingui/core/macro';
import { createRoute, type AnyRoute } from '@tanstack/react-router';
import type { TicketBoard } from '@plant/shared-schema';
import { area, forward, type AreaDefinition } from '../../routes/area-routes';
import { lazyPage } from '../../routes/lazy';
import { feedbackPaths } from './paths';

const FeedbackBoardPage = lazyPage(() => import('./feedback-board-page'), 'FeedbackBoardPage');
const TicketPage = lazyPage(() => import('./ticket-page'), 'TicketPage');

/** The old feedback paths and where they lead now. */
const feedbackRedirects: Record<string, string> = {
  bug: 'platform',
  story: 'platform',
  problem: 'platform',
  feature: 'platform',
  help: 'operations',
};

const REQUIREMENT = { permission: 'feedback::view' } as const;

/** A board's page and its tickets' pages. */
function board(parent: AnyRoute, name: TicketBoard, title: Parameters<typeof area>[2]) {
  return area(parent, name, title, {
    component: () => <FeedbackBoardPage />,
    children: (p) => [
      createRoute({
        getParentRoute: () => p,
        path: '$ticketid',
        staticData: { title: msg`Ticket` },
        component: () => <TicketPage />,
      }),
    ],
  });
}

/**
 * The feedback centre (issue 34): problems and feature requests on the platform, the hardware
 * and the operations boards (spec 000 §2: its default is problem, which leads to platform).
 */
export const feedbackArea: AreaDefinition = {
  app: (app) => [
    area(app, 'feedback', msg`Feedback`, {
      requirement: REQUIREMENT,
      children: (p) => [
        forward(p, '/', '/app/feedback/problem'),
        board(p, 'platform', msg`Platform feedback`),
        board(p, 'hardware', msg`Hardware feedback`),
        board(p, 'operations', msg`Operations feedback`),
        ...Object.entries(feedbackRedirects).map(([from, to]) =>
          forward(p, from, `/app/feedback/${to}`),
        ),
      ],
    }),
  ],
  menu: [
    {
      group: 'service',
      position: 40,
      entry: () => ({
        key: 'feedback',
        label: msg`Feedback`,
        icon: 'feedback',
        to: feedbackPaths.board('platform'),
        section: '/app/feedback',
        requirement: REQUIREMENT,
      }),
    },
  ],
};
