import {
  alarmModel,
  INITIAL_ALARM_STATE,
  stepRun,
  pointRun,
  type PointRun,
  tick,
  type AlarmAttributes,
  type AlarmState,
  type AlarmTransition,
  type PointValue,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import { ChangeLogRepository } from '../repositories/change-log.repository';
import type { ModelService } from '../services/model.service';
import type { ModelUpdate } from '@plant/shared-schema';
import { statusAfter, statusMoved } from './alarm-status';
import type { Clock } from '../lib/clock';
import type { Logger } from '../logger';
import {
  AlarmRepository,
  type NewAlarmEvent,
  type StoredAlarmState,
} from '../repositories/alarm.repository';
import { ModelRepository } from '../repositories/model.repository';
import type { ChangeFeed } from '../services/change-feed';

/** One enabled alarm as the evaluator needs it. */
export interface AlarmInfo {
  readonly id: string;
  readonly assetId: string;
  readonly rule: AlarmAttributes;
}

/** What one alarm is stepped through: a stream's points in time order. */
type Work = readonly { readonly alarm: AlarmInfo; readonly points: PointRun | undefined }[];

/** A no-data or offline alarm, with when it was made (its silence counts from then at most). */
export interface WatchedAlarm extends AlarmInfo {
  readonly madeAt: number;
}

/** An account's enabled alarms as the evaluator and the watch read them. */
interface AccountAlarms {
  readonly byStream: Map<string, AlarmInfo[]>;
  readonly watched: readonly WatchedAlarm[];
}

/** A point as ingest stored it. */
export interface EvaluatedPoint {
  readonly stream: string;
  readonly ts: number;
  readonly value: PointValue;
}

/** A transition this process recorded (for whoever tells people next: notifications). */
export interface RecordedTransition extends AlarmTransition {
  readonly accountId: string;
  readonly alarmId: string;
  readonly assetId: string;
}

/**
 * How long (server time) a state's latest point may go unwritten while nothing else moved.
 * Writing every alarm's row for every batch would cost a write per alarm per batch; the stored
 * point time only guards against points older than it, which ingest never hands over twice (a
 * batch seen before is a duplicate) and a gateway sends in time order. A pending alarm's row is
 * written when it becomes pending, which is what its timer reads.
 */
const LAZY_MS = 60_000;

/**
 * Whether a stepped state is worth writing: its story moved (state, since, count,
 * acknowledgement), or its row is older than `LAZY_MS` and its latest point moved. An alarm that
 * never left normal needs no row at all.
 */
function worthSaving(
  before: StoredAlarmState | undefined,
  after: AlarmState,
  now: number,
): boolean {
  const was = before?.state ?? INITIAL_ALARM_STATE;
  if (
    was.state !== after.state ||
    was.since !== after.since ||
    was.count !== after.count ||
    was.acknowledged !== after.acknowledged
  )
    return true;
  if (before === undefined || after.lastTs === null || after.lastTs === was.lastTs) return false;
  return now - before.updatedAt >= LAZY_MS;
}

/**
 * Whether an update may change which alarms there are or what they watch: not the status the
 * evaluator itself writes on every transition (dropping the cache for those would reload every
 * alarm of the account after each raise).
 */
function changesRules(u: ModelUpdate): boolean {
  if (u.child_type === alarmModel.type) return true;
  if (u.type !== alarmModel.type) return false;
  if (u.action !== 'attributes_updated') return true;
  return Object.keys(u.attributes ?? {}).some((k) => k !== 'status');
}

/** Another writer moved a state between our read and our write: roll back and read again. */
class LostRace extends Error {}

const ATTEMPTS = 5;

/** The time a pending alarm's delay has run to, from its stored state and the server's now. */
type TickTo = (stored: StoredAlarmState | undefined, now: number) => number;

/**
 * The stream's own time now: its last point's time plus the time since that point arrived. A
 * live stream's is about the server's now; a backlog being delivered (points hours old, arriving
 * one batch after another) has its delay run only while no batch comes, so the timer never
 * raises between two batches an alarm that the next one would have shown cleared.
 */
const streamTime: TickTo = (stored, now) => {
  const lastTs = stored?.state.lastTs;
  if (stored === undefined || lastTs === null || lastTs === undefined) return now;
  return lastTs + Math.max(0, now - stored.updatedAt);
};

/**
 * Alarm evaluation on the server (issue 17 item 2): the points ingest stored go through each
 * enabled alarm of their stream (`alarms/evaluate.ts`), and what changed is persisted, state and
 * events in one transaction.
 *
 * Exactly once per transition with several server processes (DESIGN.md §11): a state row carries
 * a version; the new state is written only if the row is still at the version read
 * (compare-and-set), and the transition's events are inserted in that same transaction. A
 * process that loses the race rolls everything back, reads the winner's state and steps again:
 * points the winner already applied are older than its `lastTs` (ignored) or the same point again
 * (which changes nothing), so a transition is recorded by exactly one process. A crash after the
 * points were stored and before this ran loses their evaluation (the batch is then a duplicate):
 * the next point, or the timer, carries on from the stored state.
 *
 * The account's enabled alarms are read once per account and kept until an alarm of the account
 * changes (the change feed, here and in other processes). Everything is read within the
 * account of the points: an alarm of another account never sees them.
 */
export class AlarmEvaluator {
  private readonly byAccount = new Map<string, Promise<AccountAlarms>>();
  private readonly models: ModelRepository;
  private readonly unsubscribe: () => void;
  /** Told of what was recorded, after the commit (the dispatcher wakes up). */
  private readonly listeners = new Set<(recorded: readonly RecordedTransition[]) => void>();

  constructor(
    private readonly db: Db,
    private readonly feed: ChangeFeed,
    private readonly clock: Clock,
    private readonly log: Logger,
    /** Writes each alarm's `status` (its server field) with the transition that moved it. */
    private readonly modelService: ModelService,
  ) {
    this.models = new ModelRepository(db);
    const here = feed.subscribe((accountId, updates) => {
      if (updates.some(changesRules)) this.byAccount.delete(accountId);
    });
    const elsewhere = feed.subscribeElsewhere((accountId, types) => {
      if (types.has(alarmModel.type)) this.byAccount.delete(accountId);
    });
    this.unsubscribe = () => {
      here();
      elsewhere();
    };
  }

  /** Calls `listener` with the transitions recorded here, after each commit; answers an undo. */
  onRecorded(listener: (recorded: readonly RecordedTransition[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The account's enabled alarms, read once and kept until one of them changes. */
  private rulesOf(accountId: string): Promise<AccountAlarms> {
    let alarms = this.byAccount.get(accountId);
    if (alarms === undefined) {
      alarms = this.load(accountId);
      this.byAccount.set(accountId, alarms);
      alarms.catch(() => this.byAccount.delete(accountId));
    }
    return alarms;
  }

  /** The account's enabled limit alarms by stream id (what ingest steps). */
  async alarmsOf(accountId: string): Promise<Map<string, AlarmInfo[]>> {
    return (await this.rulesOf(accountId)).byStream;
  }

  /** The account's enabled no-data and offline alarms (what the alarm watch judges). */
  async watchedOf(accountId: string): Promise<readonly WatchedAlarm[]> {
    return (await this.rulesOf(accountId)).watched;
  }

  private async load(accountId: string): Promise<AccountAlarms> {
    const byStream = new Map<string, AlarmInfo[]>();
    const watched: WatchedAlarm[] = [];
    for (const row of await this.models.allOfTypes(accountId, [alarmModel.type])) {
      const rule = JSON.parse(row.attributes) as AlarmAttributes;
      if (!rule.enabled) continue;
      // No-data and offline alarms are judged by the timer, on time, not on values.
      if (rule.kind !== 'limit') {
        if (rule.after_s !== null)
          watched.push({
            id: row.id,
            assetId: rule.asset_id,
            rule,
            madeAt: Date.parse(row.created_at),
          });
        continue;
      }
      const list = byStream.get(rule.datastream_id) ?? [];
      list.push({ id: row.id, assetId: rule.asset_id, rule });
      byStream.set(rule.datastream_id, list);
    }
    return { byStream, watched };
  }

  /** Steps the alarms of the points' streams through the points; answers what it recorded. */
  async evaluate(
    accountId: string,
    points: readonly EvaluatedPoint[],
  ): Promise<RecordedTransition[]> {
    const alarms = await this.alarmsOf(accountId);
    if (alarms.size === 0) return [];
    const byStream = new Map<string, [number, number][]>();
    for (const p of points) {
      if (typeof p.value !== 'number' || !alarms.has(p.stream)) continue;
      const list = byStream.get(p.stream) ?? [];
      list.push([p.ts, p.value]);
      byStream.set(p.stream, list);
    }
    const work: { alarm: AlarmInfo; points: PointRun | undefined }[] = [];
    for (const [stream, list] of byStream) {
      list.sort((a, b) => a[0] - b[0]);
      const run = pointRun(list);
      for (const alarm of alarms.get(stream) ?? []) work.push({ alarm, points: run });
    }
    return this.persist(accountId, work, undefined);
  }

  /**
   * Steps alarms through points someone else made (the no-data and offline watch's: 1 while the
   * alarm's fact holds, 0 once it no longer does), recorded as ingest's are.
   */
  stepAlarms(
    accountId: string,
    work: readonly { alarm: AlarmInfo; points: readonly [number, number][] }[],
  ): Promise<RecordedTransition[]> {
    return this.persist(
      accountId,
      work.map((w) => ({ alarm: w.alarm, points: pointRun(w.points) })),
      undefined,
    );
  }

  /**
   * Lets time run for the account's pending alarms, to each stream's own time (`streamTime`): a
   * delay runs out without a new point (the value last seen is taken to hold).
   */
  async tickAccount(accountId: string): Promise<RecordedTransition[]> {
    const repo = new AlarmRepository(this.db);
    const pending = new Set(await repo.pending(accountId));
    if (pending.size === 0) return [];
    const alarms = [...(await this.alarmsOf(accountId)).values()].flat();
    const work = alarms
      .filter((a) => pending.has(a.id))
      .map((alarm) => ({ alarm, points: undefined }));
    // A pending alarm deleted or disabled meanwhile never fires: its state goes. Read afresh,
    // not from the cache, which may not know yet of an alarm made by another process.
    const known = new Set(alarms.map((a) => a.id));
    if ([...pending].some((id) => !known.has(id))) {
      const fresh = new Set(
        [...(await this.load(accountId)).byStream.values()].flat().map((a) => a.id),
      );
      await repo.forget(
        accountId,
        [...pending].filter((id) => !fresh.has(id)),
      );
    }
    return this.persist(accountId, work, streamTime);
  }

  /** Every account with a pending alarm, ticked (the timer's round). */
  async tickAll(): Promise<void> {
    for (const accountId of await new AlarmRepository(this.db).accountsWithPending()) {
      await this.tickAccount(accountId);
    }
  }

  private async persist(
    accountId: string,
    work: Work,
    tickTo: TickTo | undefined,
  ): Promise<RecordedTransition[]> {
    if (work.length === 0) return [];
    // State rows are written in alarm id order: two processes' transactions then wait for each
    // other instead of deadlocking (Postgres) when their batches touch the same alarms.
    const ordered = [...work].sort((a, b) => (a.alarm.id < b.alarm.id ? -1 : 1));
    for (let attempt = 1; ; attempt += 1) {
      try {
        const { recorded, updates } = await this.db
          .transaction()
          .execute((trx) => this.once(trx, accountId, ordered, tickTo));
        this.feed.publish(accountId, updates);
        if (recorded.length > 0) for (const listener of this.listeners) listener(recorded);
        return recorded;
      } catch (err) {
        if (!(err instanceof LostRace) || attempt >= ATTEMPTS) throw err;
        this.log.debug('alarm state moved meanwhile, evaluating again', { accountId, attempt });
      }
    }
  }

  /**
   * One try, inside its transaction: read the states, step them, write each changed state with
   * its compare-and-set and the events of its transitions, and the status of each alarm whose
   * state moved (a model write, logged and published like any). Any lost race undoes all of it.
   *
   * When a status is to be written, the account's clock is locked before any state row: a model
   * write (an acknowledgement) holds the clock and then writes a state row, so taking them the
   * other way round could deadlock on Postgres.
   */
  private async once(
    trx: Db,
    accountId: string,
    work: Work,
    tickTo: TickTo | undefined,
  ): Promise<{ recorded: RecordedTransition[]; updates: ModelUpdate[] }> {
    const repo = new AlarmRepository(trx);
    const stored = await repo.states(
      accountId,
      work.map((w) => w.alarm.id),
    );
    const now = this.clock.now();
    const stepped = work.map(({ alarm, points }) => {
      const before = stored.get(alarm.id);
      let state: AlarmState = before?.state ?? INITIAL_ALARM_STATE;
      const transitions: AlarmTransition[] = [];
      if (points !== undefined) {
        const out = stepRun(alarm.rule, state, points);
        state = out.state;
        transitions.push(...out.transitions);
      }
      if (tickTo !== undefined) {
        const out = tick(alarm.rule, state, tickTo(before, now));
        state = out.state;
        transitions.push(...out.transitions);
      }
      return { alarm, before, state, transitions };
    });
    return this.record(trx, accountId, stepped, now);
  }

  /** Writes stepped states (compare-and-set), their events and the statuses that moved. */
  private async record(
    trx: Db,
    accountId: string,
    stepped: readonly {
      alarm: AlarmInfo;
      before: StoredAlarmState | undefined;
      state: AlarmState;
      transitions: readonly AlarmTransition[];
    }[],
    now: number,
  ): Promise<{ recorded: RecordedTransition[]; updates: ModelUpdate[] }> {
    const repo = new AlarmRepository(trx);
    const recorded: RecordedTransition[] = [];
    const events: NewAlarmEvent[] = [];
    const updates: ModelUpdate[] = [];
    if (stepped.some((s) => statusMoved(s.before?.state, s.state, s.transitions)))
      await new ChangeLogRepository(trx).lockAll([accountId]);
    for (const { alarm, before, state, transitions } of stepped) {
      if (!worthSaving(before, state, now)) continue;
      if (!(await repo.save(accountId, alarm.id, before?.version, state, now)))
        throw new LostRace();
      for (const t of transitions) {
        events.push({
          alarm_id: alarm.id,
          asset_id: alarm.assetId,
          kind: t.kind,
          ts: t.ts,
          value: t.value,
          count: t.count,
          by_user: null,
          note: null,
        });
        recorded.push({ ...t, accountId, alarmId: alarm.id, assetId: alarm.assetId });
      }
      if (statusMoved(before?.state, state, transitions))
        updates.push(...(await this.writeStatus(trx, accountId, alarm, state, transitions)));
    }
    await repo.addEvents(accountId, events, now);
    return { recorded, updates };
  }

  /** The alarm's status after its state moved, written as the server's own model change. */
  private async writeStatus(
    trx: Db,
    accountId: string,
    alarm: AlarmInfo,
    state: AlarmState,
    transitions: readonly AlarmTransition[],
  ): Promise<ModelUpdate[]> {
    // Read within the transaction: an alarm deleted meanwhile has no status to write.
    const row = await new ModelRepository(trx).find(accountId, alarmModel.type, alarm.id);
    if (row === undefined) return [];
    const current = JSON.parse(row.attributes) as AlarmAttributes;
    // Disabled meanwhile (this process's cache did not know yet): it stood down, and stays so.
    if (!current.enabled) return [];
    const status = statusAfter(current.status, current.kind, state, transitions);
    const { updates } = await this.modelService.applyIn(
      trx,
      accountId,
      { kind: 'update', collection: alarmModel.collection, id: alarm.id, body: { status } },
      true,
    );
    return updates;
  }

  close(): void {
    this.unsubscribe();
    this.byAccount.clear();
  }
}
