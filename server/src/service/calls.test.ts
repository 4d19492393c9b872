import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  apiPaths,
  CALL_OFFER_MAX_LENGTH,
  CALL_TEXTS,
  topics,
  type ServiceCallStart,
  type ServiceRequestAttributes,
  type SyncedModel,
} from '@plant/shared-schema';
import { DEMO_USERS } from '../seed/demo';
import { DEMO_SERVICE_REQUEST } from '../seed/demo-feedback';
import { sql } from 'kysely';
import type { Db } from '../db/database';
import { ChangeLogRepository } from '../repositories/change-log.repository';
import { dataOf, startTestServer, type Answer, type TestServer } from '../testing/harness';
import { brokerClients, closing, collect, settle, until } from '../testing/mqtt-client';

/*
 * Calls of service requests on the server (issue 34 item 3): the agent is one online and free;
 * the call's topics carry signalling between its two parties only, each message stamped with
 * its sender; a third user can neither listen nor speak; a call ends by either party or when a
 * party's last broker link goes; the request keeps its calls.
 */
let s: TestServer;
const { session, connect, closeAll } = brokerClients(() => s);

beforeAll(async () => {
  s = await startTestServer();
});
afterEach(() => closeAll());
afterAll(() => s.close());

async function demoRequest(token: string): Promise<SyncedModel> {
  const found = (await s.snapshot(token)).find(
    (m) => m.type === 'service_request' && m.attributes.title === DEMO_SERVICE_REQUEST,
  );
  if (found === undefined) throw new Error('the demo request is missing');
  return found;
}

const startCall = (requestId: string, token: string, offer?: string) =>
  s.call('POST', apiPaths.serviceCalls(requestId), {
    token,
    json: { kind: 'video', ...(offer === undefined ? {} : { offer }) },
  });

/** A caller's offer as its browser sends it with the call (only its text matters here). */
const OFFER = 'v=0\r\no=- 4611 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n';

/**
 * When the request's record of a call says it ended; null while it does not, or does not list the
 * call yet (listed once ended, or 1.5 s after its start).
 */
async function endedAt(requestId: string, callId: string): Promise<number | null> {
  return (await stored(requestId)).calls.find((c) => c.id === callId)?.ended_at ?? null;
}

async function stored(id: string): Promise<ServiceRequestAttributes> {
  const row = await s.db
    .selectFrom('models')
    .select('attributes')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return JSON.parse(row.attributes) as ServiceRequestAttributes;
}

describe('calls of service requests', () => {
  it('finds no agent while none is online: the spec’s words', async () => {
    const tech = await session(DEMO_USERS.tech);
    const request = await demoRequest(tech.token);
    const none = await startCall(request.id, tech.token);
    expect(none.status).toBe(409);
    expect(none.text).toContain(CALL_TEXTS.noAgent);
  });

  it('connects the caller with the online agent; only the two use the call’s topics', async () => {
    const tech = await session(DEMO_USERS.tech);
    const agent = await session(DEMO_USERS.internal);
    const other = await session(DEMO_USERS.admin);
    const agentLink = await connect(agent.creds);
    const account = tech.user.account;
    // The call rings at the agent's links at once, and at nobody else's.
    const otherLink = await connect(other.creds);
    for (const link of [agentLink, otherLink]) await link.subscribeAsync(topics.callRing(account));
    const agentRings = collect(agentLink);
    const otherRings = collect(otherLink);
    const request = await demoRequest(tech.token);
    // An offer larger than a browser's, or no SDP, is refused, and makes no call.
    const huge = await startCall(
      request.id,
      tech.token,
      `v=0\r\n${'a'.repeat(CALL_OFFER_MAX_LENGTH)}`,
    );
    expect(huge.status, huge.text).toBe(422);
    const notSdp = await startCall(request.id, tech.token, '<script>');
    expect(notSdp.status, notSdp.text).toBe(422);
    // The caller's offer goes with its call, and rings with it at the agent only.
    const started = await startCall(request.id, tech.token, OFFER);
    expect(started.status, started.text).toBe(201);
    const call = dataOf<ServiceCallStart>(started);
    expect(call.peer.user_id).toBe(agent.user.id);
    await until(() => agentRings.length === 1);
    expect(agentRings[0]?.payload).toEqual({
      call_id: call.call_id,
      request_id: request.id,
      caller: { user_id: tech.user.id, name: expect.any(String) as string },
      kind: 'video',
      offer: OFFER,
    });
    await settle();
    expect(otherRings).toHaveLength(0);
    expect(Array.isArray(call.ice_servers)).toBe(true);
    // The request keeps the call, its parties named (a moment after it rang).
    await expect
      .poll(async () => (await stored(request.id)).calls.some((c) => c.id === call.call_id), {
        timeout: 10_000,
      })
      .toBe(true);
    const kept = (await stored(request.id)).calls.find((c) => c.id === call.call_id);
    expect(kept).toMatchObject({ ended_at: null, kind: 'video' });
    expect(kept?.participants.map((p) => p.user_id)).toEqual([tech.user.id, agent.user.id]);

    // The caller listens to its inboxes of every call (as its page does before calling), the
    // agent to its inbox of this call.
    const techLink = await connect(tech.creds);
    await techLink.subscribeAsync(topics.callInboxes(account, tech.user.id));
    await agentLink.subscribeAsync(topics.callInbox(account, call.call_id, agent.user.id));
    const toAgent = collect(agentLink);
    const toTech = collect(techLink);
    // A message names its sender as the broker knows it, whatever it says.
    await techLink.publishAsync(
      topics.callInbox(account, call.call_id, agent.user.id),
      JSON.stringify({
        type: 'description',
        from: 'somebody-else',
        description: { type: 'offer', sdp: 'v=0' },
      }),
      { qos: 1 },
    );
    await agentLink.publishAsync(
      topics.callInbox(account, call.call_id, tech.user.id),
      JSON.stringify({ type: 'ready', from: agent.user.id }),
      { qos: 1 },
    );
    await until(() => toAgent.length === 1 && toTech.length === 1);
    expect(toAgent[0]?.payload).toEqual({
      type: 'description',
      from: tech.user.id,
      description: { type: 'offer', sdp: 'v=0' },
    });
    expect(toTech[0]?.payload).toEqual({ type: 'ready', from: agent.user.id });

    // A third user of the account may not listen to either inbox…
    const thirdLink = await connect(other.creds);
    for (const user of [tech.user.id, agent.user.id]) {
      await expect(
        thirdLink.subscribeAsync(topics.callInbox(account, call.call_id, user)),
      ).rejects.toThrow(/Subscribe error/);
    }
    // …and what it publishes to them is refused (its link closed) and reaches nobody.
    const thirdClosed = closing(thirdLink);
    thirdLink.publish(
      topics.callInbox(account, call.call_id, agent.user.id),
      JSON.stringify({ type: 'bye', from: other.user.id }),
      { qos: 1 },
    );
    await thirdClosed;
    // Nor to their inboxes of every call (its own it may: nothing of this call comes there).
    const thirdAgain = await connect(other.creds);
    for (const user of [tech.user.id, agent.user.id]) {
      await expect(thirdAgain.subscribeAsync(topics.callInboxes(account, user))).rejects.toThrow(
        /Subscribe error/,
      );
    }
    await thirdAgain.subscribeAsync(topics.callInboxes(account, other.user.id));
    const toThird = collect(thirdAgain);
    // A party may not listen to the other's inbox, nor send what is no call message.
    await expect(
      techLink.subscribeAsync(topics.callInbox(account, call.call_id, agent.user.id)),
    ).rejects.toThrow(/Subscribe error/);
    await settle();
    expect(toAgent).toHaveLength(1);
    expect(toThird).toHaveLength(0);

    // The agent is busy now: another request's call finds nobody.
    const second = await s.call('POST', apiPaths.collection('service_requests'), {
      token: tech.token,
      json: { asset_id: request.attributes.asset_id, title: 'Second', description: 'Again.' },
    });
    const busy = await startCall(dataOf<SyncedModel>(second).id, tech.token);
    expect(busy.status).toBe(409);
    expect(busy.text).toContain(CALL_TEXTS.noAgent);

    // Either party ends it: the request says when, the topics close.
    const ended = await s.call('POST', apiPaths.serviceCallEnd(request.id, call.call_id), {
      token: tech.token,
    });
    expect(ended.status).toBe(200);
    const done = (await stored(request.id)).calls.find((c) => c.id === call.call_id);
    expect(done?.ended_at).not.toBeNull();
    const late = await connect(agent.creds);
    await expect(
      late.subscribeAsync(topics.callInbox(account, call.call_id, agent.user.id)),
    ).rejects.toThrow(/Subscribe error/);
  });

  it('ends a call when the link a party spoke on goes, though another of its links stays', async () => {
    const tech = await session(DEMO_USERS.tech);
    const agent = await session(DEMO_USERS.internal);
    const account = tech.user.account;
    const agentTab = await connect(agent.creds);
    // Another tab of the agent's: a browser id (and credentials) of its own.
    const agentOtherTab = await connect((await session(DEMO_USERS.internal)).creds);
    const request = await demoRequest(tech.token);
    const started = await startCall(request.id, tech.token);
    expect(started.status, started.text).toBe(201);
    const callId = dataOf<ServiceCallStart>(started).call_id;
    // The agent's call page speaks first (its `ready`), no subscription of the call's own.
    await agentTab.publishAsync(
      topics.callInbox(account, callId, tech.user.id),
      JSON.stringify({ type: 'ready', from: agent.user.id }),
      { qos: 1 },
    );
    await agentTab.endAsync(true);
    await expect.poll(() => endedAt(request.id, callId)).not.toBeNull();
    expect(agentOtherTab.connected).toBe(true);
  });

  it('ends a call when a party’s last broker link goes (a closed tab)', async () => {
    const tech = await session(DEMO_USERS.tech);
    const agent = await session(DEMO_USERS.internal);
    const agentLink = await connect(agent.creds);
    const request = await demoRequest(tech.token);
    const started = await startCall(request.id, tech.token);
    expect(started.status, started.text).toBe(201);
    const callId = dataOf<ServiceCallStart>(started).call_id;
    await agentLink.endAsync(true);
    await expect.poll(() => endedAt(request.id, callId)).not.toBeNull();
    // Gone, the agent is no longer offered.
    const again = await startCall(request.id, tech.token);
    expect(again.status).toBe(409);
  });

  it('writes the end of a call its agent hung up as it rang, before the request listed it', async () => {
    const tech = await session(DEMO_USERS.tech);
    const agent = await session(DEMO_USERS.internal);
    await connect(agent.creds);
    const request = await demoRequest(tech.token);
    const postgres = s.databaseUrl !== undefined;
    const other = s.openDatabase();
    /** How many statements wait on a lock now (Postgres). */
    const waitingOnLocks = async () => {
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
        where wait_event_type = 'Lock' and datname = current_database()`.execute(other);
      return rows[0]?.n ?? 0;
    };
    /**
     * Runs `work` while another process's write of the account holds its writers (Postgres; on
     * SQLite the server's one connection runs one write at a time, and `work` runs without it).
     */
    const holding = (work: (db: Db) => Promise<void>) =>
      postgres
        ? other.transaction().execute(async (trx) => {
            await new ChangeLogRepository(trx).lock(tech.user.account);
            await work(trx);
          })
        : work(other);
    /** The call being made for the request, once its row is there. */
    const callMade = async (db: Db) => {
      let callId: string | undefined;
      await expect
        .poll(
          async () => {
            const row = await db
              .selectFrom('service_calls')
              .select('id')
              .where('request_id', '=', request.id)
              .where('ended_at', 'is', null)
              .executeTakeFirst();
            callId = row?.id;
            return callId;
          },
          { timeout: 10_000 },
        )
        .toBeDefined();
      return callId ?? '';
    };
    /** The call the answer names, as the request lists it once its end is there too. */
    const listed = async (answer: Answer | undefined) => {
      expect(answer?.status, answer?.text).toBe(201);
      const callId = answer === undefined ? '' : dataOf<ServiceCallStart>(answer).call_id;
      const find = async () => (await stored(request.id)).calls.find((c) => c.id === callId);
      await expect
        .poll(async () => (await find())?.ended_at ?? null, { timeout: 10_000 })
        .not.toBeNull();
      return find();
    };
    try {
      // The call is made and rings, its record in the request's list waits; the agent hangs up
      // then, which writes the record at once, and both writes wait behind the hold.
      let started: Promise<Answer> | undefined;
      let ended: Promise<Answer> | undefined;
      await holding(async (db) => {
        started = startCall(request.id, tech.token);
        const callId = await callMade(db);
        ended = s.call('POST', apiPaths.serviceCallEnd(request.id, callId), {
          token: agent.token,
        });
        // Both writes of the request wait behind the hold: the call's start and its end.
        if (postgres) await expect.poll(waitingOnLocks, { timeout: 10_000 }).toBeGreaterThan(1);
      });
      expect((await ended)?.status).toBe(200);
      const first = await listed(await started);
      expect(first).toBeDefined();
      expect(first?.ended_at).not.toBeNull();

      // An end that found the list without the call (a party's link gone, through another
      // process, before the record's write; here its row is ended by hand while the record
      // waits): the record writes the end.
      if (postgres) {
        let again: Promise<Answer> | undefined;
        await holding(async (db) => {
          again = startCall(request.id, tech.token);
          const callId = await callMade(db);
          await other
            .updateTable('service_calls')
            .set({ ended_at: Date.now() })
            .where('id', '=', callId)
            .execute();
          await expect.poll(waitingOnLocks, { timeout: 10_000 }).toBeGreaterThan(0);
        });
        const second = await listed(await again);
        expect(second).toBeDefined();
        expect(second?.ended_at).not.toBeNull();
      }
    } finally {
      await other.destroy();
    }
  });
});
