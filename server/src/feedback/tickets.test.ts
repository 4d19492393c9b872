import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiPaths,
  FEEDBACK_PERMISSIONS,
  TICKET_MOVES,
  TICKET_STATES,
  TICKET_TEXTS,
  type SyncedModel,
  type TicketAttributes,
  type TicketState,
  uuidv7,
  API_BASE,
} from '@plant/shared-schema';
import { isoAt } from '../lib/clock';
import { RoleRepository } from '../repositories/role.repository';
import { DEMO_USERS } from '../seed/demo';
import { dataOf, startTestServer, type Answer, type TestServer } from '../testing/harness';
import { roleMember, type RoleMember } from '../testing/role-member';
import { decoded, startSmtp } from '../testing/smtp';

/*
 * The feedback centre's tickets on the server (issue 34 item 1): every state change of the
 * shared table, allowed and forbidden, by each role a writer may have to a ticket (its reporter,
 * its assignee, a feedback admin, the development team, and a member who is none of them), and
 * the fields each may change; messages and votes.
 */
let s: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let admin = '';
let rootId = '';

type Member = RoleMember;
const people: Record<'reporter' | 'assignee' | 'developer' | 'outsider', Member> = {
  reporter: { id: '', token: '' },
  assignee: { id: '', token: '' },
  developer: { id: '', token: '' },
  outsider: { id: '', token: '' },
};

/**
 * A user of the demo machine builder's account with a role of its own holding these permissions
 * (made through the roles API as the admin), signed in there.
 */
const member = (name: string, permissions: readonly string[]) =>
  roleMember(s, {
    adminToken: admin,
    accountId: rootId,
    name,
    permissions,
    domain: 'tickets.test',
  });

beforeAll(async () => {
  smtp = await startSmtp();
  s = await startTestServer({ env: { SMTP_URL: smtp.url } });
  admin = await s.signIn(DEMO_USERS.admin);
  rootId = (await s.demoAccountIds()).root;
  const view = [FEEDBACK_PERMISSIONS.view];
  people.reporter = await member('Reporter', view);
  people.assignee = await member('Assignee', view);
  people.developer = await member('Developer', [...view, FEEDBACK_PERMISSIONS.develop]);
  people.outsider = await member('Outsider', view);
});
afterAll(async () => {
  await s.close();
  await smtp.close();
});

const create = (collection: string, json: unknown, token: string) =>
  s.call('POST', apiPaths.collection(collection), { token, json });
const put = (id: string, json: unknown, token: string) =>
  s.call('PUT', apiPaths.model('tickets', id), { token, json });
const attributesOf = (answer: Answer) => dataOf<SyncedModel>(answer).attributes as TicketAttributes;

async function reported(token = people.reporter.token, json: object = {}): Promise<string> {
  const made = await create(
    'tickets',
    { kind: 'problem', title: 'Pump leaks', description: 'Oil under the pump.', ...json },
    token,
  );
  expect(made.status, made.text).toBe(201);
  return dataOf<SyncedModel>(made).id;
}

/** The states in which the fixture's ticket has its assignee (the others have nobody). */
const WITH_ASSIGNEE: readonly TicketState[] = [
  'assigned',
  'pending',
  'answered',
  'responded',
  'not_responded',
  'closed',
];

async function stored(id: string): Promise<TicketAttributes> {
  const row = await s.db
    .selectFrom('models')
    .select('attributes')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return JSON.parse(row.attributes) as TicketAttributes;
}

/** Puts the stored ticket into a state, as a ticket there would be (straight into its row). */
async function storeState(id: string, state: TicketState, technical = false): Promise<void> {
  const attributes: TicketAttributes = {
    ...(await stored(id)),
    state,
    technical,
    assigned_to: WITH_ASSIGNEE.includes(state) ? people.assignee.id : null,
    answer: state === 'answered' || state === 'declined' ? 'Noted.' : '',
  };
  await s.db
    .updateTable('models')
    .set({ attributes: JSON.stringify(attributes) })
    .where('id', '=', id)
    .execute();
}

/** The body of a move from one state to another that meets the move's need, if it has one. */
function moveBody(from: TicketState, to: TicketState): Record<string, unknown> {
  const move = TICKET_MOVES.find((m) => m.from === from && m.to === to);
  const body: Record<string, unknown> = { state: to };
  if (move?.needs === 'answer') body.answer = `Answer for ${to}`;
  if (move?.needs === 'assignee' && !WITH_ASSIGNEE.includes(from))
    body.assigned_to = people.assignee.id;
  if (move?.needs === 'no_assignee' && WITH_ASSIGNEE.includes(from)) body.assigned_to = null;
  return body;
}

describe('tickets', () => {
  it('makes every state change the table allows, to whom it allows it, and refuses every other', async () => {
    const id = await reported();
    const writers = {
      reporter: people.reporter.token,
      assignee: people.assignee.token,
      admin,
      outsider: people.outsider.token,
      developer: people.developer.token,
    } as const;
    const outcomes: string[] = [];
    const expected: string[] = [];
    for (const from of TICKET_STATES) {
      for (const to of TICKET_STATES) {
        if (from === to) continue;
        const move = TICKET_MOVES.find((m) => m.from === from && m.to === to);
        for (const [role, token] of Object.entries(writers)) {
          // The development team's moves are those of a technical ticket.
          await storeState(id, from, role === 'developer');
          const answer = await put(id, moveBody(from, to), token);
          // What the writer is to this ticket: the assignee only while it has one.
          const is =
            role === 'assignee' ? (WITH_ASSIGNEE.includes(from) ? 'assignee' : 'nobody') : role;
          const allowed = move?.by.some((r) => r === is) ?? false;
          outcomes.push(`${from} -> ${to} by ${role}: ${answer.status}`);
          expected.push(`${from} -> ${to} by ${role}: ${allowed ? 200 : 403}`);
          if (answer.status === 200) expect(attributesOf(answer).state).toBe(to);
        }
      }
    }
    expect(outcomes).toEqual(expected);
    // Every role of the table had moves, and the outsider none.
    expect(outcomes.filter((o) => o.endsWith(': 200')).length).toBeGreaterThan(20);
    expect(outcomes.some((o) => o.includes('by outsider: 200'))).toBe(false);
  });

  it('asks for what a move needs: an answer to decline, somebody to assign, a member', async () => {
    const id = await reported();
    const decline = await put(id, { state: 'declined' }, admin);
    expect(decline.status).toBe(422);
    expect(decline.text).toContain(TICKET_TEXTS.answerRequired);
    const assign = await put(id, { state: 'assigned' }, admin);
    expect(assign.status).toBe(422);
    expect(assign.text).toContain(TICKET_TEXTS.assigneeRequired);
    // Somebody outside the account is no assignee.
    const south = (
      await s.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', DEMO_USERS.south)
        .executeTakeFirstOrThrow()
    ).id;
    const stranger = await put(id, { state: 'assigned', assigned_to: south }, admin);
    expect(stranger.status).toBe(422);
    expect(stranger.text).toContain(TICKET_TEXTS.assigneeNotMember);
    // Assigning is a move of its own, not a change beside the state.
    const quiet = await put(id, { assigned_to: people.assignee.id }, admin);
    expect(quiet.status).toBe(422);
    expect(quiet.text).toContain(TICKET_TEXTS.assignWithMove);
    const approved = await put(id, { state: 'assigned', assigned_to: people.assignee.id }, admin);
    expect(approved.status).toBe(200);
    expect(attributesOf(approved)).toMatchObject({
      state: 'assigned',
      assigned_to: people.assignee.id,
    });
  });

  it('lets each change the fields the table gives it: the report while new, the work after', async () => {
    const id = await reported();
    // The reporter changes its report while it waits for an admin, then no longer.
    expect((await put(id, { title: 'Pump leaks oil' }, people.reporter.token)).status).toBe(200);
    expect((await put(id, { importance: 'Critical' }, people.outsider.token)).status).toBe(403);
    expect(
      (await put(id, { state: 'assigned', assigned_to: people.assignee.id }, admin)).status,
    ).toBe(200);
    const late = await put(id, { title: 'Pump leaks water' }, people.reporter.token);
    expect(late.status).toBe(403);
    expect(late.text).toContain(TICKET_TEXTS.fieldNotYours);
    // Progress: the assignee's and the admin's; the development team's once it is technical.
    expect((await put(id, { progress: 'being_worked_on' }, people.reporter.token)).status).toBe(
      403,
    );
    expect((await put(id, { progress: 'being_worked_on' }, people.developer.token)).status).toBe(
      403,
    );
    expect((await put(id, { progress: 'being_worked_on' }, people.assignee.token)).status).toBe(
      200,
    );
    expect((await put(id, { technical: true }, people.assignee.token)).status).toBe(403);
    expect((await put(id, { technical: true }, admin)).status).toBe(200);
    const shipped = await put(id, { progress: 'shipped_next_release' }, people.developer.token);
    expect(shipped.status).toBe(200);
    expect(attributesOf(shipped)).toMatchObject({
      progress: 'shipped_next_release',
      technical: true,
      reported_by: people.reporter.id,
    });
    // A problem has a progress, a feature request a feature status.
    const status = await put(id, { feature_status: 'selected_for_development' }, admin);
    expect(status.status).toBe(422);
    expect(status.text).toContain(TICKET_TEXTS.statusOfFeatures);
  });

  it('files a report as new (an admin may file it approved) with the server’s reporter', async () => {
    const early = await create(
      'tickets',
      { kind: 'problem', title: 'Belt', description: 'Slips.', state: 'not_assigned' },
      people.reporter.token,
    );
    expect(early.status).toBe(403);
    const forged = await create(
      'tickets',
      { kind: 'problem', title: 'Belt', description: 'Slips.', reported_by: people.outsider.id },
      people.reporter.token,
    );
    expect(forged.status).toBe(201);
    expect(attributesOf(forged)).toMatchObject({
      state: 'new',
      reported_by: people.reporter.id,
      progress: 'received',
    });
    const direct = await create(
      'tickets',
      {
        kind: 'feature',
        title: 'Dark mode',
        description: 'For the night shift.',
        state: 'not_assigned',
      },
      admin,
    );
    expect(direct.status).toBe(201);
    expect(attributesOf(direct).state).toBe('not_assigned');
    const noTitle = await create('tickets', { kind: 'problem', description: 'x' }, admin);
    expect(noTitle.status).toBe(422);
    expect(noTitle.text).toContain(TICKET_TEXTS.titleRequired);
  });

  it('turns an answered ticket responded when its reporter writes back, not when others do', async () => {
    const id = await reported();
    await storeState(id, 'answered');
    const other = await create(
      'ticket_messages',
      { ticket_id: id, text: 'Same here.' },
      people.outsider.token,
    );
    expect(other.status).toBe(201);
    expect(dataOf<SyncedModel>(other).attributes.author_id).toBe(people.outsider.id);
    expect((await stored(id)).state).toBe('answered');
    const back = await create(
      'ticket_messages',
      { ticket_id: id, text: 'It leaks again after the new seal.', author_id: people.outsider.id },
      people.reporter.token,
    );
    expect(back.status).toBe(201);
    expect(dataOf<SyncedModel>(back).attributes.author_id).toBe(people.reporter.id);
    expect((await stored(id)).state).toBe('responded');
  });

  it('counts one vote per user for a feature request; a vote is taken back by its voter', async () => {
    const feature = await reported(people.reporter.token, { kind: 'feature', title: 'CSV export' });
    const problem = await reported();
    const vote = (ticket: string, token: string) =>
      create('ticket_votes', { ticket_id: ticket }, token);
    const mine = await vote(feature, people.outsider.token);
    expect(mine.status).toBe(201);
    expect(dataOf<SyncedModel>(mine).attributes.user_id).toBe(people.outsider.id);
    expect((await vote(feature, people.outsider.token)).status).toBe(409);
    expect((await vote(feature, people.assignee.token)).status).toBe(201);
    const onProblem = await vote(problem, people.outsider.token);
    expect(onProblem.status).toBe(422);
    expect(onProblem.text).toContain(TICKET_TEXTS.votesOfFeatures);
    const voteId = dataOf<SyncedModel>(mine).id;
    const taken = await s.call('DELETE', apiPaths.model('ticket_votes', voteId), {
      token: people.assignee.token,
    });
    expect(taken.status).toBe(403);
    const own = await s.call('DELETE', apiPaths.model('ticket_votes', voteId), {
      token: people.outsider.token,
    });
    expect(own.status).toBe(200);
  });

  it('mails the reporter a decline with its answer and each progress step, once', async () => {
    const email = 'reporter@tickets.test';
    // The reporter's mails about one ticket (its link names it).
    const mailsOf = (ticket: string) =>
      smtp.inbox
        .filter((m) => m.to.includes(email))
        .map((m) => decoded(m.raw))
        .filter((m) => m.includes(`/app/feedback/platform/${ticket}`));
    const declined = await reported(people.reporter.token, { title: 'Noisy fan' });
    const answer = 'The fan is within its rated noise; see the manual, page 12.';
    expect((await put(declined, { state: 'declined', answer }, admin)).status).toBe(200);
    await expect.poll(() => mailsOf(declined).length, { timeout: 20_000 }).toBe(1);
    expect(mailsOf(declined)[0]).toContain('Declined:');
    expect(mailsOf(declined)[0]).toContain(answer);

    const worked = await reported(people.reporter.token, { title: 'Door sensor' });
    expect(
      (await put(worked, { state: 'assigned', assigned_to: people.assignee.id }, admin)).status,
    ).toBe(200);
    expect((await put(worked, { progress: 'being_worked_on' }, people.assignee.token)).status).toBe(
      200,
    );
    expect((await put(worked, { progress: 'fixed' }, people.assignee.token)).status).toBe(200);
    await expect.poll(() => mailsOf(worked).length, { timeout: 20_000 }).toBe(2);
    expect(mailsOf(worked).map((m) => /Being worked on|Fixed/.exec(m)?.[0])).toEqual([
      'Being worked on',
      'Fixed',
    ]);
    // Each step once: the outbox holds every notice, each sent.
    const notices = await s.db
      .selectFrom('ticket_notices')
      .select(['kind', 'sent_at'])
      .where('ticket_id', 'in', [declined, worked])
      .execute();
    expect(notices.map((n) => n.kind).sort()).toEqual(['declined', 'progress', 'progress']);
    await expect
      .poll(async () =>
        (
          await s.db
            .selectFrom('ticket_notices')
            .select('sent_at')
            .where('ticket_id', 'in', [declined, worked])
            .execute()
        ).every((n) => n.sent_at !== null),
      )
      .toBe(true);
  });

  it('forwards a customer’s technical problem to the root account’s development team, whose progress is the original’s', async () => {
    const northId = (await s.demoAccountIds()).north;
    const adminRole = (
      await s.db
        .selectFrom('roles')
        .select('id')
        .where('account_id', '=', northId)
        .where('slug', '=', 'admin')
        .executeTakeFirstOrThrow()
    ).id;
    const made = await s.call('POST', apiPaths.register(), {
      json: {
        firstname: 'Northa',
        lastname: 'Tester',
        email: 'northa@tickets.test',
        password: 'ticket-pass-1',
      },
    });
    expect(made.status, made.text).toBe(201);
    const northUser = (made.json as { data: { user: { id: string } } }).data.user.id;
    await new RoleRepository(s.db).addMemberships(
      northId,
      [{ userId: northUser, roleId: adminRole }],
      isoAt(Date.now()),
    );
    await s.db
      .updateTable('users')
      .set({ active_account_id: northId })
      .where('id', '=', northUser)
      .execute();
    const north = await s.signIn('northa@tickets.test', 'ticket-pass-1');

    const id = await reported(north, { title: 'Controller reboots at night' });
    const marked = await put(id, { technical: true }, north);
    expect(marked.status, marked.text).toBe(200);
    const copyId = attributesOf(marked).forwarded_to;
    expect(copyId).not.toBeNull();
    // The copy is the root account's, for its development team; nothing of it names the reporter.
    const copy = await s.db
      .selectFrom('models')
      .select(['account_id', 'attributes'])
      .where('id', '=', copyId ?? '')
      .executeTakeFirstOrThrow();
    expect(copy.account_id).toBe(rootId);
    expect(JSON.parse(copy.attributes)).toMatchObject({
      title: 'Controller reboots at night',
      technical: true,
      reported_by: null,
      forwarded_from: { account_id: northId, ticket_id: id },
    });
    // Marked again (off and on): still one copy.
    expect((await put(id, { technical: false }, north)).status).toBe(200);
    expect((await put(id, { technical: true }, north)).status).toBe(200);
    const copies = await s.db
      .selectFrom('models')
      .select('id')
      .where('account_id', '=', rootId)
      .where('type', '=', 'ticket')
      .where('attributes', 'like', `%${id}%`)
      .execute();
    expect(copies).toHaveLength(1);

    // The development team moves the copy's progress; the customer's ticket follows.
    const shipped = await s.call('PUT', apiPaths.model('tickets', copyId ?? ''), {
      token: people.developer.token,
      json: { progress: 'shipped_next_release' },
    });
    expect(shipped.status, shipped.text).toBe(200);
    expect((await stored(id)).progress).toBe('shipped_next_release');
    // The team sees the copy, never the customer's ticket itself.
    const reach = await s.call('PUT', apiPaths.model('tickets', id), {
      token: people.developer.token,
      json: { progress: 'fixed' },
    });
    expect(reach.status).toBe(404);
  });

  it('keeps a ticket’s photo as a file of the ticket: its reporter adds it while new, who sees tickets reads it, nobody else', async () => {
    const filesOnly = await member('Filer', ['asset::view', 'asset::edit']);
    const png = new Uint8Array(
      await sharp({
        create: { width: 8, height: 8, channels: 3, background: { r: 40, g: 90, b: 200 } },
      })
        .png()
        .toBuffer(),
    );
    const photo = (ticket: string, token: string) =>
      create(
        'files',
        {
          id: uuidv7(),
          ticket_id: ticket,
          kind: 'photo',
          name: 'leak.png',
          type: 'image/png',
          size: png.length,
          sha256: createHash('sha256').update(png).digest('hex'),
        },
        token,
      );
    const upload = (id: string, token: string) =>
      fetch(`${s.url}${API_BASE}/${apiPaths.fileUpload(id, 0)}`, {
        method: 'PUT',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/octet-stream' },
        body: png,
      });
    const read = (id: string, token: string) =>
      fetch(`${s.url}${API_BASE}/${apiPaths.fileContent(id)}`, {
        headers: { Authorization: `Bearer ${token}` },
      });

    // The reporter (feedback::view, no right to machines' files) adds it to the new ticket.
    const ticket = await reported();
    const made = await photo(ticket, people.reporter.token);
    expect(made.status, made.text).toBe(201);
    const fileId = dataOf<SyncedModel>(made).id;
    expect((await upload(fileId, people.reporter.token)).status).toBe(200);
    // Its update names the ticket (the broker gives it to who sees tickets).
    const logged = await s.db
      .selectFrom('model_updates')
      .select('msg')
      .where('msg', 'like', `%${fileId}%`)
      .execute();
    expect(logged.map((r) => (JSON.parse(r.msg) as { ticket?: string }).ticket)).toContain(ticket);

    // Another member who sees tickets may not; who edits machines' files but sees no ticket
    // finds no such ticket.
    const other = await photo(ticket, people.outsider.token);
    expect(other.status).toBe(403);
    expect(JSON.stringify(other.json)).toContain(TICKET_TEXTS.photoNotYours);
    expect((await photo(ticket, filesOnly.token)).status).toBe(404);

    // Who sees tickets gets the photo's model and its bytes; who sees files only, neither.
    for (const viewer of [people.reporter, people.outsider]) {
      expect((await s.snapshot(viewer.token)).some((m) => m.id === fileId)).toBe(true);
      const bytes = await read(fileId, viewer.token);
      expect(bytes.status).toBe(200);
      expect(new Uint8Array(await bytes.arrayBuffer())).toEqual(png);
    }
    expect((await s.snapshot(filesOnly.token)).some((m) => m.id === fileId)).toBe(false);
    expect((await read(fileId, filesOnly.token)).status).toBe(404);

    // Approved: the report is the admin's now; the reporter adds no other photo, an admin does.
    expect((await put(ticket, { state: 'not_assigned' }, admin)).status).toBe(200);
    expect((await photo(ticket, people.reporter.token)).status).toBe(403);
    expect((await photo(ticket, admin)).status).toBe(201);
  });
});
