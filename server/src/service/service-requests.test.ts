import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiPaths,
  SERVICE_MOVES,
  SERVICE_PERMISSIONS,
  SERVICE_REQUEST_STATES,
  SERVICE_REQUEST_TEXTS,
  type AlarmAttributes,
  type GatewayAttributes,
  type ServiceRequestAttributes,
  type ServiceRequestState,
  type SyncedModel,
} from '@plant/shared-schema';
import { DEMO_USERS } from '../seed/demo';
import { dataOf, startTestServer, type Answer, type TestServer } from '../testing/harness';
import { roleMember, type RoleMember } from '../testing/role-member';
import { keepServiceAccess } from './service-rules';

/*
 * Service requests on the server (issue 34 item 2): every state change of the shared table,
 * allowed and forbidden, by each role a writer may have (reporter, assigned agent, admin, a
 * member who is none); the machine's context taken with consent when the request arrives; and
 * the agent, who sees no machine by its roles, seeing the request's asset exactly while the
 * request is active and assigned to it.
 */
let s: TestServer;
let admin = '';
let rootId = '';
let asset = '';
let otherAsset = '';

type Member = RoleMember;
const people: Record<'reporter' | 'agent' | 'outsider', Member> = {
  reporter: { id: '', token: '' },
  agent: { id: '', token: '' },
  outsider: { id: '', token: '' },
};

/** A member of the root account with a role of its own (all assets unless `noAssets`). */
const member = (name: string, permissions: readonly string[], noAssets = false) =>
  roleMember(s, {
    adminToken: admin,
    accountId: rootId,
    name,
    permissions,
    domain: 'service.test',
    assets: noAssets ? 'none' : 'all',
  });

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.signIn(DEMO_USERS.admin);
  rootId = (await s.demoAccountIds()).root;
  const machines = (await s.snapshot(admin)).filter(
    (m) => m.type === 'asset' && typeof m.attributes.gateway_id === 'string',
  );
  asset = machines[0]?.id ?? '';
  otherAsset = machines[1]?.id ?? '';
  expect(otherAsset).not.toBe('');
  const sees = ['asset::view', 'datastream::view', 'alarm::view', SERVICE_PERMISSIONS.view];
  people.reporter = await member('Reporter', sees);
  people.agent = await member('Agent', [...sees, SERVICE_PERMISSIONS.agent], true);
  people.outsider = await member('Outsider', sees);
});
afterAll(async () => {
  await s.close();
});

const create = (json: Record<string, unknown>, token: string) =>
  s.call('POST', apiPaths.collection('service_requests'), { token, json });
const put = (id: string, json: unknown, token: string) =>
  s.call('PUT', apiPaths.model('service_requests', id), { token, json });
const attributesOf = (answer: Answer) =>
  dataOf<SyncedModel>(answer).attributes as ServiceRequestAttributes;

async function requested(json: Record<string, unknown> = {}): Promise<string> {
  const made = await create(
    {
      asset_id: asset,
      title: 'Spindle stops',
      description: 'It stops after ten minutes.',
      ...json,
    },
    people.reporter.token,
  );
  expect(made.status, made.text).toBe(201);
  return dataOf<SyncedModel>(made).id;
}

/** The states in which the fixture's request has its agent. */
const WITH_AGENT: readonly ServiceRequestState[] = [
  'assigned',
  'in_progress',
  'resolved',
  'closed',
];

async function stored(id: string): Promise<ServiceRequestAttributes> {
  const row = await s.db
    .selectFrom('models')
    .select('attributes')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return JSON.parse(row.attributes) as ServiceRequestAttributes;
}

/** Puts the stored request into a state (its row, and its agent's access as the server keeps it). */
async function storeState(id: string, state: ServiceRequestState): Promise<void> {
  const attributes: ServiceRequestAttributes = {
    ...(await stored(id)),
    state,
    assigned_to: WITH_AGENT.includes(state) ? people.agent.id : null,
  };
  await s.db
    .updateTable('models')
    .set({ attributes: JSON.stringify(attributes) })
    .where('id', '=', id)
    .execute();
  await keepServiceAccess(s.db, rootId, id, attributes);
}

function moveBody(from: ServiceRequestState, to: ServiceRequestState): Record<string, unknown> {
  const move = SERVICE_MOVES.find((m) => m.from === from && m.to === to);
  const body: Record<string, unknown> = { state: to };
  if (move?.needs === 'assignee' && !WITH_AGENT.includes(from)) body.assigned_to = people.agent.id;
  if (move?.needs === 'no_assignee' && WITH_AGENT.includes(from)) body.assigned_to = null;
  return body;
}

const assetsSeenBy = async (token: string) =>
  new Set((await s.snapshot(token)).filter((m) => m.type === 'asset').map((m) => m.id));

describe('service requests', () => {
  it('makes every state change the table allows, to whom it allows it, and refuses every other', async () => {
    const id = await requested();
    const writers = {
      reporter: people.reporter.token,
      agent: people.agent.token,
      admin,
      outsider: people.outsider.token,
    } as const;
    const outcomes: string[] = [];
    const expected: string[] = [];
    for (const from of SERVICE_REQUEST_STATES) {
      for (const to of SERVICE_REQUEST_STATES) {
        if (from === to) continue;
        const moves = SERVICE_MOVES.filter((m) => m.from === from && m.to === to);
        for (const [role, token] of Object.entries(writers)) {
          await storeState(id, from);
          const answer = await put(id, moveBody(from, to), token);
          // The agent is the agent only while the request is assigned to it, and sees its
          // machine only while it is active too: else the request is unknown to it (404).
          const assigned = WITH_AGENT.includes(from);
          const sees = role !== 'agent' || (assigned && from !== 'resolved' && from !== 'closed');
          const is = role === 'agent' && !assigned ? 'nobody' : role;
          const allowed = moves.some((m) => m.by.some((r) => r === is));
          outcomes.push(`${from} -> ${to} by ${role}: ${answer.status}`);
          expected.push(`${from} -> ${to} by ${role}: ${!sees ? 404 : allowed ? 200 : 403}`);
          if (answer.status === 200) expect(attributesOf(answer).state).toBe(to);
        }
      }
    }
    expect(outcomes).toEqual(expected);
    expect(outcomes.filter((o) => o.endsWith(': 200')).length).toBeGreaterThan(10);
    expect(outcomes.some((o) => o.includes('by outsider: 200'))).toBe(false);
  });

  it('asks for an agent to assign, a member, and the move to change the agent', async () => {
    const id = await requested();
    const bare = await put(id, { state: 'assigned' }, admin);
    expect(bare.status).toBe(422);
    expect(bare.text).toContain(SERVICE_REQUEST_TEXTS.assigneeRequired);
    const south = (
      await s.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', DEMO_USERS.south)
        .executeTakeFirstOrThrow()
    ).id;
    const stranger = await put(id, { state: 'assigned', assigned_to: south }, admin);
    expect(stranger.status).toBe(422);
    expect(stranger.text).toContain(SERVICE_REQUEST_TEXTS.assigneeNotMember);
    // A member without the agent's permission: its calls would never reach it.
    const notAgent = await put(id, { state: 'assigned', assigned_to: people.reporter.id }, admin);
    expect(notAgent.status).toBe(422);
    expect(notAgent.text).toContain(SERVICE_REQUEST_TEXTS.assigneeNotAgent);
    const quiet = await put(id, { assigned_to: people.agent.id }, admin);
    expect(quiet.status).toBe(403);
    expect(quiet.text).toContain(SERVICE_REQUEST_TEXTS.assignWithMove);
    // The report is its reporter's while open, then no longer.
    expect((await put(id, { title: 'Spindle stops hot' }, people.reporter.token)).status).toBe(200);
    expect((await put(id, { title: 'x' }, people.outsider.token)).status).toBe(403);
    const assigned = await put(id, { state: 'assigned', assigned_to: people.agent.id }, admin);
    expect(assigned.status).toBe(200);
    // The request names its agent for who may not list the members (the reporter).
    expect(attributesOf(assigned).agent_name).toBe('Agent Tester');
    const late = await put(id, { title: 'Spindle stops cold' }, people.reporter.token);
    expect(late.status).toBe(403);
    expect(late.text).toContain(SERVICE_REQUEST_TEXTS.fieldNotYours);
    // Closed, the agent's view of the machine goes with it (the tests below start without).
    expect((await put(id, { state: 'closed' }, admin)).status).toBe(200);
  });

  it('attaches the machine’s context with consent, when the request arrives, never from the client', async () => {
    // The machine's state: a latest value of one of its streams, an active alarm, its gateway's
    // agent version.
    const models = await s.snapshot(admin);
    const stream = models.find((m) => m.type === 'datastream' && m.attributes.asset_id === asset);
    expect(stream).toBeDefined();
    // And a state stream's, whose texts the context keeps with the value.
    const stateStream = models.find(
      (m) =>
        m.type === 'datastream' && m.attributes.asset_id === asset && m.attributes.type === 'state',
    );
    expect(stateStream).toBeDefined();
    const now = Date.now();
    await s.machineData.store.append({
      source: 'service-test',
      seq: 1,
      points: [
        { stream: stream?.id ?? '', account: rootId, ts: now - 1000, value: 73.5 },
        { stream: stateStream?.id ?? '', account: rootId, ts: now - 1000, value: 1 },
      ],
    });
    const alarm = models.find((m) => m.type === 'alarm' && m.attributes.asset_id === asset);
    expect(alarm).toBeDefined();
    const alarmAttributes = alarm?.attributes as AlarmAttributes;
    await s.db
      .updateTable('models')
      .set({
        attributes: JSON.stringify({
          ...alarmAttributes,
          status: { ...(alarmAttributes.status ?? {}), state: 'active', since: now - 60_000 },
        }),
      })
      .where('id', '=', alarm?.id ?? '')
      .execute();
    const gatewayId = models.find((m) => m.id === asset)?.attributes.gateway_id as string;
    const gateway = models.find((m) => m.id === gatewayId)?.attributes as GatewayAttributes;
    await s.db
      .updateTable('models')
      .set({
        attributes: JSON.stringify({
          ...gateway,
          agent: { ...(gateway.agent ?? {}), version: '9.8.7' },
        }),
      })
      .where('id', '=', gatewayId)
      .execute();

    const withConsent = await stored(await requested({ consent: true }));
    expect(withConsent.context).toMatchObject({
      asset: { id: asset, name: models.find((m) => m.id === asset)?.attributes.name },
      alarms: [expect.objectContaining({ id: alarm?.id, state: 'active' })],
      agent_version: '9.8.7',
    });
    expect(withConsent.context?.values.find((v) => v.stream_id === stream?.id)?.value).toBe(73.5);
    expect(withConsent.context?.values.find((v) => v.stream_id === stateStream?.id)).toMatchObject({
      value: 1,
      type: 'state',
      state_texts: stateStream?.attributes.state_texts,
    });
    expect(withConsent.reported_by).toBe(people.reporter.id);
    // Without consent: nothing of the machine; a context the client sends is not taken.
    const without = await stored(await requested());
    expect(without.context).toBeNull();
    const forged = await create(
      {
        asset_id: asset,
        title: 'Forged',
        description: 'A context from the client.',
        context: { ...withConsent.context, agent_version: 'forged' },
      },
      people.reporter.token,
    );
    if (forged.status === 201) expect(attributesOf(forged).context).toBeNull();
    else expect(forged.status).toBe(422);
    // Consent is given when the request is sent: never added or taken back after.
    const later = await put(dataOf<SyncedModel>(forged).id ?? '', { consent: true }, admin);
    expect([403, 404, 422]).toContain(later.status);
  });

  it('shows the agent the request’s machine only while the request is active and its own', async () => {
    const id = await requested();
    const before = await assetsSeenBy(people.agent.token);
    expect(before.has(asset)).toBe(false);
    // Unknown to the agent before it is assigned.
    expect((await put(id, { state: 'in_progress' }, people.agent.token)).status).toBe(404);

    const assigned = await put(id, { state: 'assigned', assigned_to: people.agent.id }, admin);
    expect(assigned.status, assigned.text).toBe(200);
    const during = await s.snapshot(people.agent.token);
    const seen = new Set(during.filter((m) => m.type === 'asset').map((m) => m.id));
    expect(seen).toEqual(new Set([asset]));
    expect(during.some((m) => m.id === id)).toBe(true);
    // The machine's streams come with it; another machine's never.
    expect(during.some((m) => m.type === 'datastream' && m.attributes.asset_id === asset)).toBe(
      true,
    );
    expect(during.some((m) => m.attributes.asset_id === otherAsset)).toBe(false);
    expect((await put(id, { state: 'in_progress' }, people.agent.token)).status).toBe(200);
    expect((await put(id, { state: 'resolved' }, people.agent.token)).status).toBe(200);
    // Resolved: no longer active, so the machine is no longer the agent's to see.
    expect((await assetsSeenBy(people.agent.token)).has(asset)).toBe(false);
    // The reporter says it is not solved: the agent sees it again, until the reporter closes it.
    expect((await put(id, { state: 'in_progress' }, people.reporter.token)).status).toBe(200);
    expect((await assetsSeenBy(people.agent.token)).has(asset)).toBe(true);
    expect((await put(id, { state: 'resolved' }, people.agent.token)).status).toBe(200);
    expect((await put(id, { state: 'closed' }, people.reporter.token)).status).toBe(200);
    expect((await assetsSeenBy(people.agent.token)).has(asset)).toBe(false);
    const left = await s.db.selectFrom('service_access').selectAll().execute();
    expect(left.filter((r) => r.request_id === id)).toEqual([]);
  });
});
