import type { ManyAnswer, ManyWatch, ManyWatches } from '../api';

/*
 * Several watches opened in one call and answered in batches (a dashboard's widgets, issue 31).
 * Twelve charts opened one watch each: 24 calls, 48 message channels (a callback and an
 * unsubscribe each way) and 24 answers, each a task of its own on the page, which renders once
 * per answer. Here one call opens them all, one callback carries their answers, and the answers
 * that come close together go as one message: the page renders them at once.
 */

/** The first answers wait at most this long for the others (a dashboard draws all at once). */
export const FIRST_WAIT_MS = 40;

export interface ManyOptions {
  readonly firstWaitMs?: number;
  readonly now?: () => number;
}

/**
 * Opens each watch through `open` (it answers the watch's unsubscribe) and hands their answers
 * to `callback`, batched: until every watch has answered once (at most `firstWaitMs`), the
 * answers wait for the others; after that, those of one task go together.
 */
export function watchMany(
  watches: readonly ManyWatch[],
  open: (watch: ManyWatch, onValue: (value: unknown) => void) => () => void,
  callback: (answers: readonly ManyAnswer[]) => void,
  options: ManyOptions = {},
): ManyWatches {
  const now = options.now ?? Date.now;
  const deadline = now() + (options.firstWaitMs ?? FIRST_WAIT_MS);
  const pending = new Map<number, unknown>();
  const unanswered = new Set(watches.map((_, i) => i));
  const stops = new Map<number, () => void>();
  const stopped = new Set<number>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let ended = false;

  const flush = () => {
    timer = undefined;
    if (ended || pending.size === 0) return;
    const answers = [...pending].map(([index, value]) => ({ index, value }) as ManyAnswer);
    pending.clear();
    callback(answers);
  };
  const schedule = () => {
    if (timer !== undefined) return;
    const wait = unanswered.size > 0 ? Math.max(0, deadline - now()) : 0;
    timer = setTimeout(() => {
      // The wait for the first answers is over: what came goes now.
      flush();
      if (pending.size > 0) schedule();
    }, wait);
  };

  watches.forEach((watch, index) => {
    const stop = open(watch, (value) => {
      if (ended || stopped.has(index)) return;
      pending.set(index, value);
      const wasWaiting = unanswered.size > 0;
      unanswered.delete(index);
      // The last first answer came: the batch goes now, not a timer's task later (the worker's
      // next tasks, the watches' asset lookups, came first and held a page's first paint back).
      if (wasWaiting && unanswered.size === 0) {
        clearTimeout(timer);
        timer = undefined;
        flush();
        return;
      }
      schedule();
    });
    stops.set(index, stop);
  });

  const stopOne = (index: number) => {
    const stop = stops.get(index);
    if (stop === undefined) return;
    stops.delete(index);
    stopped.add(index);
    unanswered.delete(index);
    pending.delete(index);
    stop();
  };
  return {
    stop(indexes) {
      for (const index of indexes ?? [...stops.keys()]) stopOne(index);
      if (stops.size === 0) {
        ended = true;
        clearTimeout(timer);
      }
    },
  };
}
