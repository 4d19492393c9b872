import type { Db } from '../db/database';
import type { Clock } from '../lib/clock';
import { ModelRepository } from '../repositories/model.repository';
import { ChangeFeed } from '../services/change-feed';
import { ModelService } from '../services/model.service';

/** The demo tickets' titles (issue 34 item 5), for tests and the README. */
export const DEMO_TICKETS = {
  assigned: 'Spindle stops after a tool change',
  declined: 'Alarm mails arrive twice',
  fresh: 'Door sensor flickers',
  feature: 'Export a dashboard as CSV',
} as const;

/** The demo service request's title (issue 34 item 5). */
export const DEMO_SERVICE_REQUEST = 'Coolant pressure drops';

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
  people: {
    readonly tech: string;
    readonly admin: string;
    readonly agent: string;
    /** The technician's first machine (its service request's). */
    readonly machine: string;
  },
): Promise<void> {
  const models = new ModelService(trx, clock, new ChangeFeed());
  const create = async (collection: string, body: Record<string, unknown>) => {
    // As the server: the demo names who reported and wrote (server fields).
    const { answer } = await models.applyIn(
      trx,
      accountId,
      { kind: 'create', collection, body },
      true,
    );
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
  // A service request on the technician's first machine, being worked on by the agent, with the
  // machine's context as it was sent (issue 34 items 2 and 5).
  const machine = await new ModelRepository(trx).find(accountId, 'asset', people.machine);
  const name =
    machine === undefined ? '' : (JSON.parse(machine.attributes) as { name: string }).name;
  await create('service_requests', {
    asset_id: people.machine,
    title: DEMO_SERVICE_REQUEST,
    description: 'The coolant pressure drops below 2 bar a few minutes after the start.',
    state: 'in_progress',
    assigned_to: people.agent,
    consent: true,
    context: {
      taken_at: clock.now(),
      asset: { id: people.machine, name },
      alarms: [],
      values: [],
      agent_version: null,
    },
    reported_by: people.tech,
  });
}
