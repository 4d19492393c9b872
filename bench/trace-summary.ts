import { readFileSync } from 'node:fs';
import { frameName, loadProfile, type Profile } from './cpu-profile-format';

/*
 * Lists what a Chrome trace (page-probe.ts `tracePage`) shows between two `performance.mark`s
 * of a page:
 *
 *   node --import tsx bench/trace-summary.ts FILE START_MARK END_MARK [PROFILE]
 *
 * the page's main-thread tasks in that window, each with its start (ms from START_MARK), its
 * length and its larger parts (scripts with their function and file, style, layout, paint,
 * garbage collection), the frames, and every other thread's busy time in the window. With a CPU
 * profile of the page taken at the same time (`profilePage`: the same clock), each task also
 * names the functions that ran most in it (self time, with their callers' names). Each task and
 * thread shows its CPU time beside its length: on these 2 cores the page's thread can wait half a
 * task for a core (2026-12-04), and a CPU profile's samples then come 2 to 9 ms apart, their
 * time counted to whatever ran last. The tracer costs the page time of its own: read it for
 * order and proportion, not as a figure.
 */

interface TraceEvent {
  readonly name: string;
  readonly cat: string;
  readonly ph: string;
  readonly ts: number;
  readonly dur?: number;
  /** The thread's CPU time in the event (µs): less than `dur` while the thread waited its turn. */
  readonly tdur?: number;
  readonly pid: number;
  readonly tid: number;
  readonly args?: {
    readonly name?: string;
    readonly data?: {
      readonly functionName?: string;
      readonly url?: string;
      readonly type?: string;
    };
  };
}

const [file, startMark, endMark, profileFile] = process.argv.slice(2);
if (file === undefined || startMark === undefined || endMark === undefined) {
  process.stderr.write('usage: trace-summary.ts FILE START_MARK END_MARK\n');
  process.exit(2);
}
const raw = JSON.parse(readFileSync(file, 'utf8')) as { traceEvents: TraceEvent[] } | TraceEvent[];
const events = Array.isArray(raw) ? raw : raw.traceEvents;

const marks = (name: string) =>
  events.filter((e) => e.cat.includes('blink.user_timing') && e.name === name);
const start = marks(startMark).at(-1);
const end = marks(endMark).at(-1);
if (start === undefined || end === undefined) {
  process.stderr.write(`marks not found: ${startMark} ${start ? '' : '(missing)'} ${endMark}\n`);
  process.exit(1);
}
const threadNames = new Map<string, string>();
for (const e of events) {
  if (e.ph === 'M' && e.name === 'thread_name')
    threadNames.set(`${e.pid}:${e.tid}`, e.args?.name ?? '');
}
const from = start.ts;
const to = end.ts;
const ms = (us: number) => (us / 1000).toFixed(1);

/** Complete events of a thread, by start. */
const spans = (pid: number, tid: number) =>
  events
    .filter((e) => e.ph === 'X' && e.pid === pid && e.tid === tid && (e.dur ?? 0) > 0)
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));

const TASK = new Set(['ThreadControllerImpl::RunTask', 'RunTask']);

/** The events worth naming inside a task (the outermost of them is shown). */
const PART = new Set([
  'FunctionCall',
  'EvaluateScript',
  'v8.compile',
  'v8.compileModule',
  'v8.evaluateModule',
  'RunMicrotasks',
  'TimerFire',
  'FireAnimationFrame',
  'EventDispatch',
  'UpdateLayoutTree',
  'Layout',
  'PrePaint',
  'Paint',
  'Layerize',
  'Commit',
  'HitTest',
  'ParseHTML',
  'MajorGC',
  'MinorGC',
  'V8.GC_SCAVENGER',
  'V8.GC_MARK_COMPACTOR',
  'ResourceReceivedData',
  'v8.run',
]);

function label(e: TraceEvent): string {
  const data = e.args?.data;
  if (e.name === 'FunctionCall' || e.name === 'EvaluateScript' || e.name.startsWith('v8.')) {
    const url = (data?.url ?? '').split('/').pop() ?? '';
    return `${e.name} ${data?.functionName ?? ''} ${url}`.replace(/\s+/g, ' ').trim();
  }
  if (e.name === 'EventDispatch') return `EventDispatch ${data?.type ?? ''}`;
  return e.name;
}

/** The outermost of `list` (sorted by start, longer first), each not inside the one before. */
function outermost(list: readonly TraceEvent[]): TraceEvent[] {
  const kept: TraceEvent[] = [];
  for (const e of list) {
    const last = kept.at(-1);
    if (last !== undefined && e.ts < last.ts + (last.dur ?? 0)) continue;
    kept.push(e);
  }
  return kept;
}

// The page's main thread: the one its marks are on.
const main = spans(start.pid, start.tid);
const tasks = outermost(main.filter((e) => TASK.has(e.name))).filter(
  (e) => e.ts + (e.dur ?? 0) >= from && e.ts <= to,
);

/** The profile's samples as [time, leaf name with two callers]. */
function samplesOf(profile: Profile): [number, string][] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const name = (id: number | undefined) => {
    const f = id === undefined ? undefined : byId.get(id)?.callFrame;
    return f === undefined ? '' : frameName(f);
  };
  const out: [number, string][] = [];
  let t = profile.startTime;
  profile.samples.forEach((id, i) => {
    t += profile.timeDeltas[i] ?? 0;
    const up = parent.get(id);
    out.push([
      t,
      [name(id), name(up), name(up === undefined ? undefined : parent.get(up))].join(' < '),
    ]);
  });
  return out;
}
const samples = profileFile === undefined ? [] : samplesOf(loadProfile(profileFile));

/** The functions most sampled between a and b (µs), with their time. */
function hottest(a: number, b: number): string {
  const counts = new Map<string, number>();
  let prev = a;
  for (const [t, name] of samples) {
    if (t < a || t > b) continue;
    counts.set(name, (counts.get(name) ?? 0) + (t - prev));
    prev = t;
  }
  return [...counts]
    .sort((x, y) => y[1] - x[1])
    .slice(0, 6)
    .filter(([, us]) => us >= 1000)
    .map(([name, us]) => `\n            ${ms(us).padStart(5)} ${name}`)
    .join('');
}

/** A task's CPU time in the window, its share of `tdur` as its wall time is cut by the window. */
function cpuIn(e: TraceEvent): number {
  const dur = e.dur ?? 0;
  const inside = Math.min(e.ts + dur, to) - Math.max(e.ts, from);
  return dur === 0 ? 0 : ((e.tdur ?? 0) * Math.max(0, inside)) / dur;
}

const lines: string[] = [];
let busy = 0;
let busyCpu = 0;
for (const task of tasks) {
  const taskEnd = task.ts + (task.dur ?? 0);
  busy += Math.min(taskEnd, to) - Math.max(task.ts, from);
  busyCpu += cpuIn(task);
  if ((task.dur ?? 0) < 1000) continue;
  const parts = outermost(
    main.filter((e) => PART.has(e.name) && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= taskEnd),
  );
  const shown = parts
    .filter((p) => (p.dur ?? 0) >= 500)
    .map((p) => `${label(p)} ${ms(p.dur ?? 0)}`)
    .join(' | ');
  const wrapper = main.find(
    (e) => !TASK.has(e.name) && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= taskEnd,
  );
  lines.push(
    `${ms(task.ts - from).padStart(7)} ${ms(task.dur ?? 0).padStart(6)} ms ` +
      `(cpu ${ms(task.tdur ?? 0).padStart(5)})  ` +
      `[${wrapper?.name ?? ''}] ${shown}${hottest(task.ts, taskEnd)}`,
  );
}
const frames = events
  .filter(
    (e) =>
      e.pid === start.pid &&
      (e.name === 'DrawFrame' || e.name === 'BeginFrame') &&
      e.ts >= from &&
      e.ts <= to,
  )
  .map((e) => `${e.name === 'DrawFrame' ? 'draw' : 'begin'} ${ms(e.ts - from)}`);

// Each thread's outermost tasks only: a RunTask holds a ThreadControllerImpl::RunTask, and
// counting both (until 2026-12-04) doubled every thread's figure.
const others = new Map<string, { wall: number; cpu: number }>();
const byThread = new Map<string, TraceEvent[]>();
for (const e of events) {
  if (e.ph !== 'X' || !TASK.has(e.name) || (e.dur ?? 0) <= 0) continue;
  if (e.pid === start.pid && e.tid === start.tid) continue;
  const key = `${threadNames.get(`${e.pid}:${e.tid}`) ?? e.tid} (${e.pid})`;
  byThread.set(key, [...(byThread.get(key) ?? []), e]);
}
for (const [key, list] of byThread) {
  const sorted = [...list].sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  for (const e of outermost(sorted)) {
    const a = Math.max(e.ts, from);
    const b = Math.min(e.ts + (e.dur ?? 0), to);
    if (b <= a) continue;
    const was = others.get(key) ?? { wall: 0, cpu: 0 };
    others.set(key, { wall: was.wall + (b - a), cpu: was.cpu + cpuIn(e) });
  }
}
process.stdout.write(
  `${startMark} -> ${endMark}: ${ms(to - from)} ms, the main thread busy ${ms(busy)} ms ` +
    `(cpu ${ms(busyCpu)})\n` +
    `tasks of 1 ms or more (start, length (cpu), [what runs it], parts of 0.5 ms or more):\n` +
    `${lines.join('\n')}\n` +
    `frames: ${frames.join(', ')}\n` +
    `other threads (busy in the window, and their cpu):\n` +
    [...others]
      .sort((a, b) => b[1].wall - a[1].wall)
      .filter(([, t]) => t.wall >= 1000)
      .map(([name, t]) => `  ${ms(t.wall).padStart(7)} ms (cpu ${ms(t.cpu).padStart(5)})  ${name}`)
      .join('\n') +
    '\n',
);
