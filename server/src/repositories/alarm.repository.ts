import { uuidv7, type AlarmState } from '@plant/shared-schema';
import type { Db } from '../db/database';
import type { AlarmEventsTable, AlarmStatesTable } from '../db/types';
import { scopeTo } from './account-scope';

/** An alarm's stored state with the version it was read at (the compare-and-set's token). */
export interface StoredAlarmState {
  readonly state: AlarmState;
  readonly version: number;
  /** When (server clock) it was last written: with a point, when that point arrived. */
  readonly updatedAt: number;
}

/** An event to record (the id and the account come from here). */
export type NewAlarmEvent = Omit<AlarmEventsTable, 'id' | 'account_id' | 'created_at'>;

function toState(row: Omit<AlarmStatesTable, 'account_id'>): AlarmState {
  return {
    state: row.state,
    since: row.since === null ? null : Number(row.since),
    value: row.value,
    count: row.count,
    acknowledged: row.acknowledged === 1,
    lastTs: row.last_ts === null ? null : Number(row.last_ts),
  };
}

/**
 * Alarm states and events, always within one account. A state is written only through
 * `save`, a compare-and-set on the version it was read at: a writer that lost the race (another
 * server process recorded a newer state meanwhile) is told so and must not record its events.
 */
export class AlarmRepository {
  constructor(private readonly db: Db) {}

  /** The stored states of these alarms, by alarm id (absent: never evaluated). */
  async states(accountId: string, alarmIds: readonly string[]) {
    const out = new Map<string, StoredAlarmState>();
    if (alarmIds.length === 0) return out;
    // Many ids: the account's rows (read by its key) cost less than a list of a thousand ids.
    let query = scopeTo(this.db, accountId)
      .selectFrom('alarm_states')
      .select([
        'alarm_id',
        'state',
        'since',
        'value',
        'count',
        'acknowledged',
        'last_ts',
        'version',
        'updated_at',
      ]);
    if (alarmIds.length <= 64) query = query.where('alarm_id', 'in', alarmIds);
    const wanted = alarmIds.length <= 64 ? undefined : new Set(alarmIds);
    for (const row of await query.execute())
      if (wanted === undefined || wanted.has(row.alarm_id))
        out.set(row.alarm_id, {
          state: toState(row),
          version: Number(row.version),
          updatedAt: Number(row.updated_at),
        });
    return out;
  }

  /**
   * Writes an alarm's state if it is still at `version` (undefined: no row yet). Answers whether
   * it did; false means another writer got there first.
   */
  async save(
    accountId: string,
    alarmId: string,
    version: number | undefined,
    state: AlarmState,
    now: number,
  ): Promise<boolean> {
    const values = {
      state: state.state,
      since: state.since,
      value: state.value,
      count: state.count,
      acknowledged: state.acknowledged ? 1 : 0,
      last_ts: state.lastTs,
      updated_at: now,
    };
    const scope = scopeTo(this.db, accountId);
    if (version === undefined) {
      const result = await scope
        .insertInto('alarm_states', [{ alarm_id: alarmId, version: 1, ...values }])
        .onConflict((oc) => oc.columns(['account_id', 'alarm_id']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
    }
    const result = await scope
      .updateTable('alarm_states')
      .set({ ...values, version: version + 1 })
      .where('alarm_id', '=', alarmId)
      .where('version', '=', version)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async addEvents(accountId: string, events: readonly NewAlarmEvent[], now: number) {
    if (events.length === 0) return;
    await scopeTo(this.db, accountId)
      .insertInto(
        'alarm_events',
        events.map((e) => ({ ...e, id: uuidv7(now), created_at: now })),
      )
      .execute();
  }

  /** An alarm's events, oldest first. */
  events(accountId: string, alarmId: string) {
    return scopeTo(this.db, accountId)
      .selectFrom('alarm_events')
      .selectAll()
      .where('alarm_id', '=', alarmId)
      .orderBy('ts')
      .orderBy('id')
      .execute();
  }

  /**
   * Marks the latest raise acknowledged, whatever the row's version (the version moves, so an
   * evaluator that read the row before loses its compare-and-set and reads this). Its time of
   * writing stays: it is the stream's clock (`streamTime`), which an acknowledgement must not move.
   */
  async acknowledge(accountId: string, alarmId: string): Promise<void> {
    await scopeTo(this.db, accountId)
      .updateTable('alarm_states')
      .set((eb) => ({ acknowledged: 1, version: eb('version', '+', 1) }))
      .where('alarm_id', '=', alarmId)
      .execute();
  }

  /**
   * The account's alarm history, newest first (issue 17: per asset and per account): at most
   * `limit` events, of one asset when given, older than `before` (ts) when given.
   */
  history(
    accountId: string,
    options: {
      readonly assetId?: string;
      readonly alarmId?: string;
      readonly before?: number;
      readonly limit: number;
    },
  ) {
    let query = scopeTo(this.db, accountId).selectFrom('alarm_events').selectAll();
    if (options.assetId !== undefined) query = query.where('asset_id', '=', options.assetId);
    if (options.alarmId !== undefined) query = query.where('alarm_id', '=', options.alarmId);
    if (options.before !== undefined) query = query.where('ts', '<', options.before);
    return query
      .orderBy('ts', 'desc')
      .orderBy('id', 'desc')
      .limit(Math.max(1, Math.min(options.limit, 1_000)))
      .execute();
  }

  /** Alarms of the account with a pending state (their delay may run out without a point). */
  async pending(accountId: string) {
    const rows = await scopeTo(this.db, accountId)
      .selectFrom('alarm_states')
      .select('alarm_id')
      .where('state', '=', 'pending')
      .execute();
    return rows.map((r) => r.alarm_id);
  }

  /** Drops the states of alarms that are gone or disabled (their events stay: the history). */
  async forget(accountId: string, alarmIds: readonly string[]) {
    if (alarmIds.length === 0) return;
    await scopeTo(this.db, accountId)
      .deleteFrom('alarm_states')
      .where('alarm_id', 'in', alarmIds)
      .execute();
  }

  /** The accounts that have a pending alarm (the timer's list; each is then read in its scope). */
  async accountsWithPending(): Promise<string[]> {
    const rows = await this.db
      .selectFrom('alarm_states')
      .select('account_id')
      .distinct()
      .where('state', '=', 'pending')
      .execute();
    return rows.map((r) => r.account_id);
  }
}
