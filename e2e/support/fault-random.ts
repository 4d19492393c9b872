import { seededRandom } from '../../server/src/testing/hostile-sweep';

/*
 * The fault suite's seeds (issue 38 item 4): one number per run decides its workload and its
 * fault schedule, so a failing run is run again by its seed. Timing still differs between two
 * runs of one seed (which request a reset meets, when a point is read), so a seed gives the same
 * plan, not the same interleaving; each part draws from a stream of its own (`streamOf`), so a
 * part that draws more or less in one run (the proxy's jitter per chunk) moves no other part's.
 * The numbers are the hostile-input sweep's (`seededRandom`, mulberry32).
 */

/** FNV-1a of a text: a seed of its own for each part of a run. */
function hashOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Draws for one part of a run: whole numbers, picks, chances. */
export class Draw {
  constructor(readonly next: () => number) {}

  /** A whole number from `min` to `max`, both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('nothing to pick from');
    return item;
  }

  /** One of the keys, each as likely as its weight. */
  weighted<K extends string>(weights: Readonly<Record<K, number>>): K {
    const entries = Object.entries(weights) as [K, number][];
    let left = this.next() * entries.reduce((sum, [, w]) => sum + w, 0);
    for (const [key, weight] of entries) {
      left -= weight;
      if (left < 0) return key;
    }
    const last = entries[entries.length - 1];
    if (last === undefined) throw new Error('no weights');
    return last[0];
  }
}

/** The draws of one named part (`'tab 1'`, `'faults'`, …) of the run with this seed. */
export function streamOf(seed: number, part: string): Draw {
  return new Draw(seededRandom(hashOf(`${seed} ${part}`)));
}

/** The command that runs one seed again (every failure message starts with it). */
export function rerunCommand(seed: number): string {
  return `FAULT_SEED=${seed} FAULT_RUNS=1 npx vitest run --config vitest.workspace.ts --project e2e e2e/fault-suite.test.ts`;
}

/**
 * The seeds of this run: FAULT_SEED (random if unset) and the FAULT_RUNS after it (default
 * `ciRuns`). Bad values fail at once, saying which.
 */
export function faultSeeds(env: NodeJS.ProcessEnv, ciRuns: number): number[] {
  const runs = env.FAULT_RUNS === undefined ? ciRuns : Number(env.FAULT_RUNS);
  if (!Number.isInteger(runs) || runs < 1 || runs > 10_000) {
    throw new Error(`FAULT_RUNS must be a whole number from 1 to 10000, not ${env.FAULT_RUNS}`);
  }
  const first =
    env.FAULT_SEED === undefined ? Math.floor(Math.random() * 1_000_000) : Number(env.FAULT_SEED);
  if (!Number.isInteger(first) || first < 0 || first > 2 ** 31) {
    throw new Error(`FAULT_SEED must be a whole number from 0 to 2^31, not ${env.FAULT_SEED}`);
  }
  return Array.from({ length: runs }, (_, i) => first + i);
}
