import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_USERS } from '../server/src/seed/demo';
import type { AppTab } from './support/app-tab';
import { E2e } from './support/fixture';
import { ShellPage } from './support/pages/shell';

let e2e: E2e;

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'));
});
afterAll(() => e2e.close());

async function signedIn(width?: number): Promise<{ tab: AppTab; shell: ShellPage }> {
  const browser = await e2e.browser();
  const tab = await e2e.openApp(browser, '/user/login');
  if (width !== undefined) await tab.page.setViewportSize({ width, height: 800 });
  await tab.signIn(DEMO_USERS.admin);
  await tab.navigateInApp('/app/dashboards/list');
  const shell = new ShellPage(tab.page);
  await shell.breadcrumb().waitFor();
  return { tab, shell };
}

/** Where the menu is beside the page: its box against the breadcrumb's (inside main). */
async function menuSide(shell: ShellPage): Promise<'left' | 'right'> {
  const nav = await shell.menu().boundingBox();
  const page = await shell.breadcrumb().boundingBox();
  if (nav === null || page === null) throw new Error('menu or page not shown');
  if (nav.x + nav.width <= page.x) return 'left';
  if (nav.x >= page.x + page.width) return 'right';
  throw new Error(`the menu overlaps the page: ${JSON.stringify({ nav, page })}`);
}

describe('direction', () => {
  it('right-to-left mirrors the shell: the menu goes to the right, and stays there after a reload', async () => {
    const { tab, shell } = await signedIn();
    expect(await menuSide(shell)).toBe('left');
    await shell.choosePreference('Right to left');
    await expect.poll(() => tab.page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await expect.poll(() => menuSide(shell)).toBe('right');
    // The header mirrors too: the menu button is at its right end.
    const toggle = await shell.menuToggle().boundingBox();
    const user = await tab.page.getByTestId('user-menu').boundingBox();
    expect(toggle?.x ?? 0).toBeGreaterThan(user?.x ?? 0);

    await tab.reload();
    await shell.breadcrumb().waitFor();
    await expect.poll(() => menuSide(shell)).toBe('right');
    await shell.choosePreference('Left to right');
    await expect.poll(() => menuSide(shell)).toBe('left');
  });
});

describe('narrow screens', () => {
  it('under 769 px the menu is a drawer from the inline start, closed after choosing', async () => {
    const { tab, shell } = await signedIn(700);
    expect(await shell.menu().count()).toBe(0);
    await shell.toggleMenu();
    const drawer = tab.page.getByRole('dialog', { name: 'Menu' });
    await drawer.waitFor();
    expect(await shell.menu().count()).toBe(1);
    const box = await shell.menu().boundingBox();
    expect(box?.x ?? -1).toBeLessThan(50);
    await shell.menu().getByRole('link', { name: 'Alarms' }).click();
    await tab.waitForPath(/^\/app\/alarms$/);
    await drawer.waitFor({ state: 'detached' });

    await shell.choosePreference('Right to left');
    await shell.toggleMenu();
    await drawer.waitFor();
    const rtlBox = await shell.menu().boundingBox();
    expect((rtlBox?.x ?? 0) + (rtlBox?.width ?? 0)).toBeGreaterThan(650);
    await tab.page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });
  });
});

describe('page transitions', () => {
  it('fade by default, slide when chosen (kept), none when the system asks for less motion', async () => {
    const { tab, shell } = await signedIn();
    const page = tab.page.getByTestId('page');
    expect(await page.getAttribute('data-transition')).toBe('fade');
    await shell.choosePreference('Slide');
    await expect.poll(() => page.getAttribute('data-transition')).toBe('slide');
    expect(await tab.page.evaluate(() => localStorage.getItem('transition'))).toBe('slide');
    // A page change plays the slide on the page's wrapper.
    const played = tab.page.evaluate(
      () =>
        new Promise<string>((resolve) => {
          const seen = () => {
            const running = document
              .querySelector('[data-testid="page"]')
              ?.getAnimations()
              .find((a) => a.playState === 'running');
            if (running === undefined) requestAnimationFrame(seen);
            else resolve(JSON.stringify((running.effect as KeyframeEffect).getKeyframes()[0]));
          };
          seen();
        }),
    );
    await shell.menu().getByRole('link', { name: 'Alarms' }).click();
    expect(await played).toContain('translateX(24px)');

    await tab.page.emulateMedia({ reducedMotion: 'reduce' });
    await expect.poll(() => page.getAttribute('data-transition')).toBe('none');
  });
});
