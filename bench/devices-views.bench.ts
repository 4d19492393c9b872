import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { DEMO_USERS } from '../server/src/seed/demo';
import { seedAssets } from '../server/src/testing/seed-assets';
import type { BrowserProfile } from '../e2e/support/browser';
import { E2e } from '../e2e/support/fixture';
import { buildClient } from '../e2e/support/web';
import { median, ms } from './browser-env';

/*
 * Issue 16's asset overview: the panel view's first paint with 10,000 assets against 100 (and
 * against the table view at 10,000), each a new tab of a browser whose store holds the account
 * (a returning user opening the list), the production build; and the JavaScript the panel and
 * the map cost (gzip), against the initial-JS budget of issue 5.
 */

const LARGE = Number(process.env.BENCH_VIEWS_LARGE ?? 10_000);
const SMALL = 100;
/** Rounds per configuration, alternating; the first WARM_UP are not counted. */
const ROUNDS = 12;
const WARM_UP = 2;
const BUDGET_BYTES = 300 * 1024;

/*
 * Installed before the app's code in every new tab: when the first card (or row) is in the DOM,
 * the next frame's time is its first paint, from the navigation's start (performance.now()).
 * A string: page code from tsx would carry esbuild's `__name` helper, which the page lacks.
 */
const FIRST_PAINT = `(() => {
  const seen = (selector) => new Promise((resolve) => {
    const look = () => {
      const el = document.querySelector(selector);
      if (el === null) return false;
      observer.disconnect();
      requestAnimationFrame(() => resolve({ at: performance.now(), total: el.getAttribute('aria-setsize') ?? el.closest('table')?.getAttribute('aria-rowcount') }));
      return true;
    };
    const observer = new MutationObserver(look);
    document.addEventListener('DOMContentLoaded', () => {
      if (!look()) observer.observe(document.body, { childList: true, subtree: true });
    });
  });
  window.__firstCard = seen('[data-testid="device-card"]');
  window.__firstRow = seen('[data-testid="device-row"]');
})()`;

type View = 'panel' | 'table';

interface Loaded {
  readonly profile: BrowserProfile;
  readonly total: number;
  /** A tab of the origin without the app (its JSON /staticconf): sets the stored view. */
  readonly control: Page;
}

/** A browser signed in as `email`, whose store holds the whole account (the list counted it). */
async function loadedProfile(e2e: E2e, email: string, total: number): Promise<Loaded> {
  const profile = await e2e.browser({ serviceWorkers: 'block' });
  await profile.context.addInitScript(FIRST_PAINT);
  const tab = await e2e.openApp(profile, '/user/login');
  await tab.signIn(email);
  await tab.page.evaluate(() => localStorage.setItem('devicesView', 'panel'));
  await tab.goto('/app/devices/list');
  // Every card says of how many: the store is loaded once the count is the account's.
  await tab.page
    .locator(`[data-testid="device-card"][aria-setsize="${total}"]`)
    .first()
    .waitFor({ timeout: 300_000 });
  await tab.page.locator('[data-testid="bootstrap-progress"]').waitFor({ state: 'detached' });
  await tab.close();
  const control = await profile.context.newPage();
  await control.goto(`${e2e.web.url}/staticconf`);
  return { profile, total, control };
}

/** One first paint: a new tab of the loaded profile opens the list in `view`. */
async function firstPaint(e2e: E2e, loaded: Loaded, view: View): Promise<number> {
  await loaded.control.evaluate((v) => localStorage.setItem('devicesView', v), view);
  const page = await loaded.profile.context.newPage();
  try {
    await page.goto(`${e2e.web.url}/app/devices/list`);
    const seen = await page.evaluate<{ at: number; total: string | null }>(
      view === 'panel' ? 'window.__firstCard' : 'window.__firstRow',
    );
    // The first rows come from the index before the total is counted (the count follows).
    if (seen.total === null) throw new Error(`${view}: the first paint had no list`);
    return seen.at;
  } finally {
    await page.close();
  }
}

/** Every JavaScript file a page fetched while `open` ran, as gzip of the built file. */
async function jsBytes(dist: string, page: Page, open: () => Promise<void>): Promise<number> {
  const urls = new Set<string>();
  const workers = new Set<string>();
  const onResponse = (r: { url(): string }) => {
    if (r.url().endsWith('.js')) urls.add(new URL(r.url()).pathname);
  };
  page.on('response', onResponse);
  page.on('worker', (w) => workers.add(new URL(w.url()).pathname));
  await open();
  page.off('response', onResponse);
  let bytes = 0;
  for (const url of urls) {
    // The sync worker is not the page's (the bundle bench counts it apart).
    if (workers.has(url) || url.includes('worker')) continue;
    const code = await readFile(path.join(dist, url)).catch(() => undefined);
    if (code !== undefined) bytes += gzipSync(code, { level: 9 }).length;
  }
  return bytes;
}

/** The built chunk named like `prefix` or holding `marker`, gzip (0 when there is none). */
async function chunkBytes(
  dist: string,
  find: { readonly prefix?: string; readonly marker?: RegExp },
): Promise<{ name: string; bytes: number }> {
  const dir = path.join(dist, 'assets');
  for (const name of await readdir(dir)) {
    if (!name.endsWith('.js')) continue;
    const code = await readFile(path.join(dir, name));
    const named = find.prefix !== undefined && name.startsWith(find.prefix);
    if (named || (find.marker?.test(code.toString('utf8')) ?? false)) {
      return { name, bytes: gzipSync(code, { level: 9 }).length };
    }
  }
  return { name: 'none', bytes: 0 };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export async function benchDevicesViews(): Promise<string[]> {
  const dist = await buildClient();
  const e2e = await E2e.start(dist);
  try {
    const admin = await e2e.session(DEMO_USERS.admin);
    const south = await e2e.session(DEMO_USERS.south);
    const have = async (accountId: string) => (await e2e.serverModels(accountId, 'asset')).length;
    await seedAssets(e2e.server, admin.accountId, LARGE - (await have(admin.accountId)));
    await seedAssets(e2e.server, south.accountId, SMALL - (await have(south.accountId)));
    const large = await loadedProfile(e2e, DEMO_USERS.admin, LARGE);
    const small = await loadedProfile(e2e, DEMO_USERS.south, SMALL);

    // Alternating configurations, so that a slower stretch of the machine hits each alike.
    const configs = [
      { name: 'panel-large', loaded: large, view: 'panel' as const },
      { name: 'panel-small', loaded: small, view: 'panel' as const },
      { name: 'table-large', loaded: large, view: 'table' as const },
    ];
    const times = new Map<string, number[]>(configs.map((c) => [c.name, []]));
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? configs : [...configs].reverse();
      for (const c of order) {
        const t = await firstPaint(e2e, c.loaded, c.view);
        if (round >= WARM_UP) times.get(c.name)?.push(t);
      }
    }
    const med = (name: string) => median(times.get(name) ?? []);
    const panelLarge = med('panel-large');
    const panelSmall = med('panel-small');
    const tableLarge = med('table-large');

    // The JavaScript: the panel view's first visit (empty cache), the list page's chunk (table
    // and panel), the map's chunk and its MapLibre worker (loaded only when the map is chosen).
    const cold = await e2e.browser({ serviceWorkers: 'block' });
    const tab = await e2e.openApp(cold, '/user/login');
    await tab.signIn(DEMO_USERS.south);
    await tab.page.evaluate(() => localStorage.setItem('devicesView', 'panel'));
    const cdp = await cold.context.newCDPSession(tab.page);
    await cdp.send('Network.clearBrowserCache');
    const page = await cold.context.newPage();
    const panelJs = await jsBytes(dist, page, async () => {
      await page.goto(`${e2e.web.url}/app/devices/list`);
      await page.locator('[data-testid="device-card"]').first().waitFor();
    });
    // The list page's chunk holds the panel; the map's is its own, beside MapLibre's worker.
    const listChunk = await chunkBytes(dist, { marker: /device-card-photo/ });
    const mapChunk = await chunkBytes(dist, { marker: /assets-anchor/ });
    const mapWorker = await chunkBytes(dist, { prefix: 'maplibre-gl-worker' });

    const n = (times.get('panel-large') ?? []).length;
    return [
      `devices-views panel first paint: ${(panelLarge / panelSmall).toFixed(2)} ` +
        `(${LARGE}/${SMALL} assets) first card painted ${ms(panelLarge)} after the navigation ` +
        `with ${LARGE} assets, ${ms(panelSmall)} with ${SMALL} (medians of ${n}, a new tab of a ` +
        `loaded store each, alternating)`,
      `devices-views panel vs table: ${(panelLarge / tableLarge).toFixed(2)} (panel/table at ` +
        `${LARGE}) first card ${ms(panelLarge)}, first row ${ms(tableLarge)}`,
      `devices-views JS: ${(panelJs / BUDGET_BYTES).toFixed(2)} (panel view's page JS gzip / ` +
        `300 KB budget) ${kb(panelJs)} on a first visit; the list page's chunk (table and ` +
        `panel) ${kb(listChunk.bytes)}; the map's chunk ${kb(mapChunk.bytes)} and MapLibre's ` +
        `worker ${kb(mapWorker.bytes)}, fetched only when the map is chosen`,
    ];
  } finally {
    await e2e.close();
    await rm(dist, { recursive: true, force: true });
  }
}
