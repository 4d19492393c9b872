import { OTHERS_KEY } from '@plant/shared-schema';

/*
 * A day's keys of one kind and dimension (the addresses of failed sign-ins, say), bounded: at most
 * `limit` keys with their counts, and the rest summed under OTHERS_KEY. Pure, so the recorder's
 * memory and the stored rows follow one rule. Totals stay exact (the kind's day total is its own
 * counter); a key's count is exact while it is kept, and what a key had when it was pushed out
 * goes to the others. A newcomer pushes out the smallest key when it counts at least as much:
 * under a flood of one-time addresses the list turns over, while a steady attacker, counted
 * again at each flush, comes back and stays once it leads.
 */

export interface TopMerge {
  /** The keys' counts after the merge (OTHERS_KEY included when anything fell out). */
  readonly counts: ReadonlyMap<string, number>;
  /** Keys that were there before and are not now. */
  readonly dropped: readonly string[];
}

export function mergeTop(
  stored: ReadonlyMap<string, number>,
  added: ReadonlyMap<string, number>,
  limit: number,
): TopMerge {
  const counts = new Map(stored);
  let others = counts.get(OTHERS_KEY) ?? 0;
  counts.delete(OTHERS_KEY);
  const dropped = new Set<string>();
  // The biggest first: they win the free places.
  const newcomers = [...added].sort((a, b) => b[1] - a[1]);
  for (const [key, n] of newcomers) {
    if (key === OTHERS_KEY) {
      others += n;
      continue;
    }
    const had = counts.get(key);
    if (had !== undefined) {
      counts.set(key, had + n);
      continue;
    }
    if (counts.size < limit) {
      counts.set(key, n);
      dropped.delete(key);
      continue;
    }
    let smallest: [string, number] | undefined;
    for (const entry of counts)
      if (smallest === undefined || entry[1] < smallest[1]) smallest = entry;
    if (smallest !== undefined && n >= smallest[1]) {
      counts.delete(smallest[0]);
      others += smallest[1];
      if (stored.has(smallest[0])) dropped.add(smallest[0]);
      counts.set(key, n);
      dropped.delete(key);
    } else {
      others += n;
    }
  }
  if (others > 0) counts.set(OTHERS_KEY, others);
  return { counts, dropped: [...dropped] };
}

/** Adds one to a key of a bounded map (the recorder's memory between flushes). */
export function countInto(map: Map<string, number>, key: string, limit: number): void {
  const had = map.get(key);
  if (had !== undefined) {
    map.set(key, had + 1);
    return;
  }
  if (map.size < limit) {
    map.set(key, 1);
    return;
  }
  map.set(OTHERS_KEY, (map.get(OTHERS_KEY) ?? 0) + 1);
}
