import type { ExpressionBuilder, Insertable, Selectable } from 'kysely';
import type { Db } from '../db/database';
import type { AlarmDeliveriesTable, AlarmEventsTable, Database } from '../db/types';
import { scopeTo } from '../repositories/account-scope';

export type EventRow = Selectable<AlarmEventsTable>;
export type DeliveryRow = Selectable<AlarmDeliveriesTable>;
export type NewDelivery = Omit<Insertable<AlarmDeliveriesTable>, 'account_id'>;

/** A member of an account as a recipient needs it. */
export interface MemberInfo {
  readonly id: string;
  readonly firstname: string;
  readonly lastname: string;
  readonly email: string;
  readonly phone: string;
  readonly language: string;
  /** NotificationSettings as JSON. */
  readonly notifications: string;
  /** The slugs of the roles it holds in the account. */
  readonly roles: readonly string[];
}

/**
 * The dispatcher's queries (notify/dispatcher.ts): the events outbox, deliveries, escalation.
 *
 * The outbox reads (`unexpanded`, `dueEscalations`, `dueDeliveries`) go across accounts on
 * purpose: they are the server's own queues, and every row they find is then handled within its
 * own account. Every other query is scoped to the account of the row it starts from.
 */
export class AlarmDeliveryRepository {
  constructor(private readonly db: Db) {}

  /** Events no dispatcher has expanded yet, oldest first. */
  unexpanded(limit: number): Promise<EventRow[]> {
    return this.db
      .selectFrom('alarm_events')
      .selectAll()
      .where('expanded_at', 'is', null)
      .orderBy('created_at')
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /**
   * Claims an event for expansion (compare-and-set on `expanded_at` null): true for exactly one
   * caller. A critical raise starts its escalation here (`escalateAt`).
   */
  async claimEvent(
    accountId: string,
    eventId: string,
    now: number,
    escalateAt: number | null,
  ): Promise<boolean> {
    const result = await scopeTo(this.db, accountId)
      .updateTable('alarm_events')
      .set({
        expanded_at: now,
        ...(escalateAt === null ? {} : { escalation_step: 0, escalate_at: escalateAt }),
      })
      .where('id', '=', eventId)
      .where('expanded_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** The raise a clear or an acknowledgement belongs to: the alarm's latest raise up to `ts`. */
  latestRaise(accountId: string, alarmId: string, ts: number): Promise<EventRow | undefined> {
    return scopeTo(this.db, accountId)
      .selectFrom('alarm_events')
      .selectAll()
      .where('alarm_id', '=', alarmId)
      .where('kind', '=', 'raised')
      .where('ts', '<=', ts)
      .orderBy('ts', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /** Whether the alarm has an event after its raise that ends the raise's escalation. */
  async endedAfter(accountId: string, raise: EventRow): Promise<boolean> {
    const row = await scopeTo(this.db, accountId)
      .selectFrom('alarm_events')
      .select('id')
      .where('alarm_id', '=', raise.alarm_id)
      .where('id', '!=', raise.id)
      .where('ts', '>=', raise.ts)
      .where('kind', 'in', ['cleared', 'acknowledged', 'raised'])
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  eventsByIds(accountId: string, ids: readonly string[]): Promise<EventRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return scopeTo(this.db, accountId)
      .selectFrom('alarm_events')
      .selectAll()
      .where('id', 'in', [...new Set(ids)])
      .execute();
  }

  /** Ends a raise's escalation (acknowledged, cleared, or nobody left to tell). */
  async stopEscalation(accountId: string, eventId: string): Promise<void> {
    await scopeTo(this.db, accountId)
      .updateTable('alarm_events')
      .set({ escalate_at: null })
      .where('id', '=', eventId)
      .execute();
  }

  /** Raises whose next escalation step is due. */
  dueEscalations(now: number, limit: number): Promise<EventRow[]> {
    return this.db
      .selectFrom('alarm_events')
      .selectAll()
      .where('escalate_at', 'is not', null)
      .where('escalate_at', '<=', now)
      .orderBy('escalate_at')
      .limit(limit)
      .execute();
  }

  /**
   * Moves a raise's escalation from step `from` to `from + 1` (compare-and-set: one process per
   * step), with the time of the step after (null: none).
   */
  async advanceEscalation(
    accountId: string,
    eventId: string,
    from: number,
    nextAt: number | null,
  ): Promise<boolean> {
    const result = await scopeTo(this.db, accountId)
      .updateTable('alarm_events')
      .set({ escalation_step: from + 1, escalate_at: nextAt })
      .where('id', '=', eventId)
      .where('escalation_step', '=', from)
      .where('escalate_at', 'is not', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Inserts deliveries; one already made for the same event, step, recipient and channel stays. */
  async insert(accountId: string, rows: readonly NewDelivery[]): Promise<void> {
    if (rows.length === 0) return;
    await scopeTo(this.db, accountId)
      .insertInto('alarm_deliveries', rows)
      .onConflict((oc) => oc.columns(['event_id', 'step', 'recipient_key', 'channel']).doNothing())
      .execute();
  }

  /** Every delivery of these events (a raise's, all steps). */
  ofEvents(accountId: string, eventIds: readonly string[]): Promise<DeliveryRow[]> {
    if (eventIds.length === 0) return Promise.resolve([]);
    return scopeTo(this.db, accountId)
      .selectFrom('alarm_deliveries')
      .selectAll()
      .where('event_id', 'in', eventIds)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  /** Deliveries due now: waiting and due, or sending by a claim whose lease ran out. */
  dueDeliveries(now: number, limit: number): Promise<DeliveryRow[]> {
    return this.db
      .selectFrom('alarm_deliveries')
      .selectAll()
      .where((eb) => dueNow(eb, now))
      .orderBy('due_at')
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /**
   * When this alarm last reached this recipient on this channel (the newest `sent_at` of its
   * sent deliveries), undefined when never: the start of its message interval.
   */
  async lastSent(
    accountId: string,
    alarmId: string,
    recipientKey: string,
    channel: DeliveryRow['channel'],
  ): Promise<number | undefined> {
    const row = await scopeTo(this.db, accountId)
      .selectFrom('alarm_deliveries')
      .select('sent_at')
      .where('alarm_id', '=', alarmId)
      .where('recipient_key', '=', recipientKey)
      .where('channel', '=', channel)
      .where('state', '=', 'sent')
      .where('sent_at', 'is not', null)
      .orderBy('sent_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row?.sent_at ?? undefined;
  }

  /**
   * Every due row of one alarm for one recipient on one channel (at most `limit`, oldest first):
   * what one message about it tells at once, though the round's batch read only some of them.
   */
  dueOfAlarm(
    accountId: string,
    alarmId: string,
    recipientKey: string,
    channel: DeliveryRow['channel'],
    now: number,
    limit: number,
  ): Promise<DeliveryRow[]> {
    return scopeTo(this.db, accountId)
      .selectFrom('alarm_deliveries')
      .selectAll()
      .where('alarm_id', '=', alarmId)
      .where('recipient_key', '=', recipientKey)
      .where('channel', '=', channel)
      .where((eb) => dueNow(eb, now))
      .orderBy('due_at')
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /**
   * Holds due rows until `until` (the end of their alarm's message interval): they stay waiting,
   * due then, and go out together. Only rows still due are moved (a row another process claimed
   * meanwhile stays its).
   */
  async hold(accountId: string, ids: readonly string[], until: number, now: number): Promise<void> {
    if (ids.length === 0) return;
    await scopeTo(this.db, accountId)
      .updateTable('alarm_deliveries')
      .set({ state: 'waiting', due_at: until, lease_until: null })
      .where('id', 'in', ids)
      .where((eb) => dueNow(eb, now))
      .execute();
  }

  /**
   * Claims rows for one send (compare-and-set: only rows still due are taken, so two processes
   * never both send one row). Answers the rows this caller took, each with its attempt counted.
   */
  claim(
    accountId: string,
    ids: readonly string[],
    digestId: string,
    now: number,
    leaseUntil: number,
  ): Promise<DeliveryRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return scopeTo(this.db, accountId)
      .updateTable('alarm_deliveries')
      .set((eb) => ({
        state: 'sending',
        digest_id: digestId,
        lease_until: leaseUntil,
        attempts: eb('attempts', '+', 1),
      }))
      .where('id', 'in', ids)
      .where((eb) => dueNow(eb, now))
      .returningAll()
      .execute();
  }

  /**
   * Ends a claimed row: only while it is still this send's (a claim taken over after its lease
   * ran out belongs to the other send now).
   */
  async finish(
    accountId: string,
    id: string,
    digestId: string,
    values: Pick<DeliveryRow, 'state' | 'last_error' | 'sent_at'> & { due_at?: number },
  ): Promise<void> {
    await scopeTo(this.db, accountId)
      .updateTable('alarm_deliveries')
      .set({ ...values, lease_until: null })
      .where('id', '=', id)
      .where('digest_id', '=', digestId)
      .where('state', '=', 'sending')
      .execute();
  }

  /** The account's name and whether its critical alarms override notification windows. */
  account(accountId: string) {
    // The accounts row of an event's own account (the id comes from a recorded event, never
    // from a request), so no membership stands in front of it.
    return this.db
      .selectFrom('accounts')
      .select(['id', 'name', 'alarm_critical_override'])
      .where('id', '=', accountId)
      .executeTakeFirst();
  }

  /** These users, if they are members of the account, with the roles they hold there. */
  async members(accountId: string, userIds: readonly string[]): Promise<Map<string, MemberInfo>> {
    const out = new Map<string, MemberInfo>();
    if (userIds.length === 0) return out;
    const rows = await scopeTo(this.db, accountId)
      .selectFrom('memberships')
      .innerJoin('users', 'users.id', 'memberships.user_id')
      .innerJoin('roles', 'roles.id', 'memberships.role_id')
      .where('memberships.user_id', 'in', userIds)
      .select([
        'users.id',
        'users.firstname',
        'users.lastname',
        'users.email',
        'users.phone',
        'users.language',
        'users.notifications',
        'roles.slug',
      ])
      .execute();
    for (const r of rows) {
      const known = out.get(r.id);
      if (known !== undefined) {
        out.set(r.id, { ...known, roles: [...known.roles, r.slug] });
        continue;
      }
      const { slug, ...user } = r;
      out.set(r.id, { ...user, roles: [slug] });
    }
    return out;
  }
}

/** A delivery due at `now`: waiting and due, or sending by a claim whose lease ran out. */
function dueNow(eb: ExpressionBuilder<Database, 'alarm_deliveries'>, now: number) {
  return eb.or([
    eb.and([eb('state', '=', 'waiting'), eb('due_at', '<=', now)]),
    eb.and([eb('state', '=', 'sending'), eb('lease_until', '<', now)]),
  ]);
}
