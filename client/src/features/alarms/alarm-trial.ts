import { replay, type AlarmRule } from '@plant/shared-schema';

/*
 * "Try this rule" as pure functions (issue 17 item 3, issue 30 item 2): the stream's history as
 * the worker hands it (times and values, a text now and then) into points, and what a rule would
 * have done over them, with and without its delay and hysteresis. The form's figure and the
 * defaults' hint read the same points.
 */

/** The numeric points of a history series, in its (time) order. */
export function numericPoints(
  ts: readonly number[],
  values: readonly (number | string)[],
): [number, number][] {
  const points: [number, number][] = [];
  ts.forEach((t, i) => {
    const v = values[i];
    if (typeof v === 'number' && Number.isFinite(v)) points.push([t, v]);
  });
  return points;
}

/** What a rule would have done over a history. */
export interface TrialOutcome {
  /** The values replayed. */
  readonly points: number;
  /** How often the rule would have fired. */
  readonly fired: number;
  /** How often it would have fired without its delay and hysteresis. */
  readonly plain: number;
  /** When it would have fired, oldest first. */
  readonly times: readonly number[];
}

/**
 * Replays the points through the rule (time running on to `until` after the last one) with the
 * evaluator's own code; null without points.
 */
export function trialOutcome(
  rule: AlarmRule,
  points: readonly (readonly [number, number])[],
  until: number,
): TrialOutcome | null {
  if (points.length === 0) return null;
  const withRule = replay(rule, points, { until });
  const plain = replay({ ...rule, delay_s: 0, hysteresis: 0 }, points, { until });
  return {
    points: points.length,
    fired: withRule.fired,
    plain: plain.fired,
    times: withRule.times,
  };
}
