/*
 * Defaults for a new alarm from its stream's recent values (issue 30 item 2): a limit alarm with
 * a delay and a hysteresis of 0 on a noisy value fires at every wobble across its limit. The
 * form prefills what this answers (editable, with where it came from), and its "try this rule"
 * figure shows what the rule would have done with them. Pure: the client computes it over the
 * history it already holds.
 */

/** How the defaults are derived. */
export const ALARM_TUNING = {
  /** Fewer values than this say nothing about the noise: no suggestion. */
  minPoints: 20,
  /** Only the most recent values count ("recent noise"). */
  recentPoints: 500,
  /** The hysteresis: this many typical steps (a typical step of white noise is about its sigma). */
  stepFactor: 3,
  /** The delay: this many typical sample intervals. */
  intervalFactor: 3,
  /** A slow stream's delay stops here (ten minutes). */
  maxDelayS: 600,
} as const;

/** A suggested delay and hysteresis, and the facts they come from (shown as the hint). */
export interface AlarmTuning {
  readonly delay_s: number;
  readonly hysteresis: number;
  /** The values read. */
  readonly points: number;
  /** The median absolute change between two consecutive values. */
  readonly typicalStep: number;
  /** The median time between two consecutive values, in seconds. */
  readonly intervalS: number;
}

function median(list: number[]): number {
  const sorted = [...list].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const hi = sorted[mid] ?? 0;
  return sorted.length % 2 === 1 ? hi : ((sorted[mid - 1] ?? hi) + hi) / 2;
}

/**
 * Rounds up to two significant digits (0.2873 -> 0.29, 12.7 -> 13, 1234 -> 1300): a hysteresis
 * a person would type, never below what was measured.
 */
export function roundUpNicely(x: number): number {
  if (!(x > 0) || !Number.isFinite(x)) return 0;
  const unit = 10 ** (Math.floor(Math.log10(x)) - 1);
  return Number((Math.ceil(x / unit - 1e-9) * unit).toPrecision(12));
}

/**
 * The suggestion for points in time order ([ts ms, value]; values that are no finite number are
 * skipped): the hysteresis is `stepFactor` times the median absolute step of the last
 * `recentPoints` values (robust: a few jumps do not move it; a value that mostly stands still
 * gets 0), rounded up nicely; the delay is `intervalFactor` median sample intervals, in whole
 * seconds, at most `maxDelayS`. Undefined with fewer than `minPoints` values.
 */
export function suggestAlarmTuning(
  points: Iterable<readonly [number, number]>,
): AlarmTuning | undefined {
  const finite: (readonly [number, number])[] = [];
  for (const p of points) if (Number.isFinite(p[1]) && Number.isFinite(p[0])) finite.push(p);
  const recent = finite.slice(-ALARM_TUNING.recentPoints);
  if (recent.length < ALARM_TUNING.minPoints) return undefined;
  const steps: number[] = [];
  const intervals: number[] = [];
  for (let i = 1; i < recent.length; i += 1) {
    const [ts, v] = recent[i] ?? [0, 0];
    const [prevTs, prev] = recent[i - 1] ?? [0, 0];
    steps.push(Math.abs(v - prev));
    if (ts > prevTs) intervals.push(ts - prevTs);
  }
  if (intervals.length === 0) return undefined;
  const typicalStep = median(steps);
  const intervalS = median(intervals) / 1000;
  return {
    delay_s: Math.min(ALARM_TUNING.maxDelayS, Math.ceil(ALARM_TUNING.intervalFactor * intervalS)),
    hysteresis: roundUpNicely(ALARM_TUNING.stepFactor * typicalStep),
    points: recent.length,
    typicalStep,
    intervalS,
  };
}
