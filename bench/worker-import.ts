import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from '../e2e/support/browser';
import { median } from './browser-env';

/*
 * Times the sync worker's start as the browser pays it, for two client builds side by side:
 *
 *   NODE_ENV=production npx vite build --config vite.config.ts --outDir /tmp/distA   (each build)
 *   node --import tsx bench/worker-import.ts /tmp/distA /tmp/distB [ROUNDS]
 *
 * Each round imports each build's worker chunk (`assets/worker-*.js`: fetched, compiled and
 * evaluated, its stores not yet opened) in a fresh module worker of a fresh browser context (no
 * code cache), the two builds in alternating order, and prints the medians. A tool for A/B
 * comparisons of what the worker does at its import (issue 31's offline reload waits for it),
 * not one of the benchmarks of `npm run bench`.
 */

const [dirA, dirB, roundsArg] = process.argv.slice(2);
if (dirA === undefined || dirB === undefined) {
  process.stderr.write('usage: worker-import.ts DIST_A DIST_B [ROUNDS]\n');
  process.exit(2);
}
const dirs: Record<string, string> = { A: dirA, B: dirB };
const rounds = Number(roundsArg ?? 10);

function workerChunk(dir: string): string {
  const found = fs.readdirSync(path.join(dir, 'assets')).find((f) => /^worker-.*\.js$/.test(f));
  if (found === undefined) throw new Error(`${dir}/assets holds no worker-*.js`);
  return found;
}
/** Each build's worker chunk, by build. */
const chunks: Record<string, string> = { A: workerChunk(dirA), B: workerChunk(dirB) };

const server = http.createServer((req, res) => {
  const [, which = '', ...rest] = (req.url ?? '/').split('/');
  if (which === 'page') {
    res.setHeader('content-type', 'text/html');
    res.end('<!doctype html><title>worker import</title>');
    return;
  }
  const root = dirs[which];
  const file = root === undefined ? '' : path.join(root, ...rest);
  if (root === undefined || !file.startsWith(root) || !fs.existsSync(file)) {
    res.statusCode = 404;
    res.end();
    return;
  }
  res.setHeader(
    'content-type',
    file.endsWith('.js') ? 'text/javascript' : 'application/octet-stream',
  );
  res.end(fs.readFileSync(file));
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const address = server.address();
if (address === null || typeof address === 'string') throw new Error('no port');
const origin = `http://127.0.0.1:${address.port}`;

const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
const times: Record<string, number[]> = { A: [], B: [] };
try {
  for (let round = 0; round < rounds; round++) {
    for (const which of round % 2 === 0 ? ['A', 'B'] : ['B', 'A']) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${origin}/page`);
      const url = `${origin}/${which}/assets/${chunks[which] ?? ''}`;
      const ms = await page.evaluate(async (chunk) => {
        const source = `const t = performance.now(); await import(${JSON.stringify(chunk)}); postMessage(performance.now() - t);`;
        const blob = new Blob([source], { type: 'text/javascript' });
        const worker = new Worker(URL.createObjectURL(blob), { type: 'module' });
        return new Promise<number>((resolve, reject) => {
          worker.onmessage = (e: MessageEvent<number>) => resolve(e.data);
          worker.onerror = (e) => reject(new Error(e.message));
        });
      }, url);
      times[which]?.push(ms);
      await context.close();
    }
  }
} finally {
  await browser.close();
  server.close();
}
for (const which of ['A', 'B']) {
  const all = times[which] ?? [];
  process.stdout.write(
    `${which} ${dirs[which]}: median ${median(all).toFixed(1)} ms (${all.map((t) => t.toFixed(0)).join(' ')})\n`,
  );
}
