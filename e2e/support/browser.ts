import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type CDPSession,
  type Page,
} from 'playwright-core';
import { watchContentSecurity } from './csp';
import { Parking } from './parking';
import { witnessPages } from './witness';

/**
 * The folder for browser profiles, when the e2e global setup made one for the run (it deletes it
 * at the run's end, with the profiles of browsers that outlived their file); else the temp folder.
 */
export const PROFILES_ENV = 'PLANT_E2E_PROFILES';
const profilesDir = () => process.env[PROFILES_ENV] ?? os.tmpdir();

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
   * The app's service worker: 'block' by default in a warm browser (it registers nothing: its
   * precache of the whole app, 5 MB, was a sixth of a test's CPU); 'allow' makes the profile a new
   * context of the file's shared browser; a browser of its own has it (push needs it).
   */
  readonly serviceWorkers?: 'allow' | 'block';
  /** More Chromium flags (a fake camera: `--use-file-for-fake-video-capture=…`): its own browser. */
  readonly args?: readonly string[];
  /**
   * A browser of its own with a new profile on disk rather than a warm one: the install offer
   * (`beforeinstallprompt`), the notification permission prompt and push subscriptions need a
   * profile no test used before (and Chromium keeps them from incognito-like contexts).
   */
  readonly persistent?: boolean;
  /** false: a page as a visitor without JavaScript sees it (the public pages): its own context. */
  readonly javaScript?: boolean;
  /** The browser's language (Accept-Language, navigator.language), e.g. 'de-DE': its own context. */
  readonly locale?: string;
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
  const dir = await fs.mkdtemp(path.join(profilesDir(), 'plant-chromium-'));
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
 * A Chromium with a profile on disk that tests take in turn (issue 29): handed back, it is wiped
 * (its pages closed, every origin's storage, cookies, permissions and routes cleared) but keeps
 * its HTTP cache, and with it V8's code cache of the app's scripts. The sign-in screen's load took
 * 1.6 s of Chromium's CPU in it against 2.7 s in a new incognito context, which compiles the
 * whole app again (Chromium keeps no code cache for those); a sign-in that lands on the devices
 * list 3.1 s (0.2 s of it the wipe) against 3.7 s. The storage a test can see is as empty as a
 * new profile's (browser-profiles.test.ts). Launching one costs about 1.3 s more than a context.
 */
class WarmChromium {
  /** The origins its pages went to: the ones whose storage `wipe` clears. */
  private readonly origins = new Set<string>();

  private constructor(
    readonly context: BrowserContext,
    private readonly dir: string,
    /** A blank tab that stays: the CDP session's, and the context never loses its last page. */
    private readonly keeper: Page,
    private readonly cdp: CDPSession,
  ) {
    const note = (url: string) => {
      if (/^https?:/.test(url)) this.origins.add(new URL(url).origin);
    };
    context.on('page', (page) => page.on('framenavigated', (frame) => note(frame.url())));
  }

  static async launch(): Promise<WarmChromium> {
    const dir = await fs.mkdtemp(path.join(profilesDir(), 'plant-chromium-'));
    const context = await prepared(
      await chromium.launchPersistentContext(dir, {
        executablePath: CHROMIUM,
        headless: true,
        args: CHROMIUM_ARGS,
        serviceWorkers: 'block',
      }),
    );
    const keeper = context.pages()[0] ?? (await context.newPage());
    return new WarmChromium(context, dir, keeper, await context.newCDPSession(keeper));
  }

  /** Back to an empty profile; throws when any part of that failed (the browser is not reused). */
  async wipe(): Promise<void> {
    const pages = this.context.pages().filter((p) => p !== this.keeper);
    await Promise.all(pages.map((p) => p.close()));
    await this.context.unrouteAll({ behavior: 'wait' });
    await this.context.clearCookies();
    await this.context.clearPermissions();
    // Every kind of storage a page can read back; not the HTTP cache, which holds nothing a test
    // could tell from a new profile's (the served files are the same for the whole run).
    for (const origin of this.origins) {
      await this.cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' });
    }
    this.origins.clear();
  }

  async close(): Promise<void> {
    await this.context.close().catch(() => undefined);
    await fs.rm(this.dir, { recursive: true, force: true });
  }
}

/**
 * Warm browsers the worker's earlier files handed back, wiped (issue 29, parking.ts): the next
 * file takes them instead of launching its own (about 0.9 s of CPU a launch), and since it serves
 * the same page from the same origin (web.ts), its first sign-in finds the app in V8's code cache.
 * When vitest ends the worker (SIGTERM), Playwright closes them, and the global setup's teardown
 * deletes their profiles (`PROFILES_ENV`).
 */
const parkedWarm = new Parking<WarmChromium>(3);

/**
 * The Chromium of a test file's profiles. A default profile is a warm browser (above) no other
 * test holds, launched when none is free; a profile with the service worker is a new context of
 * one shared browser (the worker's precache would otherwise stay in the HTTP cache).
 */
export class SharedChromium {
  private browser: Promise<Browser> | undefined;
  private readonly warm: WarmChromium[] = [];
  private readonly free: WarmChromium[] = [];

  async profile(options: ProfileOptions = {}): Promise<BrowserProfile> {
    if (
      options.serviceWorkers === 'allow' ||
      options.javaScript === false ||
      options.locale !== undefined
    )
      return this.ownContext(options);
    let warm = this.free.pop();
    if (warm === undefined) {
      warm = parkedWarm.take() ?? (await WarmChromium.launch());
      this.warm.push(warm);
    }
    const taken = warm;
    let closing: Promise<void> | undefined;
    return {
      context: taken.context,
      close: () =>
        (closing ??= taken.wipe().then(
          () => void this.free.push(taken),
          async () => {
            this.warm.splice(this.warm.indexOf(taken), 1);
            await taken.close();
          },
        )),
    };
  }

  /** A new context of the shared browser: with the service worker, without JavaScript, a locale. */
  private async ownContext(options: ProfileOptions): Promise<BrowserProfile> {
    this.browser ??= chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
    });
    const browser = await this.browser;
    const context = await prepared(
      await browser.newContext({
        serviceWorkers: options.serviceWorkers ?? 'allow',
        ...(options.javaScript === false ? { javaScriptEnabled: false } : {}),
        ...(options.locale === undefined ? {} : { locale: options.locale }),
      }),
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
    const warm = this.warm.splice(0);
    const wiped = new Set(this.free.splice(0));
    // Wiped ones go on to the worker's next file; one still held (a profile not closed) closes.
    await Promise.all(warm.map((w) => (wiped.has(w) ? parkedWarm.park(w) : w.close())));
    if (browser !== undefined) await (await browser).close();
  }
}

/**
 * The profiles opened while a test runs (test-checks.ts begins and ends the scope around each
 * test): they close when it ends, after a failure's report of what their pages showed, so a warm
 * browser goes back to the file's pool for the next test. Profiles opened in a `beforeAll` are
 * outside any test and stay until the file's end.
 */
let testProfiles: BrowserProfile[] | undefined;

export const testScope = {
  begin(): void {
    testProfiles = [];
  },
  /** `profile` closes when the running test ends (nothing happens outside a test). */
  add(profile: BrowserProfile): void {
    testProfiles?.push(profile);
  },
  async end(): Promise<void> {
    const profiles = testProfiles ?? [];
    testProfiles = undefined;
    for (const profile of profiles) await profile.close().catch(() => undefined);
  },
};

/** A profile of `shared`, or a browser of its own where the options need one (above). */
export function newProfile(shared: SharedChromium, options: ProfileOptions = {}) {
  const own = options.persistent === true || (options.args?.length ?? 0) > 0;
  return own ? launchProfile(options) : shared.profile(options);
}
