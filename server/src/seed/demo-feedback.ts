import type { Db } from '../db/database';
import type { Clock } from '../lib/clock';
import { ChangeFeed } from '../services/change-feed';
import { ModelService } from '../services/model.service';

/** The demo tickets' titles (issue 34 item 5), for tests and the README. */
export const DEMO_TICKETS = {
  assigned: 'Spindle stops after a tool change',
  declined: 'Alarm mails arrive twice',
  fresh: 'Door sensor flickers',
  feature: 'Export a dashboard as CSV',
} as const;

/**
 * The feedback centre's demo (issue 34 item 5): a few tickets of the machine builder's account in
 * several states, reported by the technician and worked on by the internal user (the service
 * agent): one assigned and being worked on with a message, one declined with its answer, one
 * new, and a feature request selected for development with the technician's vote.
 */
export async function seedDemoFeedback(
  trx: Db,
  clock: Clock,
  accountId: string,
  people: { readonly tech: string; readonly admin: string; readonly agent: string },
): Promise<void> {
  const models = new ModelService(trx, clock, new ChangeFeed());
  const create = async (collection: string, body: Record<string, unknown>) => {
    const { answer } = await models.applyIn(trx, accountId, { kind: 'create', collection, body });
    return answer.body.data?.id ?? '';
  };
  const assigned = await create('tickets', {
    kind: 'problem',
    board: 'hardware',
    title: DEMO_TICKETS.assigned,
    description: 'After every tool change the spindle stops for about ten seconds.',
    importance: 'Critical',
    state: 'assigned',
    assigned_to: people.agent,
    progress: 'being_worked_on',
    reported_by: people.tech,
  });
  await create('ticket_messages', {
    ticket_id: assigned,
    text: 'We are checking the tool changer’s timing with the machine’s logs.',
    author_id: people.agent,
  });
  await create('tickets', {
    kind: 'problem',
    board: 'platform',
    title: DEMO_TICKETS.declined,
    description: 'Every alarm mail comes twice.',
    importance: 'Low',
    state: 'declined',
    answer: 'Two recipients of the alarm share this address: remove one of them.',
    reported_by: people.tech,
  });
  await create('tickets', {
    kind: 'problem',
    board: 'operations',
    title: DEMO_TICKETS.fresh,
    description: 'The safety door’s sensor reports open and closed several times a minute.',
    importance: 'Medium',
    reported_by: people.tech,
  });
  const feature = await create('tickets', {
    kind: 'feature',
    board: 'platform',
    title: DEMO_TICKETS.feature,
    description: 'A button on a dashboard that downloads what it shows as CSV.',
    state: 'not_assigned',
    feature_status: 'selected_for_development',
    reported_by: people.admin,
  });
  await create('ticket_votes', { ticket_id: feature, user_id: people.tech });
}
