import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { watchContentSecurity } from './csp';
import { witnessPages } from './witness';

/** Debian's chromium (`apt-get install -y chromium`); Playwright never downloads a browser here. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Flags for a closed network: without the background-networking ones Chromium keeps trying to
 * reach Google's hosts, many connections at a time, and each is refused.
 */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface BrowserProfile {
  readonly context: BrowserContext;
  /** Closes the browser and deletes its profile (once, however often called). */
  close(): Promise<void>;
}

/**
 * A browser with a fresh profile on disk (its own IndexedDB, Web Locks and localStorage): every
 * page opened in it is a tab of the same browser.
 */
export async function launchProfile(
  options: {
    readonly serviceWorkers?: 'allow' | 'block';
    /** More Chromium flags (a fake camera: `--use-file-for-fake-video-capture=…`). */
    readonly args?: readonly string[];
  } = {},
): Promise<BrowserProfile> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'plant-chromium-'));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM,
    headless: true,
    args: [...CHROMIUM_ARGS, ...(options.args ?? [])],
    serviceWorkers: options.serviceWorkers ?? 'allow',
  });
  context.setDefaultTimeout(60_000);
  // Pages run under the app's CSP (web.ts): what they refuse fails the test (test-checks.ts).
  await watchContentSecurity(context);
  // A failing test reports what its pages showed (test-checks.ts).
  witnessPages(context);
  let closing: Promise<void> | undefined;
  return {
    context,
    close() {
      closing ??= (async () => {
        await context.close();
        await fs.rm(dir, { recursive: true, force: true });
      })();
      return closing;
    },
  };
}
