import { describe, expect, it } from 'vitest';
import { HotChunks } from './hot-chunks';

/*
 * The values cache's memory (cache.test.ts tests it with the store): which hours it knows, the
 * rule that keeps a read older than a write out of it, and its bound.
 */
const H = 3_600_000;
const row = (hour: number, bytes = 100) => ({ hour: hour * H, bytes });

describe('hot chunks', () => {
  it('answers a range only when it knows every hour of it, hours without a row included', () => {
    const hot = new HotChunks<ReturnType<typeof row>>(10_000, H);
    hot.noteRead('s', hot.generation('s'), 0, 3 * H, [row(1), row(3)], []);
    expect(hot.rows('s', 0, 3 * H)).toEqual([row(1), row(3)]);
    expect(hot.rows('s', 2 * H, 2 * H)).toEqual([]);
    expect(hot.rows('s', 0, 4 * H)).toBeUndefined();
    expect(hot.rows('other', 0, H)).toBeUndefined();
    expect(hot.rows('s', Number.NaN, H)).toBeUndefined();
    expect(hot.spans('s')).toEqual([]);
    expect(hot.size).toBe(200);
  });

  it('keeps out what a read found when a write or a forget came while it read', () => {
    const hot = new HotChunks<ReturnType<typeof row>>(10_000, H);
    const before = hot.generation('s');
    hot.noteWrite('s', [row(1, 300)]);
    // The read began before the write: its older row for hour 1 is not noted.
    hot.noteRead('s', before, 0, 2 * H, [row(1, 100)]);
    expect(hot.rows('s', H, H)).toEqual([row(1, 300)]);
    expect(hot.rows('s', 0, 2 * H)).toBeUndefined();
    const again = hot.generation('s');
    hot.forget(['s']);
    hot.noteRead('s', again, 0, 2 * H, [row(1, 300)]);
    expect(hot.rows('s', H, H)).toBeUndefined();
    const all = hot.generation('t');
    hot.forget();
    hot.noteRead('t', all, 0, 0, [row(0)]);
    expect(hot.rows('t', 0, 0)).toBeUndefined();
    expect(hot.size).toBe(0);
  });

  it('drops the streams used longest ago past its bound', () => {
    const hot = new HotChunks<ReturnType<typeof row>>(250, H);
    hot.noteWrite('a', [row(0)]);
    hot.noteWrite('b', [row(0)]);
    expect(hot.rows('a', 0, 0)).toHaveLength(1);
    hot.noteWrite('c', [row(0)]);
    expect(hot.size).toBe(200);
    expect(hot.rows('b', 0, 0)).toBeUndefined();
    expect(hot.rows('a', 0, 0)).toHaveLength(1);
    expect(hot.rows('c', 0, 0)).toHaveLength(1);
  });
});
