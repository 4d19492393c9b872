/**
 * The gateway agent's launcher (DESIGN.md §15, issue 35 item 4): what the box runs, and what no
 * rollout replaces. `node launcher.mjs [--agent <file>] [--health-ms N] <the agent's flags>` runs
 * the agent version installed last (`versions/state.json` in its data folder; none: the agent it
 * was installed with, `--agent`) as a child with the same flags. The child exits with
 * RESTART_CODE after installing a version: the launcher starts that one, on trial. A version on
 * trial that stops, or is not healthy within `--health-ms` (it ends its trial itself once the
 * broker is reached and its connections read), is rolled back: the previous version runs again
 * and reports `rolled_back` with why. A healthy version that stops is started again after a pause.
 * SIGTERM or SIGINT goes to the child; the launcher ends with it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { AgentConfigError, parseAgentConfig } from './config';
import { createLogger } from './logger';
import {
  readInstallState,
  RESTART_CODE,
  writeInstallState,
  type InstallState,
} from './update/install-state';

const { values, tokens } = parseArgs({
  args: process.argv.slice(2),
  options: {
    agent: { type: 'string' },
    'health-ms': { type: 'string' },
  },
  strict: false,
  tokens: true,
});
// The agent's own flags: everything but the launcher's two (and their values).
const mine = new Set<number>();
for (const token of tokens) {
  if (token.kind !== 'option' || (token.name !== 'agent' && token.name !== 'health-ms')) continue;
  mine.add(token.index);
  if (token.inlineValue === false) mine.add(token.index + 1);
}
const agentArgs = process.argv.slice(2).filter((_, i) => !mine.has(i));

let dataDir: string;
let logLevel;
try {
  const config = parseAgentConfig(agentArgs);
  dataDir = config.dataDir;
  logLevel = config.logLevel;
} catch (err) {
  process.stderr.write(`${err instanceof AgentConfigError ? err.message : String(err)}\n`);
  process.exit(1);
}
const log = createLogger(logLevel, { launcher: true });
/** The agent it was installed with: `--agent`, else main.ts beside it (main.mjs in a build). */
const builtIn =
  typeof values.agent === 'string'
    ? values.agent
    : (['./main.ts', './main.mjs']
        .map((name) => fileURLToPath(new URL(name, import.meta.url)))
        .find((file) => fs.existsSync(file)) ??
      fileURLToPath(new URL('./main.mjs', import.meta.url)));
const healthMs = Number(values['health-ms'] ?? 120_000);

let child: ChildProcess | undefined;
let stopping: NodeJS.Signals | undefined;
for (const signal of ['SIGTERM', 'SIGINT'] as const)
  process.on(signal, () => {
    stopping = signal;
    if (child === undefined || child.exitCode !== null) process.exit(0);
    child.kill(signal);
  });

/** What to start: the version installed last, if its file is there; else the built-in one. */
function entryOf(state: InstallState): string {
  const entry = state.current?.entry ?? '';
  return entry !== '' && fs.existsSync(entry) ? entry : builtIn;
}

function run(entry: string): Promise<number | null> {
  return new Promise((resolve) => {
    // With the launcher's own Node flags (`--import tsx` under npm run gateway:launched).
    const started = spawn(process.execPath, [...process.execArgv, entry, ...agentArgs], {
      stdio: 'inherit',
    });
    child = started;
    started.once('exit', (code, signal) => resolve(code ?? (signal === null ? null : 128)));
  });
}

/** The version on trial failed: the previous one runs again and says why. */
function rollBack(state: InstallState, why: string): void {
  const trial = state.trial;
  if (trial === null) return;
  log.warn('rolling back', { version: trial.version, why });
  writeInstallState(dataDir, {
    ...state,
    current: state.previous?.entry ? state.previous : null,
    previous: null,
    trial: null,
    outcome: { deployment_id: trial.deployment_id, state: 'rolled_back', message: why },
    failed: [...state.failed.slice(-99), trial.deployment_id],
  });
}

let pause = 1_000;
for (;;) {
  const state = readInstallState(dataDir);
  const entry = entryOf(state);
  const onTrial = state.trial !== null && state.current?.version === state.trial.version;
  log.info('starting the agent', { entry, trial: onTrial });
  let unhealthy = false;
  const running = run(entry);
  // This start's process: a late kill never reaches the next one.
  const started = child;
  const timer = onTrial
    ? setTimeout(() => {
        if (readInstallState(dataDir).trial === null) return;
        unhealthy = true;
        started?.kill('SIGTERM');
        setTimeout(() => {
          if (started?.exitCode === null && started.signalCode === null) started.kill('SIGKILL');
        }, 10_000).unref();
      }, healthMs)
    : undefined;
  const code = await running;
  clearTimeout(timer);
  if (stopping !== undefined) process.exit(code ?? 0);
  if (code === RESTART_CODE) {
    pause = 1_000;
    continue;
  }
  const after = readInstallState(dataDir);
  if (after.trial !== null && onTrial) {
    rollBack(
      after,
      unhealthy
        ? `Version ${after.trial.version} was not healthy within ${Math.round(healthMs / 1000)} s.`
        : `Version ${after.trial.version} stopped (exit code ${String(code)}) before it was healthy.`,
    );
    continue;
  }
  log.warn('the agent stopped; starting it again', { code, in_ms: pause });
  await new Promise((r) => setTimeout(r, pause));
  pause = Math.min(pause * 2, 30_000);
}
