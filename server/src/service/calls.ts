import {
  ACTIVE_SERVICE_STATES,
  CALL_TEXTS,
  personName,
  SERVICE_PERMISSIONS,
  serviceRequestModel,
  uuidv7,
  type CallKind,
  type CallRing,
  type IceServer,
  type ServiceCall,
  type ServiceCallStart,
  type ServiceRequestAttributes,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import type { BackgroundTasks } from '../lib/background';
import type { Clock } from '../lib/clock';
import type { Logger } from '../logger';
import { scopeTo } from '../repositories/account-scope';
import { ModelRepository } from '../repositories/model.repository';
import { UserRepository } from '../repositories/user.repository';
import { DomainError, forbidden, notFound } from '../services/domain-error';
import { serviceAgentsOf } from './service-rules';
import type { ModelService } from '../services/model.service';
import type { Session } from '../services/user.service';

/*
 * Calls of service requests (issue 34 item 3, DESIGN.md §14). The server picks the agent and
 * keeps the call (service_calls, and the request's `calls` for the screens); the browsers talk
 * WebRTC to each other, their signalling over the broker on the call's topics, which the
 * broker's ACL opens to the two parties only while the call lasts (partiesOf).
 */

/** The broker, as calls use it. */
export interface CallBroker {
  /** The users of the account with a live broker connection now (a closed tab's ends at once). */
  onlineUsers(accountId: string): ReadonlySet<string>;
  /** Tells the agent's browsers at once that a call rings (the request's model a sync later). */
  ring(accountId: string, agentId: string, ring: CallRing): void;
}

/** The two parties of a call that still lasts. */
export interface CallParties {
  readonly accountId: string;
  readonly callerId: string;
  readonly agentId: string;
}

/** How long the broker may rely on what it read of a call (an ended call closes within it). */
const PARTIES_TTL_MS = 3000;

/**
 * How long after its start a call is written into its request's list (and the request assigned
 * to its agent). The write reaches every open page of the request, its sync and its render; on
 * two cores, made at once, that work fell into the call's set-up, which it slowed by about 150
 * ms (bench/call.bench.ts, 2026-12-02). The call itself waits for nothing of it: the agent's page
 * rings over the broker, the caller's holds its call. A call ended through this process sooner is
 * written at its end (ended through another, when its delay is over).
 */
export const CALL_RECORD_DELAY_MS = 1500;

export class CallService {
  /** Set once the broker runs (server.ts); until then no agent is online. */
  presence: CallBroker | undefined;
  private readonly cache = new Map<string, { at: number; parties: CallParties | undefined }>();
  /** Calls whose record in their request waits (CALL_RECORD_DELAY_MS): each one's way to now. */
  private readonly recordsDue = new Map<string, () => void>();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly models: ModelService,
    private readonly log: Logger,
    readonly iceServers: readonly IceServer[],
    private readonly background: BackgroundTasks,
    private readonly recordDelayMs = CALL_RECORD_DELAY_MS,
  ) {}

  /**
   * Starts a call of the request with a free agent: its agent if it has one (only it sees the
   * machine), else any agent of the account online and in no other call, to whom the request is
   * then assigned. None: 'All agents busy or not available' (409). The caller's offer, when it
   * sent one, rings with the call: the agent answers it at once.
   */
  async start(
    session: Session,
    requestId: string,
    kind: CallKind,
    offer?: string,
  ): Promise<ServiceCallStart> {
    const accountId = session.activeAccount?.id;
    if (accountId === undefined) throw forbidden();
    const row = await new ModelRepository(this.db).find(
      accountId,
      serviceRequestModel.type,
      requestId,
    );
    if (row === undefined || !session.access.seesStored(row)) throw notFound('Model');
    const request = JSON.parse(row.attributes) as ServiceRequestAttributes;
    if (!ACTIVE_SERVICE_STATES.includes(request.state))
      throw new DomainError('conflict', CALL_TEXTS.callEnded);
    const caller = session.user.id;
    const agent = await this.freeAgent(accountId, requestId, request, caller);
    if (agent === undefined) throw new DomainError('conflict', CALL_TEXTS.noAgent);
    const now = this.clock.now();
    const callId = uuidv7(now);
    const users = new UserRepository(this.db);
    const named = async (id: string) => {
      const user = await users.findById(id);
      return {
        user_id: id,
        name: user === undefined ? '' : personName(user),
      };
    };
    const [callerNamed, agentNamed] = await Promise.all([named(caller), named(agent)]);
    await scopeTo(this.db, accountId)
      .insertInto('service_calls', [
        {
          id: callId,
          request_id: requestId,
          caller_id: caller,
          agent_id: agent,
          kind,
          started_at: now,
          ended_at: null,
        },
      ])
      .execute();
    // The agent's browser rings now; the request's model tells it (and its other tabs) later.
    this.presence?.ring(accountId, agent, {
      call_id: callId,
      request_id: requestId,
      caller: { user_id: callerNamed.user_id, name: callerNamed.name },
      kind,
      ...(offer === undefined ? {} : { offer }),
    });
    const call: ServiceCall = {
      id: callId,
      kind,
      started_at: now,
      ended_at: null,
      participants: [callerNamed, agentNamed],
    };
    // The request lists the call a moment later (CALL_RECORD_DELAY_MS), or at once when it ends.
    this.recordLater(callId, async () => {
      // An open request goes to the agent who takes the call: it sees the machine from now on.
      // Written from the request as stored then: a call that ended meanwhile wrote its end there.
      await this.models.serverUpdateWith<ServiceRequestAttributes>(
        accountId,
        serviceRequestModel.collection,
        requestId,
        (stored) => ({
          ...(stored.assigned_to === null && stored.state === 'open'
            ? { state: 'assigned', assigned_to: agent }
            : {}),
          calls: [...stored.calls.slice(-199), call],
        }),
      );
      // A call that ended before this write (its agent hung up as it rang) found nothing in the
      // request's list to end: its end goes there now.
      const after = await scopeTo(this.db, accountId)
        .selectFrom('service_calls')
        .select('ended_at')
        .where('id', '=', callId)
        .executeTakeFirst();
      if (after !== undefined && after.ended_at !== null)
        await this.writeEnd(accountId, requestId, callId, after.ended_at);
    });
    return {
      call_id: callId,
      request_id: requestId,
      peer: { user_id: agentNamed.user_id, name: agentNamed.name },
      ice_servers: [...this.iceServers],
    };
  }

  /** Ends a call (either party, or an admin of the account); ending one ended is a no-op. */
  async end(session: Session, requestId: string, callId: string): Promise<void> {
    const accountId = session.activeAccount?.id;
    if (accountId === undefined) throw forbidden();
    const row = await scopeTo(this.db, accountId)
      .selectFrom('service_calls')
      .selectAll()
      .where('id', '=', callId)
      .where('request_id', '=', requestId)
      .executeTakeFirst();
    if (row === undefined) throw notFound('Call');
    const party = row.caller_id === session.user.id || row.agent_id === session.user.id;
    if (!party && !session.access.permits(SERVICE_PERMISSIONS.admin))
      throw new DomainError('forbidden', CALL_TEXTS.notParty);
    await this.close(accountId, callId);
  }

  /**
   * A user's last broker connection in the account ended (a closed tab, a lost network): its
   * calls there end too, so its agent is free again and its peer is told.
   */
  async userGone(accountId: string, userId: string): Promise<void> {
    const open = await scopeTo(this.db, accountId)
      .selectFrom('service_calls')
      .select('id')
      .where('ended_at', 'is', null)
      .where((eb) => eb.or([eb('caller_id', '=', userId), eb('agent_id', '=', userId)]))
      .execute();
    for (const { id } of open) await this.close(accountId, id);
  }

  /** The link a party listened to the call on ended (its call page closed): the call ends. */
  async linkGone(accountId: string, callId: string): Promise<void> {
    await this.close(accountId, callId);
  }

  /**
   * The parties of a call that still lasts, for the broker's ACL (read at most every few
   * seconds per call); undefined for a call that ended or never was.
   */
  async partiesOf(accountId: string, callId: string): Promise<CallParties | undefined> {
    const now = this.clock.now();
    const cached = this.cache.get(callId);
    if (cached !== undefined && now - cached.at < PARTIES_TTL_MS) return cached.parties;
    const row = await scopeTo(this.db, accountId)
      .selectFrom('service_calls')
      .select(['caller_id', 'agent_id', 'ended_at'])
      .where('id', '=', callId)
      .executeTakeFirst();
    const parties =
      row === undefined || row.ended_at !== null
        ? undefined
        : { accountId, callerId: row.caller_id, agentId: row.agent_id };
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(callId, { at: now, parties });
    return parties;
  }

  /** Writes a call's record in its request after `recordDelayMs` (or once `flush`ed). */
  private recordLater(callId: string, record: () => Promise<void>): void {
    const due = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, this.recordDelayMs);
      this.recordsDue.set(callId, () => {
        clearTimeout(timer);
        resolve();
      });
    });
    this.background.run('a call’s record in its request', async () => {
      await due;
      this.recordsDue.delete(callId);
      await record();
    });
  }

  /** The records that wait are written now (before shutdown's drain of background work). */
  flush(): void {
    for (const now of this.recordsDue.values()) now();
  }

  private async close(accountId: string, callId: string): Promise<void> {
    // A call ending before its record was written: written now, its end with it.
    this.recordsDue.get(callId)?.();
    const now = this.clock.now();
    const ended = await scopeTo(this.db, accountId)
      .updateTable('service_calls')
      .set({ ended_at: now })
      .where('id', '=', callId)
      .where('ended_at', 'is', null)
      .returning('request_id')
      .executeTakeFirst();
    this.cache.delete(callId);
    if (ended !== undefined) await this.writeEnd(accountId, ended.request_id, callId, now);
  }

  /** A call's end in its request's list, if the call is there and not ended yet. */
  private async writeEnd(
    accountId: string,
    requestId: string,
    callId: string,
    endedAt: number,
  ): Promise<void> {
    await this.models
      .serverUpdateWith<ServiceRequestAttributes>(
        accountId,
        serviceRequestModel.collection,
        requestId,
        ({ calls }) =>
          calls.some((c) => c.id === callId && c.ended_at === null)
            ? { calls: calls.map((c) => (c.id === callId ? { ...c, ended_at: endedAt } : c)) }
            : null,
      )
      .catch((err: unknown) =>
        this.log.warn('a call’s end was not written to its request', {
          callId,
          error: String(err),
        }),
      );
  }

  /** The agent a call goes to: the request's own, else a free agent online, else none. */
  private async freeAgent(
    accountId: string,
    requestId: string,
    request: ServiceRequestAttributes,
    caller: string,
  ): Promise<string | undefined> {
    const online = this.presence?.onlineUsers(accountId) ?? new Set<string>();
    const agents = await serviceAgentsOf(this.db, accountId);
    const open = await this.openCalls(accountId);
    const busy = new Set(open.flatMap((r) => [r.caller_id, r.agent_id]));
    const free = (id: string) => id !== caller && online.has(id) && agents.has(id) && !busy.has(id);
    // A call of the request still going has its agent, whose assignment its record may not have
    // written yet (CALL_RECORD_DELAY_MS): that agent is the request's.
    const taken = request.assigned_to ?? open.find((r) => r.request_id === requestId)?.agent_id;
    if (taken !== undefined) return free(taken) ? taken : undefined;
    return [...agents].sort().find(free);
  }

  /** The account's calls that still go: their parties are busy. */
  private openCalls(accountId: string) {
    return scopeTo(this.db, accountId)
      .selectFrom('service_calls')
      .select(['request_id', 'caller_id', 'agent_id'])
      .where('ended_at', 'is', null)
      .execute();
  }
}
