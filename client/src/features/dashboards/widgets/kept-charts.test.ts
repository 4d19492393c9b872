import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { KeptCharts } from './kept-charts';

/** A stand-in chart that says whether it was destroyed. */
function chart(name: string) {
  return {
    name,
    destroyed: false,
    destroy() {
      this.destroyed = true;
    },
  };
}

describe('KeptCharts', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('hands a kept chart to the next taker of its key, once', () => {
    const kept = new KeptCharts<ReturnType<typeof chart>>(60_000, 1_000);
    const a = chart('a');
    kept.keep('board|w1', a, 100);
    expect(kept.take('board|w2')).toBeUndefined();
    expect(kept.take('board|w1')).toBe(a);
    expect(kept.take('board|w1')).toBeUndefined();
    expect(a.destroyed).toBe(false);
    // Taken, it is the taker's: its time no longer runs out.
    vi.advanceTimersByTime(120_000);
    expect(a.destroyed).toBe(false);
  });

  it('destroys a chart nobody took in time', () => {
    const kept = new KeptCharts<ReturnType<typeof chart>>(60_000, 1_000);
    const a = chart('a');
    kept.keep('k', a, 100);
    vi.advanceTimersByTime(59_999);
    expect(a.destroyed).toBe(false);
    vi.advanceTimersByTime(1);
    expect(a.destroyed).toBe(true);
    expect(kept.take('k')).toBeUndefined();
    expect(kept.size).toBe(0);
  });

  it('destroys the oldest once the pixels pass the bound, and any chart larger than it', () => {
    const kept = new KeptCharts<ReturnType<typeof chart>>(60_000, 1_000);
    const [a, b, c, huge] = [chart('a'), chart('b'), chart('c'), chart('huge')];
    kept.keep('a', a, 400);
    kept.keep('b', b, 400);
    kept.keep('c', c, 400);
    expect([a.destroyed, b.destroyed, c.destroyed]).toEqual([true, false, false]);
    expect(kept.take('a')).toBeUndefined();
    kept.keep('huge', huge, 1_001);
    expect(huge.destroyed).toBe(true);
    expect(kept.size).toBe(2);
    // A taken chart's pixels are free again.
    expect(kept.take('b')).toBe(b);
    kept.keep('a', a, 600);
    expect(c.destroyed).toBe(false);
  });

  it('keeps one chart per key: a second kept under it destroys the first', () => {
    const kept = new KeptCharts<ReturnType<typeof chart>>(60_000, 1_000);
    const [first, second] = [chart('first'), chart('second')];
    kept.keep('k', first, 100);
    vi.advanceTimersByTime(30_000);
    kept.keep('k', second, 100);
    expect(first.destroyed).toBe(true);
    // The first one's time ends now: the second, kept later, has its own.
    vi.advanceTimersByTime(30_000);
    expect(second.destroyed).toBe(false);
    expect(kept.take('k')).toBe(second);
    kept.keep('k', second, 100);
    vi.advanceTimersByTime(59_999);
    expect(second.destroyed).toBe(false);
    kept.clear();
    expect(second.destroyed).toBe(true);
    expect(kept.size).toBe(0);
  });
});
