import type { AlarmRule } from '../models/alarm';

/*
 * One alarm rule over one stream's values, as a pure state machine (issue 17 item 2): the server
 * runs it as values arrive, the alarm form replays a stream's history through it (item 3), and
 * both answer the same.
 *
 *            condition holds,              held for delay_s
 *            delay_s > 0                   (a point or a tick)
 *   normal ───────────────────► pending ─────────────────────► active
 *     ▲  │                        │                              │
 *     │  │ holds, delay_s = 0     │ no longer holds              │ back past the limit
 *     │  └────────────────────────┼──────────────────────────────► (raised)
 *     │                           ▼                              │  by the hysteresis
 *     └─────────────────────── normal ◄──────────────────────────┘ (cleared)
 *
 * Values are steps: a value holds until the next point, so a point at ts first lets time run up
 * to ts (`tick`), then is applied. `tick` alone lets a delay elapse while no point arrives: the
 * last value is taken to hold until now. Points must come in time order; one older than the last
 * one seen is ignored (a late point cannot rewrite transitions already recorded).
 *
 * The repeat count: a raise while the previous raise is not yet acknowledged counts up instead of
 * being a new alarm (`count`); `acknowledge` resets it, so the next raise counts 1 again.
 */

export const ALARM_STATES = ['normal', 'pending', 'active'] as const;
export type AlarmStateName = (typeof ALARM_STATES)[number];

/** Where one alarm stands. */
export interface AlarmState {
  readonly state: AlarmStateName;
  /** Since when the state holds (pending: when the condition started to hold), null when normal. */
  readonly since: number | null;
  /** The latest value seen, null before any. */
  readonly value: number | null;
  /** Raises since the last acknowledgement (0: none yet). */
  readonly count: number;
  /** Whether the latest raise was acknowledged (true while none was raised). */
  readonly acknowledged: boolean;
  /** The time of the latest point applied, null before any. */
  readonly lastTs: number | null;
}

/** A change worth recording (and, later, telling someone): the alarm fired or cleared. */
export interface AlarmTransition {
  readonly kind: 'raised' | 'cleared';
  readonly ts: number;
  readonly value: number;
  /** The repeat count after this transition (a raise counts up unless acknowledged before). */
  readonly count: number;
}

export interface StepResult {
  readonly state: AlarmState;
  readonly transitions: readonly AlarmTransition[];
}

export const INITIAL_ALARM_STATE: AlarmState = {
  state: 'normal',
  since: null,
  value: null,
  count: 0,
  acknowledged: true,
  lastTs: null,
};

/** Whether the value is in alarm by the rule (no delay, no hysteresis). */
export function conditionHolds(rule: AlarmRule, value: number): boolean {
  const { upper_limit: upper, lower_limit: lower } = rule;
  switch (rule.condition) {
    case 'greater':
      return upper !== null && value > upper;
    case 'less':
      return lower !== null && value < lower;
    case 'exact': {
      const lo = lower ?? upper;
      const hi = upper ?? lower;
      return lo !== null && hi !== null && value >= lo && value <= hi;
    }
    default: {
      const never: never = rule.condition;
      throw new Error(`unknown condition ${String(never)}`);
    }
  }
}

/** Whether an active alarm clears at this value: back past its limit by the hysteresis. */
export function clearsAt(rule: AlarmRule, value: number): boolean {
  const { upper_limit: upper, lower_limit: lower, hysteresis: h } = rule;
  switch (rule.condition) {
    case 'greater':
      return upper === null || value <= upper - h;
    case 'less':
      return lower === null || value >= lower + h;
    case 'exact': {
      const lo = lower ?? upper;
      const hi = upper ?? lower;
      return lo === null || hi === null || value < lo - h || value > hi + h;
    }
    default: {
      const never: never = rule.condition;
      throw new Error(`unknown condition ${String(never)}`);
    }
  }
}

function raise(state: AlarmState, at: number): StepResult {
  const count = state.acknowledged ? 1 : state.count + 1;
  const value = state.value ?? 0;
  return {
    state: { ...state, state: 'active', since: at, count, acknowledged: false },
    transitions: [{ kind: 'raised', ts: at, value, count }],
  };
}

/**
 * Lets time run to `now` without a new value: a pending alarm whose condition has held for the
 * delay becomes active, raised at the moment the delay ran out. Nothing else changes with time.
 */
export function tick(rule: AlarmRule, state: AlarmState, now: number): StepResult {
  if (state.state !== 'pending' || state.since === null) return { state, transitions: [] };
  const due = state.since + rule.delay_s * 1000;
  if (now < due) return { state, transitions: [] };
  return raise(state, due);
}

/** Applies one point `[ts, value]`: time runs to ts first, then the value is judged. */
export function step(
  rule: AlarmRule,
  state: AlarmState,
  point: readonly [number, number],
): StepResult {
  const [ts, value] = point;
  if (!Number.isFinite(value) || (state.lastTs !== null && ts < state.lastTs)) {
    return { state, transitions: [] };
  }
  const ticked = tick(rule, state, ts);
  const transitions = [...ticked.transitions];
  const before: AlarmState = { ...ticked.state, value, lastTs: ts };
  let after: AlarmState = before;
  switch (before.state) {
    case 'normal':
      if (conditionHolds(rule, value)) {
        if (rule.delay_s === 0) {
          const raised = raise(before, ts);
          after = raised.state;
          transitions.push(...raised.transitions);
        } else {
          after = { ...before, state: 'pending', since: ts };
        }
      }
      break;
    case 'pending':
      if (!conditionHolds(rule, value)) after = { ...before, state: 'normal', since: null };
      break;
    case 'active':
      if (clearsAt(rule, value)) {
        after = { ...before, state: 'normal', since: null };
        transitions.push({ kind: 'cleared', ts, value, count: before.count });
      }
      break;
    default: {
      const never: never = before.state;
      throw new Error(`unknown state ${String(never)}`);
    }
  }
  return { state: after, transitions };
}

/**
 * `step` over many points in time order, with the same answer as stepping them one by one, but
 * without a new state per point while nothing but the latest value moves (a normal alarm whose
 * condition does not hold, an active one that does not clear): the server steps every alarm of a
 * stream through each batch, and most points change nothing.
 */
export function stepAll(
  rule: AlarmRule,
  state: AlarmState,
  points: readonly (readonly [number, number])[],
): StepResult {
  let current = state;
  let value = state.value;
  let lastTs = state.lastTs;
  const transitions: AlarmTransition[] = [];
  for (const point of points) {
    const [ts, v] = point;
    if (!Number.isFinite(v) || (lastTs !== null && ts < lastTs)) continue;
    if (current.state !== 'pending') {
      const quiet = current.state === 'normal' ? !conditionHolds(rule, v) : !clearsAt(rule, v);
      if (quiet) {
        value = v;
        lastTs = ts;
        continue;
      }
    }
    const out = step(rule, { ...current, value, lastTs }, point);
    current = out.state;
    value = current.value;
    lastTs = current.lastTs;
    transitions.push(...out.transitions);
  }
  if (value === current.value && lastTs === current.lastTs) return { state: current, transitions };
  return { state: { ...current, value, lastTs }, transitions };
}

/** Points of one stream in time order, with what lets most alarms pass them by at once. */
export interface PointRun {
  readonly points: readonly (readonly [number, number])[];
  /** The smallest and largest finite value, and the time and value of the last finite point. */
  readonly min: number;
  readonly max: number;
  readonly firstTs: number;
  readonly lastTs: number;
  readonly lastValue: number;
}

/** A run of points sorted by time (undefined when none has a finite value). */
export function pointRun(points: readonly (readonly [number, number])[]): PointRun | undefined {
  let min = Infinity;
  let max = -Infinity;
  let first: readonly [number, number] | undefined;
  let last: readonly [number, number] | undefined;
  for (const p of points) {
    if (!Number.isFinite(p[1])) continue;
    first ??= p;
    last = p;
    if (p[1] < min) min = p[1];
    if (p[1] > max) max = p[1];
  }
  if (first === undefined || last === undefined) return undefined;
  return { points, min, max, firstTs: first[0], lastTs: last[0], lastValue: last[1] };
}

/** Whether no value in [min, max] can move the state (normal: none holds; active: none clears). */
function quietOver(rule: AlarmRule, state: AlarmState, min: number, max: number): boolean {
  const { upper_limit: upper, lower_limit: lower, hysteresis: h } = rule;
  const lo = lower ?? upper;
  const hi = upper ?? lower;
  if (state.state === 'normal') {
    switch (rule.condition) {
      case 'greater':
        return upper === null || max <= upper;
      case 'less':
        return lower === null || min >= lower;
      case 'exact':
        return lo === null || hi === null || max < lo || min > hi;
    }
  }
  if (state.state === 'active') {
    switch (rule.condition) {
      case 'greater':
        return upper !== null && min > upper - h;
      case 'less':
        return lower !== null && max < lower + h;
      case 'exact':
        return lo !== null && hi !== null && min >= lo - h && max <= hi + h;
    }
  }
  return false;
}

/**
 * `stepAll` over a run, answering the same; when no value of the run can move the state and
 * every point is newer than the last one seen, only the latest value moves, found at once. Most
 * alarms of a plant pass most batches so.
 */
export function stepRun(rule: AlarmRule, state: AlarmState, run: PointRun): StepResult {
  if (
    (state.lastTs === null || run.firstTs >= state.lastTs) &&
    quietOver(rule, state, run.min, run.max)
  ) {
    return { state: { ...state, value: run.lastValue, lastTs: run.lastTs }, transitions: [] };
  }
  return stepAll(rule, state, run.points);
}

/** An acknowledgement of the latest raise: the next one counts from 1 again. */
export function acknowledge(state: AlarmState): AlarmState {
  return { ...state, acknowledged: true };
}

/** What a rule would have done over a history (issue 17 item 3: "Try this rule"). */
export interface ReplayResult {
  /** How often it would have fired. */
  readonly fired: number;
  /** When it would have fired, oldest first. */
  readonly times: readonly number[];
  /** Every transition, oldest first. */
  readonly transitions: readonly AlarmTransition[];
}

/**
 * Replays points (in time order) through a rule from the normal state. With `until`, time runs
 * on to then after the last point (a pending alarm whose delay ran out by then counts).
 */
export function replay(
  rule: AlarmRule,
  points: Iterable<readonly [number, number]>,
  options: { readonly until?: number } = {},
): ReplayResult {
  let state = INITIAL_ALARM_STATE;
  const transitions: AlarmTransition[] = [];
  for (const point of points) {
    const out = step(rule, state, point);
    state = out.state;
    transitions.push(...out.transitions);
  }
  if (options.until !== undefined)
    transitions.push(...tick(rule, state, options.until).transitions);
  const times = transitions.filter((t) => t.kind === 'raised').map((t) => t.ts);
  return { fired: times.length, times, transitions };
}
