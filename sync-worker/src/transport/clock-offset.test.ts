import { describe, expect, it } from 'vitest';
import { ClockOffset } from './clock-offset';

describe('the clock offset', () => {
  it('is 0 before any answer, then the server time against the middle of the round trip', () => {
    const clock = new ClockOffset();
    expect(clock.offset).toBe(0);
    // Sent at 1000, answered at 1100: the server said 61_050, so it is 60 s ahead.
    expect(clock.sample(1_000, 1_100, 61_050)).toBe(true);
    expect(clock.offset).toBe(60_000);
  });

  it('keeps the sample with the shortest round trip, until it is too old', () => {
    const clock = new ClockOffset(60_000);
    clock.sample(1_000, 1_020, 1_010 - 5_000); // 20 ms round trip: 5 s behind
    // A slow answer (2 s round trip) says something else: not taken.
    expect(clock.sample(2_000, 4_000, 3_000 + 1_000)).toBe(false);
    expect(clock.offset).toBe(-5_000);
    // A faster one is.
    expect(clock.sample(5_000, 5_010, 5_005 - 4_000)).toBe(true);
    expect(clock.offset).toBe(-4_000);
    // After a minute any newer sample replaces it (the device's clock may have been set).
    expect(clock.sample(70_000, 72_000, 71_000 + 30_000)).toBe(true);
    expect(clock.offset).toBe(30_000);
  });

  it('ignores answers without a usable server time', () => {
    const clock = new ClockOffset();
    expect(clock.sample(1_000, 1_100, Number.NaN)).toBe(false);
    expect(clock.sample(1_100, 1_000, 5_000)).toBe(false);
    expect(clock.offset).toBe(0);
  });
});
