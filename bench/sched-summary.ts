import { readFileSync } from 'node:fs';

/*
 * What ran on the machine's cores during each window a bench printed (`window FROM TO`, seconds
 * on the monotonic clock: dashboard.bench.ts with BENCH_DASHBOARD_WINDOWS=1):
 *
 *   perf record -e sched:sched_switch -a -k CLOCK_MONOTONIC -o /tmp/sched.data &
 *   BENCH_DASHBOARD_WINDOWS=1 npm run bench -- dashboard > /tmp/bench.log
 *   kill -INT %1; perf sched timehist -i /tmp/sched.data > /tmp/timehist.txt
 *   node --import tsx bench/sched-summary.ts /tmp/bench.log /tmp/timehist.txt
 *
 * prints per window each thread's time on a core (the ten busiest) and, for the busiest one (the
 * page's main thread, named after its process, `chromium[PID]`), how long of the window it was
 * off its core. `timehist` counts a preempted thread's wait as "wait time" unless the wakeups
 * are recorded too, so off-core here is preempted or asleep: the switch-outs' stacks
 * (`perf record -g`, `timehist` prints them) tell which (an interrupt's reschedule: preempted).
 */

interface Switch {
  /** When the thread left its core (s). */
  readonly at: number;
  readonly thread: string;
  /** How long it had run before (ms). */
  readonly ran: number;
}

function switchesOf(text: string): Switch[] {
  const out: Switch[] = [];
  for (const line of text.split('\n')) {
    // time [cpu] thread wait delay run [stack]
    const m = /^\s*(\d+\.\d+)\s+\[\d+\]\s+(\S+)\s+[\d.]+\s+[\d.]+\s+([\d.]+)/.exec(line);
    if (m !== null) out.push({ at: Number(m[1]), thread: m[2] ?? '', ran: Number(m[3]) });
  }
  return out;
}

function windowsOf(text: string): [number, number][] {
  return [...text.matchAll(/^window (\d+\.\d+) (\d+\.\d+)$/gm)].map((m) => [
    Number(m[1]),
    Number(m[2]),
  ]);
}

const [benchLog, timehist] = process.argv.slice(2);
if (benchLog === undefined || timehist === undefined) {
  process.stderr.write('usage: sched-summary.ts BENCH_LOG TIMEHIST\n');
  process.exit(2);
}
const switches = switchesOf(readFileSync(timehist, 'utf8'));
for (const [from, to] of windowsOf(readFileSync(benchLog, 'utf8'))) {
  const onCore = new Map<string, number>();
  for (const s of switches) {
    // The run ended at `at` and began `ran` ms before: its part inside the window.
    const overlap = Math.min(s.at, to) - Math.max(s.at - s.ran / 1000, from);
    if (overlap > 0) onCore.set(s.thread, (onCore.get(s.thread) ?? 0) + overlap * 1000);
  }
  const ranked = [...onCore].sort((a, b) => b[1] - a[1]);
  const length = (to - from) * 1000;
  const page = ranked.find(([thread]) => /^chromium\[\d+\]$/.test(thread));
  process.stdout.write(
    `window of ${length.toFixed(0)} ms` +
      (page === undefined
        ? '\n'
        : `: ${page[0]} off its core ${(length - page[1]).toFixed(1)} ms\n`),
  );
  for (const [thread, ms] of ranked.slice(0, 10)) {
    process.stdout.write(`  ${ms.toFixed(1).padStart(7)} ms  ${thread}\n`);
  }
}
