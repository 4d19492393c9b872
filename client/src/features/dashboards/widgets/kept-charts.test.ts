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

  it('hands a kept chart to the next taker of its kind, once', () => {
    const kept = new KeptCharts<ReturnType<typeof chart>>(60_000, 1_000);
    const a = chart('a');
    kept.keep('line', 'board|w1', a, 100);
    expect(kept.take('steps', 'board|w1')).toBeUndefined();
    expect(kept.take('line', 'board|w1')).toBe(a);
    expect(kept.take('line', 'board|w1')).toBeUndefined();
    expect(a.destroyed).toBe(false);
    // Taken, it is the taker's: its time no longer runs out.
    vi.advanceTimersByTime(120_000);
    expect(a.destroyed).toBe(false);
  });

  it("gives a widget the chart it left, else another widget's of the same kind, the last kept", () => {
    const kept = new KeptCharts<ReturnType<typeof chart>>(60_000, 1_000);
    const [a, b, c] = [chart('a'), chart('b'), chart('c')];
    kept.keep('line', 'board|w1', a, 100);
    kept.keep('line', 'board|w2', b, 100);
    kept.keep('steps', 'board|w3', c, 100);
    expect(kept.take('line', 'board|w1')).toBe(a);
    // Another dashboard's widget (the same template, another machine): the last of its kind.
    kept.keep('line', 'board|w1', a, 100);
    expect(kept.take('line', 'other|w1')).toBe(a);
    expect(kept.take('line', 'other|w2')).toBe(b);
    expect(kept.take('line', 'other|w4')).toBeUndefined();
    expect(kept.take('steps', 'other|w3')).toBe(c);
    expect([a, b, c].map((x) => x.destroyed)).toEqual([false, false, false]);
    expect(kept.size).toBe(0);
  });

  it('destroys a chart nobody took in time', () => {
    const kept = new KeptCharts<ReturnType<typeof chart>>(60_000, 1_000);
    const a = chart('a');
    kept.keep('k', 'w', a, 100);
    vi.advanceTimersByTime(59_999);
    expect(a.destroyed).toBe(false);
    vi.advanceTimersByTime(1);
    expect(a.destroyed).toBe(true);
    expect(kept.take('k', 'w')).toBeUndefined();
    expect(kept.size).toBe(0);
  });

  it('destroys the oldest once the pixels pass the bound, and any chart larger than it', () => {
    const kept = new KeptCharts<ReturnType<typeof chart>>(60_000, 1_000);
    const [a, b, c, huge] = [chart('a'), chart('b'), chart('c'), chart('huge')];
    kept.keep('k', 'a', a, 400);
    kept.keep('k', 'b', b, 400);
    kept.keep('k', 'c', c, 400);
    expect([a.destroyed, b.destroyed, c.destroyed]).toEqual([true, false, false]);
    kept.keep('k', 'huge', huge, 1_001);
    expect(huge.destroyed).toBe(true);
    expect(kept.size).toBe(2);
    // A taken chart's pixels are free again.
    expect(kept.take('k', 'b')).toBe(b);
    kept.keep('k', 'd', chart('d'), 600);
    expect(c.destroyed).toBe(false);
  });

  it('keeps one chart per widget: a second it keeps destroys the first', () => {
    const kept = new KeptCharts<ReturnType<typeof chart>>(60_000, 1_000);
    const [first, second] = [chart('first'), chart('second')];
    kept.keep('k', 'w', first, 100);
    vi.advanceTimersByTime(30_000);
    kept.keep('other kind', 'w', second, 100);
    expect(first.destroyed).toBe(true);
    expect(kept.take('k', 'w')).toBeUndefined();
    // The first one's time ends now: the second, kept later, has its own.
    vi.advanceTimersByTime(30_000);
    expect(second.destroyed).toBe(false);
    expect(kept.take('other kind', 'w')).toBe(second);
    kept.keep('other kind', 'w', second, 100);
    vi.advanceTimersByTime(59_999);
    expect(second.destroyed).toBe(false);
    kept.clear();
    expect(second.destroyed).toBe(true);
    expect(kept.size).toBe(0);
  });
});
