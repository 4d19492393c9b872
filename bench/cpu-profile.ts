import { frameName, loadProfile as load, type CallFrame, type Profile } from './cpu-profile-format';

/*
 * Sums a Chrome CPU profile (`.cpuprofile`, as page-probe.ts writes them):
 *
 *   node --import tsx bench/cpu-profile.ts FILE [--zero FILE2] [--under NAME]
 *
 * prints the busy time, the functions by self and by inclusive time, and a timeline of 10 ms
 * steps with what ran most in each. `--zero FILE2`: the timeline counts from FILE2's start (a
 * page's and its worker's profiles share a clock: both on one time line). `--under NAME`: in the
 * timeline, time under a function of that name is shown with its callers. Read an unminified
 * build's profile (BENCH_NO_MINIFY=1) to see names.
 */

const STEP_US = 10_000;

function where(f: CallFrame): string {
  const file = f.url.split('/').pop() ?? '';
  return file === '' ? frameName(f) : `${frameName(f)} ${file}:${f.lineNumber + 1}`;
}

function top(totals: Map<string, number>, count: number): string {
  return [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, us]) => `${(us / 1000).toFixed(1).padStart(8)} ms  ${name}`)
    .join('\n');
}

function summarize(profile: Profile, zero: number, under: string | undefined): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const steps = new Map<number, Map<string, number>>();
  let busy = 0;
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i] ?? 0;
    // A sample stands for the time until the next one.
    const dt = profile.timeDeltas[i + 1] ?? 0;
    const chain: CallFrame[] = [];
    for (let id: number | undefined = profile.samples[i]; id !== undefined; id = parent.get(id)) {
      const node = byId.get(id);
      if (node !== undefined) chain.push(node.callFrame);
    }
    const leaf = chain[0];
    if (leaf === undefined || leaf.functionName === '(idle)') continue;
    busy += dt;
    self.set(where(leaf), (self.get(where(leaf)) ?? 0) + dt);
    for (const name of new Set(chain.map(where))) {
      inclusive.set(name, (inclusive.get(name) ?? 0) + dt);
    }
    const at = under === undefined ? -1 : chain.findIndex((f) => f.functionName === under);
    const label =
      at >= 0
        ? chain
            .slice(at, at + 5)
            .map(frameName)
            .join(' < ')
        : frameName(leaf);
    const step = Math.floor((t - zero) / STEP_US);
    const inStep = steps.get(step) ?? new Map<string, number>();
    steps.set(step, inStep);
    inStep.set(label, (inStep.get(label) ?? 0) + dt);
  }
  const timeline = [...steps]
    .sort((a, b) => a[0] - b[0])
    .map(([step, names]) => {
      const total = [...names.values()].reduce((a, b) => a + b, 0);
      const most = [...names]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 4)
        .map(([name, us]) => `${name} ${(us / 1000).toFixed(1)}`)
        .join(' | ');
      return `${String(step * 10).padStart(6)} ms  busy ${(total / 1000).toFixed(1).padStart(4)}: ${most}`;
    });
  return [
    `busy ${(busy / 1000).toFixed(1)} ms`,
    '--- self',
    top(self, 30),
    '--- inclusive',
    top(inclusive, 40),
    '--- timeline (10 ms steps)',
    ...timeline,
  ].join('\n');
}

const args = process.argv.slice(2);
const option = (name: string) => {
  const at = args.indexOf(name);
  if (at < 0) return undefined;
  const value = args[at + 1];
  args.splice(at, 2);
  return value;
};
const zeroFile = option('--zero');
const under = option('--under');
const file = args[0];
if (file === undefined) {
  process.stderr.write('usage: bench/cpu-profile.ts FILE [--zero FILE2] [--under NAME]\n');
  process.exit(2);
}
const profile = load(file);
const zero = zeroFile === undefined ? profile.startTime : load(zeroFile).startTime;
process.stdout.write(`${summarize(profile, zero, under)}\n`);
