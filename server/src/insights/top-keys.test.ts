import { describe, expect, it } from 'vitest';
import { OTHERS_KEY } from '@plant/shared-schema';
import { countInto, mergeTop } from './top-keys';

const sum = (m: ReadonlyMap<string, number>) => [...m.values()].reduce((n, c) => n + c, 0);

describe('a day’s top keys', () => {
  it('keeps at most the limit, sums the rest under the others, and never loses a count', () => {
    let stored: ReadonlyMap<string, number> = new Map();
    let total = 0;
    // A flood of one-time addresses, flush after flush.
    for (let flush = 0; flush < 50; flush++) {
      const added = new Map<string, number>();
      for (let i = 0; i < 40; i++) added.set(`10.0.${flush}.${i}`, 1);
      total += 40;
      stored = mergeTop(stored, added, 20).counts;
      expect(stored.size).toBeLessThanOrEqual(21);
      expect(sum(stored)).toBe(total);
    }
  });

  it('a steady attacker among one-time addresses comes to the top and stays', () => {
    let stored: ReadonlyMap<string, number> = new Map();
    for (let flush = 0; flush < 30; flush++) {
      const added = new Map<string, number>([['203.0.113.7', 3]]);
      for (let i = 0; i < 30; i++) added.set(`10.1.${flush}.${i}`, 1);
      stored = mergeTop(stored, added, 20).counts;
    }
    const ranked = [...stored].filter(([k]) => k !== OTHERS_KEY).sort((a, b) => b[1] - a[1]);
    expect(ranked[0]).toEqual(['203.0.113.7', 90]);
  });

  it('tells which stored keys fell out, so the rows go', () => {
    const stored = new Map([
      ['a', 1],
      ['b', 5],
    ]);
    const merged = mergeTop(stored, new Map([['c', 2]]), 2);
    expect(merged.dropped).toEqual(['a']);
    expect([...merged.counts]).toEqual([
      ['b', 5],
      ['c', 2],
      [OTHERS_KEY, 1],
    ]);
  });

  it('bounds the memory between flushes', () => {
    const map = new Map<string, number>();
    for (let i = 0; i < 1000; i++) countInto(map, `k${i}`, 80);
    expect(map.size).toBe(81);
    expect(sum(map)).toBe(1000);
  });
});
