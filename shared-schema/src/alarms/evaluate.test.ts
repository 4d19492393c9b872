import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AlarmRule } from '../models/alarm';
import {
  INITIAL_ALARM_STATE,
  acknowledge,
  conditionHolds,
  replay,
  step,
  stepAll,
  stepRun,
  pointRun,
  tick,
  type AlarmState,
  type AlarmTransition,
} from './evaluate';

const greater = (limit: number, delay_s = 0, hysteresis = 0): AlarmRule => ({
  condition: 'greater',
  upper_limit: limit,
  lower_limit: null,
  delay_s,
  hysteresis,
});

/** A seeded generator (mulberry32): the same noise on every run. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The night: a value at 1 Hz for 8 hours, drifting twice over its limit of 80 and back
 * (±2 over 4 hours), with ±1.5 of noise on every reading.
 */
function flutteringNight(seed = 17): [number, number][] {
  const random = seeded(seed);
  const points: [number, number][] = [];
  const start = Date.parse('2026-11-25T22:00:00Z');
  for (let s = 0; s < 8 * 3600; s += 1) {
    const drift = 2 * Math.sin((2 * Math.PI * s) / (4 * 3600));
    points.push([start + s * 1000, 80 + drift + (random() * 2 - 1) * 1.5]);
  }
  return points;
}

function run(rule: AlarmRule, points: readonly (readonly [number, number])[]) {
  let state: AlarmState = INITIAL_ALARM_STATE;
  const transitions: AlarmTransition[] = [];
  for (const p of points) {
    const out = step(rule, state, p);
    state = out.state;
    transitions.push(...out.transitions);
  }
  return { state, transitions };
}

describe('alarm evaluation', () => {
  it('a value hovering at its limit: thousands of raises with a plain threshold, two with a delay and a hysteresis', () => {
    const night = flutteringNight();
    const plain = replay(greater(80), night);
    const damped = replay(greater(80, 60, 2), night);
    expect(plain.fired).toBeGreaterThan(1000);
    expect(damped.fired).toBeGreaterThanOrEqual(1);
    expect(damped.fired).toBeLessThanOrEqual(4);
    // The two drifts over the limit, each once: in the first and the third 4-hour half-wave.
    const start = night[0]?.[0] ?? 0;
    const hours = damped.times.map((t) => Math.floor((t - start) / 3_600_000));
    expect(hours.every((h) => h < 2 || (h >= 4 && h < 6))).toBe(true);
  });

  it('fires when the condition held for the delay, at the moment the delay ran out, and not before', () => {
    const rule = greater(10, 30);
    let out = step(rule, INITIAL_ALARM_STATE, [1_000, 11]);
    expect(out.state.state).toBe('pending');
    out = step(rule, out.state, [20_000, 12]);
    expect(out.transitions).toEqual([]);
    // No new point: the time check lets the delay run out.
    expect(tick(rule, out.state, 30_999).transitions).toEqual([]);
    const due = tick(rule, out.state, 40_000);
    expect(due.state.state).toBe('active');
    expect(due.transitions).toEqual([{ kind: 'raised', ts: 31_000, value: 12, count: 1 }]);
    // A dip before the delay ran out starts it again.
    out = step(rule, step(rule, INITIAL_ALARM_STATE, [0, 11]).state, [29_000, 9]);
    expect(out.state.state).toBe('normal');
    expect(step(rule, out.state, [31_000, 11]).state.state).toBe('pending');
  });

  it('clears only past the limit by the hysteresis', () => {
    const rule = greater(10, 0, 2);
    let { state } = step(rule, INITIAL_ALARM_STATE, [0, 11]);
    expect(state.state).toBe('active');
    state = step(rule, state, [1, 9]).state;
    expect(state.state).toBe('active');
    const cleared = step(rule, state, [2, 8]);
    expect(cleared.state.state).toBe('normal');
    expect(cleared.transitions).toEqual([{ kind: 'cleared', ts: 2, value: 8, count: 1 }]);
  });

  it("'less' watches the lower limit, 'exact' the band between the limits or one number", () => {
    const less: AlarmRule = { ...greater(0), condition: 'less', upper_limit: null, lower_limit: 5 };
    expect([4.9, 5, 6].map((v) => conditionHolds(less, v))).toEqual([true, false, false]);
    const band: AlarmRule = { ...greater(0), condition: 'exact', upper_limit: 8, lower_limit: 2 };
    expect([1.9, 2, 5, 8, 8.1].map((v) => conditionHolds(band, v))).toEqual([
      false,
      true,
      true,
      true,
      false,
    ]);
    const state3: AlarmRule = { ...band, upper_limit: null, lower_limit: 3 };
    expect([2, 3, 3.0001].map((v) => conditionHolds(state3, v))).toEqual([false, true, false]);
  });

  it("'less' and 'exact' clear past their limits by the hysteresis too", () => {
    const less: AlarmRule = {
      ...greater(0, 0, 1),
      condition: 'less',
      upper_limit: null,
      lower_limit: 5,
    };
    const lessRun = run(less, [
      [0, 4],
      [1, 5.5],
      [2, 6],
    ]);
    expect(lessRun.transitions.map((t) => [t.kind, t.ts])).toEqual([
      ['raised', 0],
      ['cleared', 2],
    ]);
    const band: AlarmRule = { ...greater(8, 0, 1), condition: 'exact', lower_limit: 2 };
    const bandRun = run(band, [
      [0, 5],
      [1, 8.5],
      [2, 1.5],
      [3, 9.5],
    ]);
    expect(bandRun.transitions.map((t) => [t.kind, t.ts])).toEqual([
      ['raised', 0],
      ['cleared', 3],
    ]);
  });

  it('a raise while the last one is unacknowledged counts up; after an acknowledgement it counts 1 again', () => {
    const rule = greater(10);
    const first = run(rule, [
      [0, 11],
      [1, 9],
      [2, 12],
      [3, 9],
      [4, 13],
    ]);
    const raised = first.transitions.filter((t) => t.kind === 'raised').map((t) => t.count);
    expect(raised).toEqual([1, 2, 3]);
    let state = acknowledge(first.state);
    state = step(rule, state, [5, 9]).state;
    expect(step(rule, state, [6, 14]).transitions).toEqual([
      { kind: 'raised', ts: 6, value: 14, count: 1 },
    ]);
  });

  it('ignores a point older than the last one, and values that are not numbers', () => {
    const rule = greater(10);
    const { state } = step(rule, INITIAL_ALARM_STATE, [100, 5]);
    expect(step(rule, state, [99, 50])).toEqual({ state, transitions: [] });
    expect(step(rule, state, [101, Number.NaN])).toEqual({ state, transitions: [] });
  });
});

const ruleArb = fc.record({
  condition: fc.constantFrom('greater' as const, 'less' as const, 'exact' as const),
  limit: fc.integer({ min: -5, max: 5 }),
  width: fc.integer({ min: 0, max: 4 }),
  delay_s: fc.integer({ min: 0, max: 5 }),
  hysteresis: fc.integer({ min: 0, max: 3 }),
});
const toRule = (r: {
  condition: AlarmRule['condition'];
  limit: number;
  width: number;
  delay_s: number;
  hysteresis: number;
}): AlarmRule => ({
  condition: r.condition,
  upper_limit: r.condition === 'less' ? null : r.limit + (r.condition === 'exact' ? r.width : 0),
  lower_limit: r.condition === 'greater' ? null : r.limit,
  delay_s: r.delay_s,
  hysteresis: r.hysteresis,
});
/** Points one to three seconds apart, values near the limits. */
const pointsArb = fc
  .array(fc.tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: -10, max: 10 })), {
    maxLength: 200,
  })
  .map((steps) => {
    let ts = 0;
    return steps.map(([gap, v]): [number, number] => [(ts += gap * 1000), v]);
  });

describe('alarm evaluation, properties', () => {
  it('raises and clears alternate, each raise after the condition held for the whole delay', () => {
    fc.assert(
      fc.property(ruleArb, pointsArb, (r, points) => {
        const rule = toRule(r);
        const { transitions } = run(rule, points);
        transitions.forEach((t, i) => expect(t.kind).toBe(i % 2 === 0 ? 'raised' : 'cleared'));
        for (const t of transitions.filter((x) => x.kind === 'raised')) {
          // Values are steps: the one in force at each moment of [ts - delay, ts) held (with
          // no delay: the point raised at).
          const from = t.ts - rule.delay_s * 1000;
          const inForce =
            rule.delay_s === 0
              ? points.filter(([ts]) => ts === t.ts).slice(-1)
              : points.filter(([ts], i) => ts < t.ts && (points[i + 1]?.[0] ?? Infinity) > from);
          expect(inForce.length).toBeGreaterThan(0);
          for (const [, v] of inForce) expect(conditionHolds(rule, v)).toBe(true);
        }
      }),
    );
  });

  it('a hysteresis or a delay never makes more raises than the plain threshold', () => {
    fc.assert(
      fc.property(ruleArb, pointsArb, (r, points) => {
        const plain = replay(toRule({ ...r, delay_s: 0, hysteresis: 0 }), points).fired;
        expect(replay(toRule({ ...r, delay_s: 0 }), points).fired).toBeLessThanOrEqual(plain);
        expect(replay(toRule({ ...r, hysteresis: 0 }), points).fired).toBeLessThanOrEqual(plain);
      }),
    );
  });

  it('the same points in any split give the same transitions (a restart between batches changes nothing)', () => {
    fc.assert(
      fc.property(ruleArb, pointsArb, fc.nat(), (r, points, cut) => {
        const rule = toRule(r);
        const at = points.length === 0 ? 0 : cut % points.length;
        const whole = run(rule, points);
        const first = run(rule, points.slice(0, at));
        // The state as stored and read back (JSON) between the two halves.
        let state = JSON.parse(JSON.stringify(first.state)) as AlarmState;
        const rest: AlarmTransition[] = [];
        for (const p of points.slice(at)) {
          const out = step(rule, state, p);
          state = out.state;
          rest.push(...out.transitions);
        }
        expect([...first.transitions, ...rest]).toEqual(whole.transitions);
        expect(state).toEqual(whole.state);
        expect(replay(rule, points).transitions).toEqual(whole.transitions);
      }),
    );
  });

  it('stepAll answers what stepping each point answers (states and transitions), also out of order', () => {
    fc.assert(
      fc.property(ruleArb, pointsArb, fc.nat(), (r, points, swap) => {
        const rule = toRule(r);
        // Now and then two points swapped (late ones are ignored, by both).
        const list = points.map((p) => [...p] as [number, number]);
        const i = list.length < 2 ? 0 : swap % (list.length - 1);
        if (list.length >= 2 && swap % 3 === 0) {
          const a = list[i];
          const b = list[i + 1];
          if (a !== undefined && b !== undefined) [list[i], list[i + 1]] = [b, a];
        }
        const one = run(rule, list);
        const all = stepAll(rule, INITIAL_ALARM_STATE, list);
        expect(all.transitions).toEqual(one.transitions);
        expect(all.state).toEqual(one.state);
      }),
    );
  });

  it('stepRun answers what stepping each point answers, from any state, batch after batch', () => {
    fc.assert(
      fc.property(ruleArb, pointsArb, fc.array(fc.nat(), { maxLength: 6 }), (r, points, cuts) => {
        const rule = toRule(r);
        const one = run(rule, points);
        // The same points in batches, as ingest hands them over.
        const at = [...new Set(cuts.map((c) => (points.length === 0 ? 0 : c % points.length)))];
        at.sort((a, b) => a - b);
        let state: AlarmState = INITIAL_ALARM_STATE;
        const transitions: AlarmTransition[] = [];
        let from = 0;
        for (const to of [...at, points.length]) {
          const batch = pointRun(points.slice(from, to));
          from = to;
          if (batch === undefined) continue;
          const out = stepRun(rule, state, batch);
          state = out.state;
          transitions.push(...out.transitions);
        }
        expect(transitions).toEqual(one.transitions);
        expect(state).toEqual(one.state);
      }),
    );
  });
});
