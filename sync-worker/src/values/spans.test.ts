import { describe, expect, it } from 'vitest';
import { addSpan, cutSpans, gapsOf, heldOf, MAX_SPANS, type Span } from './spans';

describe('value spans', () => {
  it('answers the parts of a range no span covers', () => {
    const spans: Span[] = [
      { from: 10, to: 20, step: 1 },
      { from: 30, to: 40, step: 1 },
    ];
    expect(gapsOf(spans, 0, 50, 1)).toEqual([
      { from: 0, to: 10 },
      { from: 20, to: 30 },
      { from: 40, to: 50 },
    ]);
    expect(gapsOf(spans, 12, 18, 1)).toEqual([]);
    expect(gapsOf([], 5, 6, 1)).toEqual([{ from: 5, to: 6 }]);
  });

  it('a coarse span does not answer a finer read; a fine one answers a coarser read', () => {
    const spans = [{ from: 0, to: 100, step: 10 }];
    expect(gapsOf(spans, 0, 100, 1)).toEqual([{ from: 0, to: 100 }]);
    expect(gapsOf(spans, 0, 100, 50)).toEqual([]);
  });

  it('joins touching spans of one step, and a finer span keeps its part of an overlap', () => {
    let spans = addSpan([], { from: 0, to: 10, step: 5 });
    spans = addSpan(spans, { from: 10, to: 20, step: 5 });
    expect(spans).toEqual([{ from: 0, to: 20, step: 5 }]);
    spans = addSpan(spans, { from: 5, to: 8, step: 0 });
    expect(spans).toEqual([
      { from: 0, to: 5, step: 5 },
      { from: 5, to: 8, step: 0 },
      { from: 8, to: 20, step: 5 },
    ]);
    // A coarser span over it fills around the finer one only.
    spans = addSpan(spans, { from: 0, to: 30, step: 10 });
    expect(gapsOf(spans, 0, 30, 10)).toEqual([]);
    expect(gapsOf(spans, 0, 30, 0)).toEqual([
      { from: 0, to: 5 },
      { from: 8, to: 30 },
    ]);
  });

  it('cuts evicted hours out, and keeps at most MAX_SPANS (the newest)', () => {
    expect(cutSpans([{ from: 0, to: 100, step: 1 }], 20, 30)).toEqual([
      { from: 0, to: 20, step: 1 },
      { from: 30, to: 100, step: 1 },
    ]);
    let spans: Span[] = [];
    for (let i = 0; i < MAX_SPANS + 10; i++) {
      spans = addSpan(spans, { from: i * 10, to: i * 10 + 5, step: 1 });
    }
    expect(spans).toHaveLength(MAX_SPANS);
    expect(spans.at(-1)).toEqual({
      from: (MAX_SPANS + 9) * 10,
      to: (MAX_SPANS + 9) * 10 + 5,
      step: 1,
    });
  });

  it('says which parts of a range it holds, at any resolution, with the live tail', () => {
    const spans: Span[] = [
      { from: 0, to: 20, step: 10 },
      { from: 20, to: 30, step: 1 },
      { from: 50, to: 70, step: 1 },
    ];
    // Spans of different steps that touch are one held part; clipped to the range.
    expect(heldOf(spans, 10, 60, undefined, undefined)).toEqual([
      { from: 10, to: 30 },
      { from: 50, to: 60 },
    ]);
    // Live points cached after the last read extend its part to the newest of them.
    expect(heldOf(spans, 10, 100, 12, 85)).toEqual([
      { from: 10, to: 30 },
      { from: 50, to: 85 },
    ]);
    // Only live points: from the first to the last.
    expect(heldOf([], 0, 100, 40, 60)).toEqual([{ from: 40, to: 60 }]);
    expect(heldOf([], 0, 100, undefined, undefined)).toEqual([]);
  });
});
