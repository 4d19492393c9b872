import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiPaths } from '@plant/shared-schema';
import { DEMO_USERS } from '../server/src/seed/demo';
import type { AppTab } from './support/app-tab';
import type { BrowserProfile } from './support/browser';
import { E2e } from './support/fixture';
import { ShellPage } from './support/pages/shell';

/*
 * Issue 17 item 7, spec 000 §4, §6, §8, §9: the notification banner in each permission state,
 * subscribing, the 7 days a dismissed banner stays away, only signed in, and the internal users'
 * 5 seconds. Headless Chromium has no push service (no internet): subscribing fails there, which
 * is the failure the banner must report, after the server's PUSH_SUBSCRIBE_TIMEOUT_S (shortened
 * here from its 20 s). The install offer, the notification prompt and push need a browser of their
 * own (`persistent`): Chromium keeps them from the shared browser's contexts.
 */
let e2e: E2e;

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'), { env: { PUSH_SUBSCRIBE_TIMEOUT_S: '2' } });
});
afterAll(() => e2e.close());

const WEEK_MS = 604_800_000;

function notificationBanner(page: Page): Locator {
  return page.getByTestId('notification-banner');
}

/** The frame of /app has rendered (and with it the banners' place), two frames later. */
async function shellShown(page: Page): Promise<void> {
  await new ShellPage(page).header().waitFor();
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );
}

/**
 * Sets the notification permission of the page's origin as the user would in site settings.
 * The protocol's override lasts as long as its session: the session is left open.
 */
async function setPermission(
  browser: BrowserProfile,
  page: Page,
  setting: 'granted' | 'denied',
): Promise<void> {
  const cdp = await browser.context.newCDPSession(page);
  await cdp.send('Browser.setPermission', {
    permission: { name: 'notifications' },
    setting,
    origin: e2e.web.url,
  });
}

/** Notes on `window` when the browser offers to install the app (pages opened from now on). */
async function recordInstallOffers(browser: BrowserProfile): Promise<void> {
  await browser.context.addInitScript(() => {
    addEventListener('beforeinstallprompt', () => {
      (window as { installOffered?: boolean }).installOffered = true;
    });
  });
}

async function installOffered(page: Page): Promise<void> {
  await page.waitForFunction(
    () => (window as { installOffered?: boolean }).installOffered === true,
  );
}

/**
 * Waits for the install banner, which waits for Chromium's offer. Chromium checks whether the app
 * can be installed on each navigation; on a busy machine a check now and then never ended (a
 * clean run waited 60 s at the first sign-in), so an offer that has not come in 20 s is asked
 * for again by a reload, at most twice.
 */
async function installBanner(tab: AppTab, banner: Locator): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const last = attempt === 3;
    const shown = await banner
      .waitFor({ timeout: last ? 60_000 : 20_000 })
      .then(() => true)
      .catch((error: unknown) => {
        if (last) throw error;
        return false;
      });
    if (shown) return;
    await tab.reload();
  }
}

describe('the notification banner', () => {
  it('offers Allow while the permission is not asked, as a named region that leaves the focus alone; refused, it says so', async () => {
    const browser = await e2e.browser({ persistent: true });
    await recordInstallOffers(browser);
    const tab = await e2e.openApp(browser, '/user/login');
    expect(await tab.page.evaluate(() => Notification.permission)).toBe('default');
    await tab.signIn(DEMO_USERS.tech);
    const banner = tab.page.getByRole('region', { name: 'Get alarms as notifications' });
    await banner.waitFor();
    expect(await banner.getAttribute('data-state')).toBe('default');
    expect(await banner.getByRole('button', { name: 'Allow' }).isEnabled()).toBe(true);
    expect(await banner.getByRole('button', { name: 'Not now' }).count()).toBe(1);
    // At most one banner at a time: the install offer came, its banner waits.
    await installOffered(tab.page);
    await shellShown(tab.page);
    expect(await tab.page.getByTestId('pwa-banner').count()).toBe(0);
    expect(await banner.evaluate((el) => el.contains(document.activeElement))).toBe(false);
    // Reached by the keyboard like any control: Tab lands on its buttons in order.
    await banner.getByRole('button', { name: 'Allow' }).focus();
    await tab.page.keyboard.press('Tab');
    expect(
      await banner
        .getByRole('button', { name: 'Not now' })
        .evaluate((el) => el === document.activeElement),
    ).toBe(true);
    // Allow asks the browser, which refuses here (headless): the banner says it is blocked.
    await banner.getByRole('button', { name: 'Allow' }).click();
    await tab.page.getByRole('region', { name: 'Notifications are blocked' }).waitFor();
    expect(await tab.page.evaluate(() => Notification.permission)).toBe('denied');
  });

  it('says that the browser blocks notifications when they are denied, and Allow is off', async () => {
    const browser = await e2e.browser({ persistent: true });
    const tab = await e2e.openApp(browser, '/user/login');
    await setPermission(browser, tab.page, 'denied');
    await tab.signIn(DEMO_USERS.tech);
    const banner = tab.page.getByRole('region', { name: 'Notifications are blocked' });
    await banner.waitFor();
    expect(await banner.getAttribute('data-state')).toBe('denied');
    expect(await banner.textContent()).toContain(
      "Your browser's settings block notifications from this site. Check your browser settings to get alarms here.",
    );
    expect(await banner.getByRole('button', { name: 'Allow' }).isDisabled()).toBe(true);
  });

  it('dismissed, it stays away on reload for 7 days (the stored timestamp), then comes back', async () => {
    const browser = await e2e.browser();
    const tab = await e2e.openApp(browser, '/user/login');
    await tab.signIn(DEMO_USERS.tech);
    const banner = notificationBanner(tab.page);
    await banner.waitFor();
    const before = Date.now();
    await banner.getByRole('button', { name: 'Not now' }).click();
    await expect.poll(() => banner.count()).toBe(0);
    const stored = Number(
      await tab.page.evaluate(() => localStorage.getItem('notification-banner')),
    );
    expect(stored).toBeGreaterThanOrEqual(before);
    expect(stored).toBeLessThanOrEqual(Date.now());

    await tab.reload();
    await shellShown(tab.page);
    expect(await banner.count()).toBe(0);

    // Dismissed a minute short of 7 days ago: still away.
    await tab.page.evaluate(
      (at) => localStorage.setItem('notification-banner', String(at)),
      Date.now() - WEEK_MS + 60_000,
    );
    await tab.reload();
    await shellShown(tab.page);
    expect(await banner.count()).toBe(0);

    // More than 7 days ago: back.
    await tab.page.evaluate(
      (at) => localStorage.setItem('notification-banner', String(at)),
      Date.now() - WEEK_MS - 60_000,
    );
    await tab.reload();
    await banner.waitFor();
  });

  it('shows only while signed in: not on the sign-in screen, gone after signing out', async () => {
    const browser = await e2e.browser();
    const tab = await e2e.openApp(browser, '/user/login');
    await tab.page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await notificationBanner(tab.page).count()).toBe(0);
    await tab.signIn(DEMO_USERS.tech);
    await notificationBanner(tab.page).waitFor();
    await new ShellPage(tab.page).signOut();
    await tab.waitForPath(/^\/user\/login/);
    await tab.page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await notificationBanner(tab.page).count()).toBe(0);
  });

  it('an internal user gets it only after 5 seconds', async () => {
    const browser = await e2e.browser();
    const tab = await e2e.openApp(browser, '/user/login');
    const signingIn = Date.now();
    await tab.signIn(DEMO_USERS.internal);
    await shellShown(tab.page);
    expect(await notificationBanner(tab.page).count()).toBe(0);
    await notificationBanner(tab.page).waitFor({ timeout: 30_000 });
    // The timer started after the click on Sign in, so no sooner than 5 s after it.
    expect(Date.now() - signingIn).toBeGreaterThanOrEqual(5_000);
  });

  it('with notifications allowed it offers to subscribe; without a push service that fails, and says so', async () => {
    const browser = await e2e.browser({ persistent: true });
    await browser.context.grantPermissions(['notifications'], { origin: e2e.web.url });
    const tab = await e2e.openApp(browser, '/user/login');
    const keyAnswers: number[] = [];
    tab.page.on('response', (response) => {
      if (response.url().endsWith(`/api/v1/${apiPaths.pushKey()}`))
        keyAnswers.push(response.status());
    });
    await tab.signIn(DEMO_USERS.tech);
    // The subscription lives with the service worker: the banner waits for it to be ready, and
    // so does the test. Its install precaches the whole app (5 MB): past the locator's 60 s in a
    // busy clean clone, where the banner had not shown yet.
    await tab.page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    const banner = notificationBanner(tab.page);
    await banner.waitFor();
    expect(await banner.getAttribute('data-state')).toBe('unsubscribed');
    await banner.getByRole('button', { name: 'Subscribe' }).click();
    await tab.page.getByText('Failed to subscribe to push notifications!').waitFor();
    // The server's key was fetched: it was the push service that failed, not our server.
    expect(keyAnswers).toEqual([200]);
    // The banner still offers it.
    await expect.poll(() => banner.getAttribute('data-state')).toBe('unsubscribed');
    expect(await banner.getByRole('button', { name: 'Subscribe' }).isEnabled()).toBe(true);
  }, 240_000);
});

describe('the install banner', () => {
  it('offered once the notification banner is out of the way; dismissed, it stays away for 7 days; used or installed, it goes', async () => {
    // Chromium offers the install only after its engagement checks, which a test's few seconds
    // on the page pass only sometimes (a clean run waited 60 s for the offer): the switch skips
    // them; the offer itself stays the browser's own.
    const browser = await e2e.browser({ args: ['--bypass-app-banner-engagement-checks'] });
    await recordInstallOffers(browser);
    const tab = await e2e.openApp(browser, '/user/login');
    await tab.page.evaluate(() => localStorage.setItem('notification-banner', String(Date.now())));
    await tab.signIn(DEMO_USERS.tech);
    const banner = tab.page.getByRole('region', { name: 'Install the app' });
    await installBanner(tab, banner);
    expect(await notificationBanner(tab.page).count()).toBe(0);
    // Installed from elsewhere (the browser's menu): the browser says so and the banner goes.
    await tab.page.evaluate(() => dispatchEvent(new Event('appinstalled')));
    await expect.poll(() => banner.count()).toBe(0);

    await tab.reload();
    await installBanner(tab, banner);
    const before = Date.now();
    await banner.getByRole('button', { name: 'Not now' }).click();
    await expect.poll(() => banner.count()).toBe(0);
    const stored = Number(await tab.page.evaluate(() => localStorage.getItem('pwa-banner')));
    expect(stored).toBeGreaterThanOrEqual(before);

    await tab.reload();
    await installOffered(tab.page);
    await shellShown(tab.page);
    expect(await banner.count()).toBe(0);

    await tab.page.evaluate(
      (at) => localStorage.setItem('pwa-banner', String(at)),
      Date.now() - WEEK_MS - 60_000,
    );
    await tab.reload();
    await installBanner(tab, banner);
    // Install hands over to the browser's own dialog; the offer is used up, so the banner goes.
    // Last: once the offer was used, Chromium need not offer it again on a reload.
    await banner.getByRole('button', { name: 'Install' }).click();
    await expect.poll(() => banner.count()).toBe(0);
  });
});
