import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SortedKeys } from './sorted-keys';

/** The same keys sorted from scratch, by (sort, key) in code-unit order. */
function sortedFromScratch(state: ReadonlyMap<string, string>): string[] {
  return [...state.entries()]
    .sort(([ka, sa], [kb, sb]) => (sa < sb ? -1 : sa > sb ? 1 : ka < kb ? -1 : 1))
    .map(([k]) => k);
}

describe('SortedKeys', () => {
  it('keeps list order under any changes, small runs and large merges alike', () => {
    const key = fc.constantFrom(...Array.from({ length: 120 }, (_, i) => `asset:${i}`));
    const sort = fc.option(fc.constantFrom('', 'a', 'A', 'b', 'ba', 'é', 'z', '0001', '0010'));
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.tuple(key, sort), { maxLength: 150 }), { maxLength: 12 }),
        (bulks) => {
          const keys = new SortedKeys();
          const state = new Map<string, string>();
          for (const bulk of bulks) {
            const changes = new Map(bulk);
            const order = sortedFromScratch(state);
            const lowest = keys.apply(changes);
            for (const [k, s] of changes) {
              if (s === null) state.delete(k);
              else state.set(k, s);
            }
            const expected = sortedFromScratch(state);
            expect(keys.slice(0, Number.MAX_SAFE_INTEGER)).toEqual(expected);
            expect(keys.size).toBe(expected.length);
            // Everything above the lowest index touched stayed where it was.
            const kept = Math.min(lowest, order.length, expected.length);
            expect(expected.slice(0, kept)).toEqual(order.slice(0, kept));
            for (const [i, k] of expected.entries()) expect(keys.indexOf(k)).toBe(i);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
