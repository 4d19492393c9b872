import { readdirSync, readFileSync } from 'node:fs';

/*
 * CPU time of the browser's threads, exact to the nanosecond (each thread's
 * /proc/PID/task/TID/schedstat: its time on a core), for A/B runs: a change of a few ms of CPU
 * hides in the wall time's spread on a shared 2-core machine (16 openings a side moved their
 * median by 15 ms from one run to the next), not in the CPU time.
 *
 * The browser is found as the descendants of this Node process whose command is Chromium's; a
 * renderer is one with `--type=renderer`, its main thread the one whose id is the process's.
 */

interface Sample {
  /** Each renderer's main thread. */
  readonly rendererMain: number;
  /** Every other thread of the renderers (workers, compositor, V8's compilers, GC helpers). */
  readonly rendererOther: number;
  /** Every thread of the other Chromium processes (browser, GPU/Viz, network, …). */
  readonly rest: number;
}

function read(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** This process's descendants: pid and command line. */
function descendants(): { pid: number; cmdline: string }[] {
  const parent = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = read(`/proc/${name}/stat`);
    // The command in parentheses may hold spaces: the fields after its closing one.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    parent.set(Number(name), Number(fields[1]));
  }
  const mine = new Set([process.pid]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, ppid] of parent) {
      if (!mine.has(pid) && mine.has(ppid)) {
        mine.add(pid);
        grew = true;
      }
    }
  }
  mine.delete(process.pid);
  return [...mine].map((pid) => ({
    pid,
    cmdline: read(`/proc/${pid}/cmdline`).replaceAll('\0', ' '),
  }));
}

function threadNs(pid: number, tid: string): number {
  return Number(read(`/proc/${pid}/task/${tid}/schedstat`).split(' ')[0] ?? 0) || 0;
}

function sample(): Sample {
  let rendererMain = 0;
  let rendererOther = 0;
  let rest = 0;
  for (const { pid, cmdline } of descendants()) {
    if (!/chrom/i.test(cmdline)) continue;
    const renderer = cmdline.includes('--type=renderer');
    let tids: string[];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      const ns = threadNs(pid, tid);
      if (!renderer) rest += ns;
      else if (Number(tid) === pid) rendererMain += ns;
      else rendererOther += ns;
    }
  }
  return { rendererMain, rendererOther, rest };
}

/** The browser's CPU time from now on: call the answer for the ms used since, per kind. */
export function browserCpu(): () => { main: number; other: number; rest: number } {
  const start = sample();
  return () => {
    const end = sample();
    // A process that ended between the two samples takes its time with it: a negative part is 0.
    const part = (a: number, b: number) => Math.max(0, (b - a) / 1e6);
    return {
      main: part(start.rendererMain, end.rendererMain),
      other: part(start.rendererOther, end.rendererOther),
      rest: part(start.rest, end.rest),
    };
  };
}
