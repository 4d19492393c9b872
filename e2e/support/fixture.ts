import { apiPaths, type ModelUpdate } from '@plant/shared-schema';
import {
  dataOf,
  startTestServer,
  type TestServer,
  type TestServerOptions,
} from '../../server/src/testing/harness';
import { startTcpProxy, type TcpProxy } from '../../sync-worker/src/testing/tcp-proxy';
import type { TestSession } from '../page/contract';
import {
  newProfile,
  SharedChromium,
  testScope,
  type BrowserProfile,
  type ProfileOptions,
} from './browser';
import { AppTab } from './app-tab';
import { SyncPage } from './sync-page';
import { serveWithApi, type WebServer } from './web';

/**
 * One e2e world: the real server (temp SQLite, real broker) behind a TCP fault proxy, a built
 * page (global-setup.ts builds the e2e test page once per run) served on its own port with
 * `/api`, `/staticconf` and `/mqtt` proxied through the fault proxy, and Chromium profiles.
 *
 * ```
 *   chromium tab ──► preview server (page + proxy) ──► TCP fault proxy ──► test server
 *        └ sync worker ─┘    one origin                   offline()/online()
 * ```
 */
export class E2e {
  private readonly profiles: BrowserProfile[] = [];
  private readonly chromium = new SharedChromium();
  /** `signedInTab`'s browser and last tab per user. */
  private readonly signedIn = new Map<string, { readonly profile: BrowserProfile; tab: AppTab }>();

  private constructor(
    readonly server: TestServer,
    readonly net: TcpProxy,
    readonly web: WebServer,
  ) {}

  /** `page`: the built page to serve (tests: `inject('e2ePage')`, from global-setup.ts). */
  static async start(page: string, options: TestServerOptions = {}): Promise<E2e> {
    const server = await startTestServer(options);
    const port = Number(new URL(server.url).port);
    const net = await startTcpProxy({ host: '127.0.0.1', port });
    // The page's CSP names the server's map tiles, as the server's own pages would.
    const web = await serveWithApi(page, net.url(), options.env?.MAP_TILES_URL);
    return new E2e(server, net, web);
  }

  /** Signs a demo user in through the API (as the client's sign-in does) for a page to start. */
  async session(email: string): Promise<TestSession & { readonly email: string }> {
    const token = await this.server.signIn(email);
    const user = dataOf<{ id: string; account: string }>(
      await this.server.call('GET', apiPaths.user(), { token }),
    );
    return { email, token, userId: user.id, accountId: user.account };
  }

  /**
   * A new browser with an empty profile: a context of the file's one Chromium, without the
   * app's service worker unless `serviceWorkers: 'allow'`, or a browser of its own (`persistent`,
   * `args`), with it.
   */
  async browser(options: ProfileOptions = {}): Promise<BrowserProfile> {
    const profile = await this.fileBrowser(options);
    // Closed when the test that opened it ends (browser.ts): the next test may take it wiped.
    testScope.add(profile);
    return profile;
  }

  /** A profile that stays until the file's end (`signedInTab`'s, one per user and file). */
  private async fileBrowser(options: ProfileOptions = {}): Promise<BrowserProfile> {
    const profile = await newProfile(this.chromium, options);
    this.profiles.push(profile);
    return profile;
  }

  /** A new tab of `profile` on the test page. */
  open(profile: BrowserProfile): Promise<SyncPage> {
    return SyncPage.open(profile.context, this.web.url);
  }

  /** A new tab of `profile` on the served client (start E2e with `inject('clientDist')`). */
  openApp(profile: BrowserProfile, path = '/'): Promise<AppTab> {
    return AppTab.open(profile.context, this.web.url, path);
  }

  /**
   * A tab in which `email` has signed in through the screen and landed on `path` (a new browser,
   * or `profile`): the sign-in screen of a link to `path`, as a bookmark leads a signed-out user.
   */
  async signedInApp(email: string, path: string, profile?: BrowserProfile): Promise<AppTab> {
    return AppTab.signedIn((profile ?? (await this.browser())).context, this.web.url, email, path);
  }

  /**
   * A tab on `path` in the file's one browser for `email`: the first call signs in
   * (`signedInApp`), later ones open a new tab of that browser, as the user comes back to the
   * app the next day, its local data there (no sign-in, no load of the account). The tab of the
   * call before is closed. For tests that leave nothing behind in the browser that a later test
   * of the same user depends on (no unsent changes, no sign-out; a stored view choice only where
   * the next test chooses its own).
   */
  async signedInTab(email: string, path: string): Promise<AppTab> {
    const known = this.signedIn.get(email);
    if (known !== undefined) {
      await known.tab.close().catch(() => undefined);
      known.tab = await this.openApp(known.profile, path);
      return known.tab;
    }
    const profile = await this.fileBrowser();
    const tab = await this.signedInApp(email, path, profile);
    this.signedIn.set(email, { profile, tab });
    return tab;
  }

  /**
   * The server becomes unreachable for the browser: new connections are reset at once and open
   * ones (keep-alive, the broker's WebSocket) are cut. The page itself stays served, as an app
   * shell from a service worker would be.
   */
  offline(): void {
    this.net.refuse(true);
    this.net.resetAll();
  }

  online(): void {
    this.net.refuse(false);
  }

  /** The server's rows of one type in an account (the database, not an API answer). */
  async serverModels(accountId: string, type: string) {
    const rows = await this.server.db
      .selectFrom('models')
      .select(['id', 'attributes'])
      .where('account_id', '=', accountId)
      .where('type', '=', type)
      .execute();
    return rows.map((r) => ({
      id: r.id,
      attributes: JSON.parse(r.attributes) as Record<string, unknown>,
    }));
  }

  /** The account's change log, oldest first (the messages the broker sent). */
  async serverLog(accountId: string): Promise<ModelUpdate[]> {
    const rows = await this.server.db
      .selectFrom('model_updates')
      .select('msg')
      .where('account_id', '=', accountId)
      .orderBy('seq')
      .execute();
    return rows.map((r) => JSON.parse(r.msg) as ModelUpdate);
  }

  async close(): Promise<void> {
    for (const profile of this.profiles.splice(0)) await profile.close().catch(() => undefined);
    await this.chromium.close().catch(() => undefined);
    // The page server and the warm browsers go on to the worker's next file (web.ts, browser.ts).
    await this.web.release();
    await this.net.close();
    await this.server.close();
  }
}
