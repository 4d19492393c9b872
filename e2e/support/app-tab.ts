import type { BrowserContext, Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../../server/src/seed/demo';

/**
 * The page model of one tab of the real client (the built app, see global-setup.ts). Area page
 * models (e2e/support/pages/) take its `page`. English texts are the contract here: a test that
 * needs another language sets it on purpose.
 */
export class AppTab {
  /** What the page and its worker wrote to the console. */
  readonly console: string[] = [];

  private constructor(
    readonly page: Page,
    readonly baseUrl: string,
  ) {
    page.on('console', (m) => this.console.push(`${m.type()}: ${m.text()}`));
    page.on('pageerror', (e) => this.console.push(`pageerror: ${e.message}`));
  }

  /** A new tab of `context` at `path` (default: the start page). */
  static async open(context: BrowserContext, baseUrl: string, path = '/'): Promise<AppTab> {
    const tab = new AppTab(await context.newPage(), baseUrl);
    await tab.goto(path);
    return tab;
  }

  /** A new tab of `context` in which `email` signed in and landed on `path` (`signInTo`). */
  static async signedIn(
    context: BrowserContext,
    baseUrl: string,
    email: string,
    path: string,
  ): Promise<AppTab> {
    const tab = new AppTab(await context.newPage(), baseUrl);
    await tab.signInTo(email, path);
    return tab;
  }

  async goto(path: string): Promise<void> {
    await this.page.goto(new URL(path, this.baseUrl).toString());
  }

  /**
   * Moves to `path` inside the running app, without a page load (as the browser's back and
   * forward do): the app's frame stays mounted while the router loads the new screen.
   */
  async navigateInApp(path: string): Promise<void> {
    await this.page.evaluate((to) => {
      history.pushState(history.state, '', to);
      dispatchEvent(new PopStateEvent('popstate', { state: history.state as unknown }));
    }, path);
  }

  /** The path (and search) the app shows now. */
  path(): string {
    const url = new URL(this.page.url());
    return url.pathname + url.search;
  }

  /**
   * Waits until the app's path matches: as long as the other waits (60 s), since a path often
   * follows a whole page load, which took over 30 s once on a machine busy with a full run.
   */
  async waitForPath(pattern: RegExp, timeout = 60_000): Promise<void> {
    await this.page.waitForURL((url) => pattern.test(url.pathname + url.search), { timeout });
  }

  /** Signs in through the sign-in screen (it must be showing) and waits to be in the app. */
  async signIn(email: string, password = DEMO_PASSWORD): Promise<void> {
    await this.fillSignIn(email, password);
    await this.waitForPath(/^\/app\//);
  }

  /** Fills and sends the sign-in form without waiting for the outcome. */
  async fillSignIn(email: string, password = DEMO_PASSWORD): Promise<void> {
    const page = this.page;
    await page.getByLabel('Email', { exact: false }).first().fill(email);
    await page.getByLabel('Password', { exact: false }).first().fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  /** Opens the sign-in screen (unless it shows already: a signed-out start page) and signs in. */
  async signInAt(email: string, password = DEMO_PASSWORD): Promise<void> {
    if (new URL(this.page.url()).pathname !== '/user/login') await this.goto('/user/login');
    await this.signIn(email, password);
  }

  /**
   * Signs in from the sign-in screen that a link to `path` leads to (`/user/login?redirect=`),
   * and lands on `path` as the user would, without loading the page again. Where the app sends
   * the user elsewhere (the path needs a permission, say), the path is opened after all.
   */
  async signInTo(email: string, path: string, password = DEMO_PASSWORD): Promise<void> {
    const target = new URL(path, this.baseUrl);
    await this.goto(
      `/user/login?${new URLSearchParams({ redirect: target.pathname + target.search })}`,
    );
    await this.signIn(email, password);
    const at = new URL(this.page.url());
    if (at.pathname + at.search !== target.pathname + target.search) await this.goto(path);
  }

  reload(): Promise<unknown> {
    return this.page.reload();
  }

  close(): Promise<void> {
    return this.page.close();
  }
}
