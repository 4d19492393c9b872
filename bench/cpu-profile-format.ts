import { readFileSync } from 'node:fs';

/** A Chrome CPU profile (`.cpuprofile`), as `Profiler.stop` answers it (page-probe.ts). */

export interface CallFrame {
  readonly functionName: string;
  readonly url: string;
  readonly lineNumber: number;
}

export interface ProfileNode {
  readonly id: number;
  readonly callFrame: CallFrame;
  readonly children?: readonly number[];
}

export interface Profile {
  readonly nodes: readonly ProfileNode[];
  /** µs on the browser's monotonic clock, the one trace events' `ts` use too. */
  readonly startTime: number;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

export function loadProfile(file: string): Profile {
  return JSON.parse(readFileSync(file, 'utf8')) as Profile;
}

export function frameName(f: Pick<CallFrame, 'functionName'>): string {
  return f.functionName === '' ? '(anonymous)' : f.functionName;
}
