import { msg } from '@lingui/core/macro';
import { area, forward, type AreaDefinition } from '../../routes/area-routes';

/** The old feedback paths and where they lead now. */
const feedbackRedirects: Record<string, string> = {
  bug: 'platform',
  story: 'platform',
  problem: 'platform',
  feature: 'platform',
  help: 'operations',
};

/** Feedback (a later issue builds it): on the platform, the hardware, the operations. */
export const feedbackArea: AreaDefinition = {
  app: (app) => [
    area(app, 'feedback', msg`Feedback`, {
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
  ],
};
