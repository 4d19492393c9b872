import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
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

export interface ProfileOptions {
  /**
   * The app's service worker: 'block' by default in a context of the shared browser (it
   * registers nothing), 'allow' by default in a browser of its own (push needs it).
   */
  readonly serviceWorkers?: 'allow' | 'block';
  /** More Chromium flags (a fake camera: `--use-file-for-fake-video-capture=…`): its own browser. */
  readonly args?: readonly string[];
  /**
   * A browser of its own with a profile on disk rather than a context of the file's shared
   * browser. Chromium keeps a few things from its incognito-like contexts: the install offer
   * (`beforeinstallprompt`), the notification permission prompt and push subscriptions.
   */
  readonly persistent?: boolean;
}

/** The same for every profile, from either kind: time-outs, the CSP watch, the witness. */
async function prepared(context: BrowserContext): Promise<BrowserContext> {
  context.setDefaultTimeout(60_000);
  // Pages run under the app's CSP (web.ts): what they refuse fails the test (test-checks.ts).
  await watchContentSecurity(context);
  // A failing test reports what its pages showed (test-checks.ts).
  witnessPages(context);
  return context;
}

/**
 * A browser with a fresh profile on disk (its own IndexedDB, Web Locks and localStorage): every
 * page opened in it is a tab of the same browser.
 */
export async function launchProfile(options: ProfileOptions = {}): Promise<BrowserProfile> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'plant-chromium-'));
  const context = await prepared(
    await chromium.launchPersistentContext(dir, {
      executablePath: CHROMIUM,
      headless: true,
      args: [...CHROMIUM_ARGS, ...(options.args ?? [])],
      serviceWorkers: options.serviceWorkers ?? 'allow',
    }),
  );
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

/**
 * One Chromium for the profiles of a test file (issue 29): a profile is a new context of it, as
 * isolated as a new browser (its own storage, service workers, Web Locks, cookies), for a tenth of
 * a launch's time. Launched when first asked for.
 */
export class SharedChromium {
  private browser: Promise<Browser> | undefined;

  async profile(options: ProfileOptions = {}): Promise<BrowserProfile> {
    this.browser ??= chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
    });
    const browser = await this.browser;
    // Without the service worker unless asked for: its precache (the whole app, 5 MB) is a
    // sixth of a test's CPU, and only the tests of the offline shell and its policy use it.
    const context = await prepared(
      await browser.newContext({ serviceWorkers: options.serviceWorkers ?? 'block' }),
    );
    let closing: Promise<void> | undefined;
    return {
      context,
      close() {
        closing ??= context.close();
        return closing;
      },
    };
  }

  async close(): Promise<void> {
    const browser = this.browser;
    this.browser = undefined;
    if (browser !== undefined) await (await browser).close();
  }
}

/** A profile of `shared`, or a browser of its own where the options need one (above). */
export function newProfile(shared: SharedChromium, options: ProfileOptions = {}) {
  const own = options.persistent === true || (options.args?.length ?? 0) > 0;
  return own ? launchProfile(options) : shared.profile(options);
}
