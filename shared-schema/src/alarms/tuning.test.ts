import { describe, expect, it } from 'vitest';
import type { AlarmRule } from '../models/alarm';
import { replay } from './evaluate';
import { ALARM_TUNING, roundUpNicely, suggestAlarmTuning } from './tuning';

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

const T0 = Date.parse('2026-11-29T00:00:00Z');

/** Two hours of a value every 10 s: 5 bar with ±0.2 of noise on every reading. */
function noisy(): [number, number][] {
  const random = seeded(30);
  return Array.from({ length: 720 }, (_, i) => [T0 + i * 10_000, 5 + (random() - 0.5) * 0.4]);
}

describe('suggestAlarmTuning', () => {
  it('derives a hysteresis from the noise and a delay from the sampling of a noisy stream', () => {
    const tuning = suggestAlarmTuning(noisy());
    expect(tuning).toBeDefined();
    // Uniform noise of width 0.4: a median step of 0.4 * (1 - 1/sqrt 2) = 0.117, three of them.
    expect(tuning?.typicalStep).toBeGreaterThan(0.09);
    expect(tuning?.typicalStep).toBeLessThan(0.14);
    expect(tuning?.hysteresis).toBeGreaterThan(0.27);
    expect(tuning?.hysteresis).toBeLessThan(0.42);
    // Two significant digits.
    expect(String(tuning?.hysteresis)).toMatch(/^0\.\d\d?$/);
    expect(tuning?.intervalS).toBe(10);
    expect(tuning?.delay_s).toBe(30);
    expect(tuning?.points).toBe(ALARM_TUNING.recentPoints);
  });

  it('makes a limit in the noise fire far less often than a delay and hysteresis of 0', () => {
    const points = noisy();
    const tuning = suggestAlarmTuning(points);
    if (tuning === undefined) throw new Error('no suggestion');
    const rule: AlarmRule = {
      condition: 'greater',
      upper_limit: 5.05,
      lower_limit: null,
      delay_s: 0,
      hysteresis: 0,
    };
    const plain = replay(rule, points).fired;
    const tuned = replay({ ...rule, ...tuning }, points).fired;
    expect(plain).toBeGreaterThan(100);
    expect(tuned).toBeLessThan(plain / 5);
  });

  it('gives a value that mostly stands still no hysteresis, and a slow stream a capped delay', () => {
    const still = Array.from(
      { length: 100 },
      (_, i) => [T0 + i * 300_000, i % 40 === 0 ? 3 : 1] as [number, number],
    );
    expect(suggestAlarmTuning(still)).toMatchObject({
      hysteresis: 0,
      intervalS: 300,
      delay_s: ALARM_TUNING.maxDelayS,
    });
  });

  it('suggests nothing from too few values or values all at one time', () => {
    expect(suggestAlarmTuning(noisy().slice(0, ALARM_TUNING.minPoints - 1))).toBeUndefined();
    expect(suggestAlarmTuning([])).toBeUndefined();
    const sameTime = Array.from({ length: 50 }, (_, i) => [T0, i] as [number, number]);
    expect(suggestAlarmTuning(sameTime)).toBeUndefined();
    // Values that are no number are skipped, not counted.
    const withHoles = noisy()
      .slice(0, 30)
      .map(([ts, v], i) => [ts, i % 2 === 0 ? Number.NaN : v] as [number, number]);
    expect(suggestAlarmTuning(withHoles)).toBeUndefined();
  });
});

describe('roundUpNicely', () => {
  it('rounds up to two significant digits', () => {
    expect(roundUpNicely(0.2873)).toBe(0.29);
    expect(roundUpNicely(12.7)).toBe(13);
    expect(roundUpNicely(1234)).toBe(1300);
    expect(roundUpNicely(3)).toBe(3);
    expect(roundUpNicely(0.3)).toBe(0.3);
    expect(roundUpNicely(0)).toBe(0);
    expect(roundUpNicely(Number.NaN)).toBe(0);
  });
});
