/**
 * The first step of `npm test`: what the browser tests need and a fresh machine lacks. Debian's
 * chromium (DESIGN.md §7: never a downloaded browser) is installed with apt-get when the test
 * runs as root; otherwise the run stops at once with one line naming the command to run.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const INSTALL = 'apt-get update && apt-get install -y chromium';

function say(line: string): void {
  process.stderr.write(`${line}\n`);
}

function runs(file: string): boolean {
  if (!fs.existsSync(file)) return false;
  return spawnSync(file, ['--version'], { stdio: 'ignore', timeout: 60_000 }).status === 0;
}

if (!runs(chromium)) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
  if (process.env.CHROMIUM_PATH !== undefined || !isRoot || !hasApt) {
    say(
      `The browser tests need Debian's chromium at ${chromium}: run \`${INSTALL}\` as root first.`,
    );
    process.exit(1);
  }
  say(`Installing Debian's chromium for the browser tests (${INSTALL})…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = spawnSync('sh', ['-c', `(${INSTALL}) >/dev/null`], { stdio: 'inherit', env });
  if (install.status !== 0 || !runs(chromium)) {
    say(`Installing chromium failed: run \`${INSTALL}\` as root, then \`npm test\` again.`);
    process.exit(1);
  }
}
