import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ManyAnswer, ManyWatch } from '../api';
import { watchMany } from './watch-many';

/** Three model watches whose answers the test gives by hand. */
function setUp() {
  const watches: ManyWatch[] = ['a', 'b', 'c'].map((id) => ({
    kind: 'model',
    type: 'datastream',
    id,
  }));
  const answer = new Map<string, (value: unknown) => void>();
  const stopped: string[] = [];
  const batches: (readonly ManyAnswer[])[] = [];
  const handle = watchMany(
    watches,
    (watch, onValue) => {
      const id = watch.kind === 'model' ? watch.id : '';
      answer.set(id, onValue);
      return () => stopped.push(id);
    },
    (answers) => batches.push(answers),
    { firstWaitMs: 40, now: () => Date.now() },
  );
  const say = (id: string, value: string) => answer.get(id)?.(value);
  return { handle, say, stopped, batches };
}

describe('watchMany', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('holds the first answers until every watch has answered, then sends them at once as one batch', () => {
    const { say, batches } = setUp();
    say('a', 'A1');
    say('c', 'C1');
    vi.advanceTimersByTime(10);
    expect(batches).toEqual([]);
    // The last first answer sends the batch in its own task, no timer after it.
    say('b', 'B1');
    expect(batches).toEqual([
      [
        { index: 0, value: 'A1' },
        { index: 2, value: 'C1' },
        { index: 1, value: 'B1' },
      ],
    ]);
  });

  it('sends what came once the first wait is over, and later answers of one task together', () => {
    const { say, batches } = setUp();
    say('a', 'A1');
    vi.advanceTimersByTime(39);
    expect(batches).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(batches).toEqual([[{ index: 0, value: 'A1' }]]);
    // Still waiting for b and c, but the wait is over: the next ones go at once.
    say('b', 'B1');
    say('b', 'B2');
    say('a', 'A2');
    vi.advanceTimersByTime(0);
    expect(batches[1]).toEqual([
      { index: 1, value: 'B2' },
      { index: 0, value: 'A2' },
    ]);
  });

  it('stops one watch by its index (its answers no longer come) and then all', () => {
    const { handle, say, stopped, batches } = setUp();
    handle.stop([1]);
    expect(stopped).toEqual(['b']);
    say('b', 'B1');
    say('a', 'A1');
    say('c', 'C1');
    // b is no longer awaited: a and c are all the first batch needs.
    vi.advanceTimersByTime(0);
    expect(batches).toEqual([
      [
        { index: 0, value: 'A1' },
        { index: 2, value: 'C1' },
      ],
    ]);
    handle.stop();
    expect(stopped).toEqual(['b', 'a', 'c']);
    say('a', 'A2');
    vi.advanceTimersByTime(100);
    expect(batches).toHaveLength(1);
  });
});
