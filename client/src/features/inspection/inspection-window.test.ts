import { describe, expect, it } from 'vitest';
import { INSPECTION_LIMITS } from '@plant/shared-schema';
import { marksWithin, reachesBack, statusEvents } from './inspection-marks';
import { canShift, presetOf, shapeOf, shifted, sidesOf, withSpan } from './inspection-window';

const MIN = 60_000;

describe("the inspection's window", () => {
  it('goes between stored sides and span with shift', () => {
    expect(shapeOf({ before_ms: 30 * MIN, after_ms: 30 * MIN })).toEqual({
      spanMs: 30 * MIN,
      shiftMs: 0,
    });
    expect(shapeOf({ before_ms: 15 * MIN, after_ms: 45 * MIN })).toEqual({
      spanMs: 30 * MIN,
      shiftMs: 15 * MIN,
    });
    expect(sidesOf({ spanMs: 30 * MIN, shiftMs: 15 * MIN })).toEqual({
      before_ms: 15 * MIN,
      after_ms: 45 * MIN,
    });
  });

  it('moves by half a span and never past the moment', () => {
    let shape = shapeOf({ before_ms: 5 * MIN, after_ms: 5 * MIN });
    shape = shapeOf(shifted(shape, 1));
    expect(shape.shiftMs).toBe(2.5 * MIN);
    shape = shapeOf(shifted(shape, 1));
    expect(shape.shiftMs).toBe(5 * MIN);
    expect(canShift(shape, 1)).toBe(false);
    expect(canShift(shape, -1)).toBe(true);
    // The moment stays the window's edge: its sides are 0 and 10 min.
    expect(shifted(shape, 1)).toEqual({ before_ms: 0, after_ms: 10 * MIN });
  });

  it('keeps the shift in proportion when the span changes, and knows its preset', () => {
    const half = shapeOf({ before_ms: 15 * MIN, after_ms: 45 * MIN });
    expect(withSpan(half, 60 * MIN)).toEqual({ before_ms: 30 * MIN, after_ms: 90 * MIN });
    expect(presetOf(half)).toBe(30);
    expect(presetOf(shapeOf({ before_ms: 7 * MIN, after_ms: 7 * MIN }))).toBeNull();
  });

  it("stays within the model's bound on each side", () => {
    const sides = sidesOf({ spanMs: 10 * INSPECTION_LIMITS.maxSideMs, shiftMs: 0 });
    expect(Math.max(sides.before_ms, sides.after_ms)).toBeLessThanOrEqual(
      INSPECTION_LIMITS.maxSideMs,
    );
    const shiftedFar = sidesOf({ spanMs: INSPECTION_LIMITS.maxSideMs, shiftMs: 1e12 });
    expect(shiftedFar.after_ms).toBeLessThanOrEqual(INSPECTION_LIMITS.maxSideMs);
    expect(shiftedFar.before_ms).toBeGreaterThanOrEqual(0);
  });
});

describe('the marks', () => {
  it('are the events inside the window, oldest first, each once', () => {
    const events = [
      { ts: 500, kind: 'cleared' as const },
      { ts: 100, kind: 'raised' as const },
      { ts: 100, kind: 'raised' as const },
      { ts: 50, kind: 'raised' as const },
      { ts: 900, kind: 'acknowledged' as const },
    ];
    expect(marksWithin(events, 100, 800)).toEqual([
      { ts: 100, kind: 'raised' },
      { ts: 500, kind: 'cleared' },
    ]);
  });

  it("offline come from the synced status's latest raise, clear and acknowledgement", () => {
    expect(statusEvents(null)).toEqual([]);
    expect(
      statusEvents({ raised_at: 100, cleared_at: null, acknowledged_at: 150 }).map((e) => e.kind),
    ).toEqual(['raised', 'acknowledged']);
  });

  it('read back page by page until past the window', () => {
    expect(reachesBack(null, 100)).toBe(true);
    expect(reachesBack(99, 100)).toBe(true);
    expect(reachesBack(150, 100)).toBe(false);
  });
});
