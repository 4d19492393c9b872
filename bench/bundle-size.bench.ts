import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { DEMO_USERS } from '../server/src/seed/demo';
import { BUDGET_ROUTES, kb, type BudgetRoute } from '../e2e/support/bundle-budget';
import { E2e } from '../e2e/support/fixture';
import { buildClient } from '../e2e/support/web';

/** Code that must never be in the initial chunks (3D, the help-centre editor). */
const HEAVY = /WebGLRenderer|three\.module|@editorjs|EditorJS/;

interface Loaded {
  readonly page: number;
  readonly worker: number;
  readonly files: number;
  readonly heavy: readonly string[];
}

/**
 * Every JavaScript file the browser fetched for a page (its main thread and its workers), sized
 * as gzip of the built file: what a first visit downloads before the page is usable.
 */
async function measure(
  dist: string,
  page: Page,
  open: () => Promise<void>,
  ready: () => Promise<void>,
): Promise<Loaded> {
  const urls = new Set<string>();
  const workerUrls = new Set<string>();
  const onResponse = (r: { url(): string; request(): { resourceType(): string } }) => {
    if (r.url().endsWith('.js')) urls.add(new URL(r.url()).pathname);
  };
  page.on('response', onResponse);
  page.on('worker', (w) => workerUrls.add(new URL(w.url()).pathname));
  await open();
  await ready();
  page.off('response', onResponse);
  let pageBytes = 0;
  let workerBytes = 0;
  const heavy: string[] = [];
  for (const url of urls) {
    const code = await readFile(path.join(dist, url)).catch(() => undefined);
    if (code === undefined) continue;
    const size = gzipSync(code, { level: 9 }).length;
    // BUNDLE_LIST=1 lists each file with its gzip size (what grew, between two builds).
    if (process.env.BUNDLE_LIST) process.stdout.write(`  ${url} ${size}\n`);
    if (HEAVY.test(code.toString('utf8'))) heavy.push(url);
    if (workerUrls.has(url) || url.includes('worker')) workerBytes += size;
    else pageBytes += size;
  }
  return { page: pageBytes, worker: workerBytes, files: urls.size, heavy };
}

/** A route of the budget table that e2e/bundle-budget.test.ts holds too. */
function route(name: string): BudgetRoute {
  const found = BUDGET_ROUTES.find((r) => r.name === name);
  if (found === undefined) throw new Error(`no budget for ${name}`);
  return found;
}

function line(r: BudgetRoute, m: Loaded): string {
  const ratio = m.page / r.budget;
  return (
    `bundle ${r.name}: ${ratio.toFixed(2)} (page JS gzip / ${kb(r.budget)} budget, ` +
    `${ratio <= 1 ? 'within budget' : 'over budget'}) ` +
    `page ${kb(m.page)}, sync worker ${kb(m.worker)}, ${m.files} files, ` +
    `3D/editor code: ${m.heavy.length === 0 ? 'none' : m.heavy.join(', ')}`
  );
}

/**
 * Initial JavaScript of the sign-in page and of /app/devices/list, each a first visit with an
 * empty cache and no service worker, the production build (minified) served by the e2e world.
 */
export async function benchBundleSize(): Promise<string[]> {
  const dist = await buildClient();
  const e2e = await E2e.start(dist);
  try {
    const signIn = await (async () => {
      const profile = await e2e.browser({ serviceWorkers: 'block' });
      const page = await profile.context.newPage();
      return measure(
        dist,
        page,
        async () => void (await page.goto(`${e2e.web.url}${route('sign-in').path}`)),
        () => page.getByRole('button', { name: 'Sign in' }).waitFor(),
      );
    })();

    const list = await (async () => {
      const profile = await e2e.browser({ serviceWorkers: 'block' });
      const tab = await e2e.openApp(profile, '/user/login');
      await tab.signIn(DEMO_USERS.admin);
      // A new tab, its cache emptied: the list's own first load, signed in.
      const cdp = await profile.context.newCDPSession(tab.page);
      await cdp.send('Network.clearBrowserCache');
      const page = await profile.context.newPage();
      return measure(
        dist,
        page,
        async () => void (await page.goto(`${e2e.web.url}${route('devices-list').path}`)),
        () => page.locator('main').waitFor(),
      );
    })();
    return [line(route('sign-in'), signIn), line(route('devices-list'), list)];
  } finally {
    await e2e.close();
    await rm(dist, { recursive: true, force: true });
  }
}
