/**
 * `npm start`: builds the web client when it is missing or older than its sources (DESIGN.md §7),
 * then runs the server, which serves it at the origin, and the demo gateways' agents (a child
 * process, DEMO_AGENTS=off to leave them out) so that the demo machines' values flow.
 */
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = path.join(root, 'client', 'dist', 'index.html');
const SOURCES = [
  'client/src',
  'client/public',
  'client/index.html',
  'sync-worker/src',
  'shared-schema/src',
  'vite.config.ts',
  'lingui.config.ts',
  'package-lock.json',
];

async function newest(entry: string): Promise<number> {
  const stat = await fs.stat(entry).catch(() => undefined);
  if (stat === undefined) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  const names = await fs.readdir(entry);
  const times = await Promise.all(names.map((n) => newest(path.join(entry, n))));
  return Math.max(stat.mtimeMs, ...times);
}

async function clientIsCurrent(): Promise<boolean> {
  const built = await fs.stat(dist).catch(() => undefined);
  if (built === undefined) return false;
  const sources = await Promise.all(SOURCES.map((s) => newest(path.join(root, s))));
  return Math.max(...sources) <= built.mtimeMs;
}

if (process.env.CLIENT_DIR === undefined && !(await clientIsCurrent())) {
  process.stdout.write('Building the web client (vite build)...\n');
  await build({ configFile: path.join(root, 'vite.config.ts'), logLevel: 'warn' });
}
const { failedToStart, runServer } = await import('../server/src/run');
let agents: ChildProcess | undefined;
const server = await runServer(async () => {
  // The agents first, so that the server sees them leave before it stops.
  const child = agents;
  if (child === undefined || child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}).catch(failedToStart);
if (process.env.DEMO_AGENTS !== 'off') {
  agents = fork(path.join(root, 'scripts', 'demo-agents.ts'), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, DEMO_AGENTS_PORT: String(server.port) },
  });
}
