/**
 * The first step of `npm test`: what the tests need from Debian and a fresh machine lacks.
 * Debian's chromium for the browser tests (DESIGN.md §7: never a downloaded browser); Debian's
 * postgresql for the server suite on Postgres, redis-server and nginx for the cluster tests
 * (DESIGN.md §11); poppler-utils (pdftotext, pdfinfo) to read reports' PDFs and fonts-dejavu-core,
 * the font they are written in (issue 31). They are installed with apt-get
 * when the test runs as root; otherwise the run stops at once with one line naming the command.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { postgresBin } from '../server/src/testing/local-postgres';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

function say(line: string): void {
  process.stderr.write(`${line}\n`);
}

function runs(file: string): boolean {
  if (!fs.existsSync(file)) return false;
  return spawnSync(file, ['--version'], { stdio: 'ignore', timeout: 60_000 }).status === 0;
}

/** Debian package, what it is for, whether it is here. */
const needs: { pkg: string; why: string; present: () => boolean }[] = [
  { pkg: 'chromium', why: 'the browser tests', present: () => runs(chromium) },
  {
    pkg: 'postgresql',
    why: 'the server tests on Postgres',
    present: () => {
      const bin = postgresBin();
      return bin !== undefined && runs(`${bin}/postgres`);
    },
  },
  {
    pkg: 'redis-server',
    why: 'the cluster tests',
    present: () => runs('/usr/bin/redis-server'),
  },
  {
    pkg: 'nginx',
    why: "the README's load-balancer example",
    present: () => spawnSync('/usr/sbin/nginx', ['-v'], { stdio: 'ignore' }).status === 0,
  },
  {
    pkg: 'poppler-utils',
    why: "reading the reports' PDFs (pdftotext)",
    present: () => spawnSync('pdftotext', ['-v'], { stdio: 'ignore' }).status === 0,
  },
  {
    pkg: 'fonts-dejavu-core',
    why: "the reports' PDF font",
    present: () => fs.existsSync('/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf'),
  },
];

const missing = needs.filter((n) => !n.present());
if (missing.length > 0) {
  const install = `apt-get update && apt-get install -y ${missing.map((m) => m.pkg).join(' ')}`;
  const what = missing.map((m) => `${m.pkg} (${m.why})`).join(', ');
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
  const chromiumElsewhere = process.env.CHROMIUM_PATH !== undefined && !runs(chromium);
  if (chromiumElsewhere || !isRoot || !hasApt) {
    say(`The tests need Debian's ${what}: run \`${install}\` as root first.`);
    process.exit(1);
  }
  say(`Installing Debian's ${what} (${install})…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const done = spawnSync('sh', ['-c', `(${install}) >/dev/null`], { stdio: 'inherit', env });
  const still = missing.filter((m) => !m.present());
  if (done.status !== 0 || still.length > 0) {
    say(`Installing ${what} failed: run \`${install}\` as root, then \`npm test\` again.`);
    process.exit(1);
  }
}
