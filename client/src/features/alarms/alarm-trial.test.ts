import { describe, expect, it } from 'vitest';
import { suggestAlarmTuning, type AlarmRule } from '@plant/shared-schema';
import { numericPoints, trialOutcome } from './alarm-trial';

const T0 = Date.parse('2026-11-29T00:00:00Z');
const greater: AlarmRule = {
  condition: 'greater',
  upper_limit: 80,
  lower_limit: null,
  delay_s: 0,
  hysteresis: 0,
};

describe('numericPoints', () => {
  it('keeps the numbers of a series in order and drops texts and non-finite values', () => {
    expect(numericPoints([1, 2, 3, 4], [5, 'on', Number.NaN, 7])).toEqual([
      [1, 5],
      [4, 7],
    ]);
  });
});

describe('trialOutcome', () => {
  it('counts how often the rule would have fired, and how often plainly', () => {
    // A minute at 1 Hz fluttering across 80, then a minute well over it.
    const points = numericPoints(
      Array.from({ length: 120 }, (_, i) => T0 + i * 1000),
      Array.from({ length: 120 }, (_, i) => (i < 60 ? (i % 2 === 0 ? 80.4 : 79.6) : 90)),
    );
    const plain = trialOutcome(greater, points, T0 + 120_000);
    expect(plain).toMatchObject({ points: 120, fired: 31, plain: 31 });
    // A hysteresis of 1 holds the first raise through the flutter: once.
    const held = trialOutcome({ ...greater, hysteresis: 1 }, points, T0 + 120_000);
    expect(held).toMatchObject({ fired: 1, plain: 31, times: [T0] });
    // A delay of 5 s: only the minute over the limit fires, 5 s after it began.
    const delayed = trialOutcome({ ...greater, delay_s: 5 }, points, T0 + 120_000);
    expect(delayed).toMatchObject({ fired: 1, times: [T0 + 65_000] });
  });

  it('fires fewer times with the suggested delay and hysteresis of a noisy history', () => {
    let seed = 7;
    const noise = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647 - 0.5;
    };
    const points = numericPoints(
      Array.from({ length: 600 }, (_, i) => T0 + i * 10_000),
      Array.from({ length: 600 }, () => 80 + noise() * 0.6),
    );
    const tuning = suggestAlarmTuning(points);
    if (tuning === undefined) throw new Error('no suggestion');
    const plain = trialOutcome(greater, points, T0 + 6_000_000);
    const tuned = trialOutcome({ ...greater, ...tuning }, points, T0 + 6_000_000);
    expect(plain?.fired).toBeGreaterThan(50);
    expect(tuned?.fired).toBeLessThan((plain?.fired ?? 0) / 5);
    expect(tuned?.plain).toBe(plain?.fired);
  });

  it('answers null without points', () => {
    expect(trialOutcome(greater, [], T0)).toBeNull();
  });
});
