import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { TestServerOptions } from '../server/src/testing/harness';
import { DEMO_USERS } from '../server/src/seed/demo';
import { E2e } from '../e2e/support/fixture';
import type { BrowserProfile } from '../e2e/support/browser';
import type { SyncPage } from '../e2e/support/sync-page';
import { buildPage } from '../e2e/support/web';
import { median } from './lib';

/**
 * The in-browser benchmarks' world: the real server, the bench page (bench/browser: the e2e page
 * with the real worker, plus the benchmarks' own worker and baselines) built with minification
 * as for production, and headless Chromium tabs on it, signed in as the demo admin.
 */
export interface BrowserBench {
  readonly e2e: E2e;
  readonly session: Awaited<ReturnType<E2e['session']>>;
  /**
   * A tab in a browser with a fresh profile; the previous one is closed and its profile deleted.
   * Chromium's IndexedDB gets slower with every large database deleted in a profile (a raw Dexie
   * load of 50,000 docs went from 5.3 s to 9.1 s over five rounds), so every measurement that
   * writes much starts from a new profile.
   */
  freshTab(): Promise<SyncPage>;
  close(): Promise<void>;
}

export async function startBrowserBench(options: TestServerOptions = {}): Promise<BrowserBench> {
  const dist = await buildPage(fileURLToPath(new URL('./browser', import.meta.url)), {
    minify: true,
  });
  const e2e = await E2e.start(dist, options);
  let profile: BrowserProfile | undefined;
  try {
    const session = await e2e.session(DEMO_USERS.admin);
    return {
      e2e,
      session,
      async freshTab() {
        await profile?.close();
        profile = await e2e.browser();
        const tab = await e2e.open(profile);
        await tab.page.waitForFunction(() => 'bench' in window);
        return tab;
      },
      close: async () => {
        await e2e.close();
        await rm(dist, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await e2e.close();
    throw err;
  }
}

/** The value at fraction `q` (0..1) of the sorted values (nearest rank). */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] ?? 0;
}

export { median };

export const ms = (value: number) => `${value.toFixed(value < 10 ? 2 : 0)} ms`;

/** The machine's share of busy CPU time since the last call (from /proc/stat). */
function cpuMeter(): () => number {
  const read = () => {
    const f = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '')
      .split(/\s+/)
      .slice(1)
      .map(Number);
    const idle = (f[3] ?? 0) + (f[4] ?? 0);
    return { idle, all: f.reduce((a, b) => a + b, 0) };
  };
  let last = read();
  return () => {
    const now = read();
    const all = now.all - last.all;
    const busy = all === 0 ? 0 : 1 - (now.idle - last.idle) / all;
    last = now;
    return busy;
  };
}

/**
 * Until the machine is quiet (under a quarter busy for a second): a page is measured at rest, as
 * a user's is, not beside its own start's tail (the call bench: the first sync, about ten seconds
 * after signing in, 80 % then 30 % of these two cores, or the last call's ending; the dashboard
 * bench: the last reload's start, still running when it drew).
 */
export async function settled(): Promise<void> {
  const busy = cpuMeter();
  let quiet = 0;
  for (let tries = 0; tries < 120 && quiet < 2; tries++) {
    await new Promise((r) => setTimeout(r, 500));
    quiet = busy() < 0.25 ? quiet + 1 : 0;
  }
}
