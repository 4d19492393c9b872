import { createHash } from 'node:crypto';
import {
  assetModel,
  datastreamModel,
  formEntryModel,
  taskModel,
  taskStateModel,
  type AssetAttributes,
  type DatastreamAttributes,
  type FormEntryAttributes,
  type ModelUpdate,
  type TaskAttributes,
  type TaskSchedule,
  type TaskStateAttributes,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import type { Logger } from '../logger';
import type { Clock } from '../lib/clock';
import { Periodic } from '../lib/periodic';
import type { ClusterWork } from '../cluster/leader';
import { ModelRepository, type ModelRow } from '../repositories/model.repository';
import type { ChangeFeed } from '../services/change-feed';
import type { ModelService } from '../services/model.service';

/*
 * Where each task stands on each of its assets (issue 37 items 1 and 2): one server-written
 * `task_state` per task and asset, which every browser syncs, so what is due shows on the asset
 * and in the menu offline too. A state is weighed again when an entry, a task or an asset changes
 * (the writing process, through the change feed), when points are stored for an account with a
 * counted task (the ingesting process), and on the leader's tick (dated tasks come due by
 * themselves). A state's id is made from its task and asset, so two processes weighing at once
 * cannot make two of them (the second create is refused and weighed again as an update).
 */

export interface TaskStatesDeps {
  readonly db: Db;
  readonly models: ModelService;
  readonly feed: ChangeFeed;
  readonly clock: Clock;
  readonly log: Logger;
  /** The latest stored point of each stream (the time-series store's). */
  readonly latest: (
    streams: readonly string[],
  ) => Promise<Map<string, { ts: number; value: number | string }>>;
  readonly tickMs: number;
}

/** The types whose change may move a task's state. */
const WEIGHED_ON: ReadonlySet<string> = new Set([
  formEntryModel.type,
  taskModel.type,
  assetModel.type,
  datastreamModel.type,
]);

/**
 * A task state's id: the same for a task and an asset in every process, shaped as a UUIDv7 (as
 * every model id) from a hash of the two.
 */
export function taskStateId(taskId: string, assetId: string): string {
  const h = createHash('sha256').update(`${taskId}\n${assetId}`).digest('hex');
  const variant = ((parseInt(h.charAt(16), 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-7${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** `start` moved on by `n` of the schedule's periods (months by the calendar, in UTC). */
export function addPeriods(
  start: number,
  every: number,
  unit: 'day' | 'week' | 'month',
  n: number,
) {
  if (unit === 'day') return start + n * every * 86_400_000;
  if (unit === 'week') return start + n * every * 7 * 86_400_000;
  const d = new Date(start);
  d.setUTCMonth(d.getUTCMonth() + n * every);
  return d.getTime();
}

/** The start of the dated schedule's period that holds `now` (null: before the first). */
function periodStart(schedule: Extract<TaskSchedule, { kind: 'date' }>, now: number) {
  if (now < schedule.start_at) return null;
  const { every, unit, start_at: start } = schedule;
  const span = unit === 'month' ? every * 28 * 86_400_000 : addPeriods(0, every, unit, 1);
  // A first guess by length, then stepped to the period that holds now.
  let n = Math.max(0, Math.floor((now - start) / span) - 1);
  while (addPeriods(start, every, unit, n + 1) <= now) n += 1;
  while (n > 0 && addPeriods(start, every, unit, n) > now) n -= 1;
  return { at: addPeriods(start, every, unit, n), next: addPeriods(start, every, unit, n + 1) };
}

type Weighed = Pick<
  TaskStateAttributes,
  'due' | 'next_at' | 'next_counter' | 'counter_value' | 'last_entry_id' | 'last_entry_at'
>;

/**
 * Where a task stands on one asset now: its schedule, the asset's last entry for it (and the
 * counter then), the counter's latest value.
 */
export function weighTask(
  schedule: TaskSchedule,
  last: { id: string; at: number; counter: number | null } | null,
  counter: number | null,
  now: number,
): Weighed {
  const base = {
    last_entry_id: last?.id ?? null,
    last_entry_at: last?.at ?? null,
    counter_value: counter,
    next_at: null,
    next_counter: null,
  };
  if (schedule.kind === 'once') {
    const reached = schedule.due_at === null || now >= schedule.due_at;
    return { ...base, due: last === null && reached, next_at: schedule.due_at };
  }
  if (schedule.kind === 'date') {
    const period = periodStart(schedule, now);
    if (period === null) return { ...base, due: false, next_at: schedule.start_at };
    const due = last === null || last.at < period.at;
    return { ...base, due, next_at: due ? period.at : period.next };
  }
  const { step, start } = schedule;
  const from = last?.counter ?? null;
  const next =
    from === null ? start + step : start + (Math.floor((from - start) / step) + 1) * step;
  return { ...base, due: counter !== null && counter >= next, next_counter: next };
}

export class TaskStates implements ClusterWork {
  private readonly tick: Periodic;
  private readonly chains = new Map<string, Promise<void>>();
  /** What each account's next weighing covers, while it waits. */
  private readonly waiting = new Map<string, ReadonlySet<string> | 'all'>();
  /** Accounts with a counted task (their stored points weigh them again). */
  private counted: Set<string> | undefined;
  private readonly stopFeed: () => void;
  private stopped = false;

  constructor(private readonly deps: TaskStatesDeps) {
    this.tick = new Periodic(
      () => this.weighAll(),
      deps.tickMs,
      (err) => deps.log.error('task tick failed', { error: String(err) }),
    );
    // Every process weighs what its own writes changed.
    this.stopFeed = deps.feed.subscribe((accountId, updates) => this.heard(accountId, updates));
  }

  // ClusterWork: the leader's tick brings dated tasks due.
  start(): void {
    this.tick.start();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopFeed();
    await this.tick.stop();
    await this.idle();
  }

  /** Stored points (the ingest's sink): an account with a counted task is weighed again. */
  async pointsStored(accountId: string): Promise<void> {
    this.counted ??= await this.countedAccounts();
    if (this.counted.has(accountId)) this.weigh(accountId);
  }

  /** Weighs every account with tasks now (the tick; tests). */
  async weighAll(): Promise<void> {
    const models = new ModelRepository(this.deps.db);
    for (const accountId of await models.accountsWithType(taskModel.type)) this.weigh(accountId);
    await this.idle();
  }

  /** Resolves when every weighing started so far is done (tests). */
  async idle(): Promise<void> {
    while (this.chains.size > 0) await Promise.all([...this.chains.values()]);
  }

  /**
   * A write's updates: a task's change weighs its account; an entry's, an asset's or a stream's
   * weighs that asset only (dates that came due meanwhile are the tick's).
   */
  private heard(accountId: string, updates: readonly ModelUpdate[]): void {
    const types = new Set(updates.map((u) => u.child_type ?? u.type));
    if (types.has(taskModel.type)) {
      this.counted = undefined;
      this.weigh(accountId);
      return;
    }
    const assets = new Set(
      updates.flatMap((u) =>
        WEIGHED_ON.has(u.child_type ?? u.type) && typeof u.asset === 'string' ? [u.asset] : [],
      ),
    );
    if (assets.size > 0) this.weigh(accountId, assets);
  }

  private async countedAccounts(): Promise<Set<string>> {
    const models = new ModelRepository(this.deps.db);
    const found = new Set<string>();
    for (const accountId of await models.accountsWithType(taskModel.type)) {
      const tasks = await models.allOfTypes(accountId, [taskModel.type]);
      if (
        tasks.some((r) => (JSON.parse(r.attributes) as TaskAttributes).schedule.kind === 'counter')
      )
        found.add(accountId);
    }
    return found;
  }

  /**
   * Weighs the account once more after what is under way (one waits, the rest join it): its
   * assets named (a write's), or all of them (a task's change, points, the tick).
   */
  private weigh(accountId: string, assets: ReadonlySet<string> | 'all' = 'all'): void {
    if (this.stopped) return;
    const waiting = this.waiting.get(accountId);
    if (waiting !== undefined) {
      this.waiting.set(
        accountId,
        waiting === 'all' || assets === 'all' ? 'all' : new Set([...waiting, ...assets]),
      );
      return;
    }
    this.waiting.set(accountId, assets);
    const next = (this.chains.get(accountId) ?? Promise.resolve())
      .then(() => {
        const scope = this.waiting.get(accountId) ?? 'all';
        this.waiting.delete(accountId);
        return this.weighAccount(accountId, scope);
      })
      .catch((err: unknown) =>
        this.deps.log.error('task states not weighed', { accountId, error: String(err) }),
      );
    this.chains.set(accountId, next);
    void next.finally(() => {
      if (this.chains.get(accountId) === next) this.chains.delete(accountId);
    });
  }

  private async weighAccount(accountId: string, scope: ReadonlySet<string> | 'all'): Promise<void> {
    const models = new ModelRepository(this.deps.db);
    const tasks = await models.allOfTypes(accountId, [taskModel.type]);
    // A write in an account without tasks weighs nothing (10,000 new assets read nothing more).
    if (tasks.length === 0 && scope !== 'all') return;
    // The whole account, or only the assets a write touched: each with its states and entries.
    let rows: ModelRow[];
    if (scope === 'all') {
      rows = await models.allOfTypes(accountId, [
        assetModel.type,
        taskStateModel.type,
        formEntryModel.type,
      ]);
    } else {
      rows = [];
      for (const assetId of scope) {
        const asset = await models.find(accountId, assetModel.type, assetId);
        if (asset === undefined) continue;
        rows.push(asset, ...(await models.children(accountId, assetModel.type, assetId)));
      }
    }
    const states = new Map(
      rows
        .filter((r) => r.type === taskStateModel.type)
        .map((r) => [r.id, JSON.parse(r.attributes) as TaskStateAttributes]),
    );
    if (tasks.length === 0 && states.size === 0) return;
    const assets = new Map(
      rows
        .filter((r) => r.type === assetModel.type)
        .map((r) => [r.id, JSON.parse(r.attributes) as AssetAttributes]),
    );
    // The last entry of each task on each asset.
    const last = new Map<string, { id: string; at: number; counter: number | null }>();
    for (const row of rows) {
      if (row.type !== formEntryModel.type) continue;
      const entry = JSON.parse(row.attributes) as FormEntryAttributes;
      if (entry.task_id === null) continue;
      const key = `${entry.task_id}\n${entry.asset_id}`;
      const known = last.get(key);
      if (known === undefined || entry.filled_at > known.at)
        last.set(key, { id: row.id, at: entry.filled_at, counter: entry.counter_value });
    }
    // Counters: each asset's stream of the counted tasks' names, and its latest value.
    const names = new Set(
      tasks.flatMap((r) => {
        const { schedule } = JSON.parse(r.attributes) as TaskAttributes;
        return schedule.kind === 'counter' ? [schedule.stream_name] : [];
      }),
    );
    const streamOf = new Map<string, string>();
    if (names.size > 0) {
      for (const row of await models.allOfTypes(accountId, [datastreamModel.type])) {
        const s = JSON.parse(row.attributes) as DatastreamAttributes;
        if (names.has(s.name)) streamOf.set(`${s.asset_id}\n${s.name}`, row.id);
      }
    }
    const latest =
      streamOf.size > 0
        ? await this.deps.latest([...streamOf.values()])
        : new Map<string, { ts: number; value: number | string }>();
    const counterOf = (assetId: string, name: string): number | null => {
      const id = streamOf.get(`${assetId}\n${name}`);
      const point = id === undefined ? undefined : latest.get(id);
      return typeof point?.value === 'number' ? point.value : null;
    };
    const now = this.deps.clock.now();
    const kept = new Set<string>();
    for (const row of tasks) {
      const task = JSON.parse(row.attributes) as TaskAttributes;
      for (const [assetId, asset] of assets) {
        if (scope !== 'all' && !scope.has(assetId)) continue;
        const targeted =
          task.asset_ids.includes(assetId) ||
          (asset.template_id !== null && task.template_ids.includes(asset.template_id));
        if (!targeted) continue;
        const id = taskStateId(row.id, assetId);
        kept.add(id);
        const { schedule } = task;
        const counter =
          schedule.kind === 'counter' ? counterOf(assetId, schedule.stream_name) : null;
        let done = last.get(`${row.id}\n${assetId}`) ?? null;
        // An entry of a counted task keeps the counter it was done at (once, when it arrives).
        if (
          done !== null &&
          schedule.kind === 'counter' &&
          done.counter === null &&
          counter !== null
        ) {
          await this.deps.models.serverUpdate(accountId, formEntryModel.collection, done.id, {
            counter_value: counter,
          });
          done = { ...done, counter };
        }
        const weighed = weighTask(schedule, done, counter, now);
        const due = weighed.due && task.active;
        const before = states.get(id);
        const after: TaskStateAttributes = {
          task_id: row.id,
          asset_id: assetId,
          ...weighed,
          due,
          due_since: due ? (before?.due === true ? before.due_since : now) : null,
        };
        await this.write(accountId, id, before, after);
      }
    }
    // A state whose task no longer names its asset (or is gone) is not due.
    for (const [id, state] of states) {
      if (kept.has(id) || !state.due) continue;
      if (scope !== 'all' && !scope.has(state.asset_id)) continue;
      await this.write(accountId, id, state, { ...state, due: false, due_since: null });
    }
  }

  private async write(
    accountId: string,
    id: string,
    before: TaskStateAttributes | undefined,
    after: TaskStateAttributes,
  ): Promise<void> {
    if (before === undefined) {
      try {
        await this.deps.models.serverCreate(accountId, taskStateModel.collection, { id, ...after });
        return;
      } catch (err) {
        // Made meanwhile by another process: weighed again as an update.
        const row = await new ModelRepository(this.deps.db).find(
          accountId,
          taskStateModel.type,
          id,
        );
        if (row === undefined) throw err;
        before = JSON.parse(row.attributes) as TaskStateAttributes;
      }
    }
    const changed = Object.fromEntries(
      Object.entries(after).filter(
        ([k, v]) => JSON.stringify(v) !== JSON.stringify(before[k as keyof TaskStateAttributes]),
      ),
    );
    if (Object.keys(changed).length === 0) return;
    await this.deps.models.serverUpdate(accountId, taskStateModel.collection, id, changed);
  }
}
