import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { DEMO_USERS } from '../server/src/seed/demo';
import { E2e } from './support/fixture';

/*
 * Issue 30 item 12: the 1024 x 768 tablet. The side menu starts as icons (until the user chooses),
 * badges and titles keep their words whole, the role matrix stays in its frame, and no page
 * scrolls sideways. (The charts' axis labels: app-states-agree.)
 */
let e2e: E2e;

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'));
});
afterAll(() => e2e.close());

/** Words of the element's visible text that the layout split over two lines, or cut with an ellipsis. */
async function cutWords(element: Locator): Promise<string[]> {
  return element.evaluate((root) => {
    const cut: string[] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    // Text for screen readers only (a loading table's status) sits clipped in a 1 px box on
    // purpose: no one sees it cut.
    const seen = (element: Element | null): boolean => {
      for (let at = element; at !== null && at !== root.parentElement; at = at.parentElement) {
        if (getComputedStyle(at).clip.startsWith('rect')) return false;
      }
      return true;
    };
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      if (!seen(node.parentElement)) continue;
      for (const match of text.matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const lines = new Set(Array.from(range.getClientRects()).map((r) => Math.round(r.top)));
        if (lines.size > 1) cut.push(match[0]);
      }
      const parent = node.parentElement;
      if (parent !== null && parent.scrollWidth > parent.clientWidth + 1) {
        if (getComputedStyle(parent).overflow !== 'visible') cut.push(text);
      }
    }
    return cut;
  });
}

const pageOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe('on a 1024 x 768 tablet', () => {
  it('the menu starts as icons, words stay whole, the role matrix stays in its frame', async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const asset = (await e2e.serverModels(admin.accountId, 'asset')).find((a) =>
      String(a.attributes['name']).includes(' '),
    );
    const browser = await e2e.browser();
    const tab = await e2e.openApp(browser, '/user/login');
    const page = tab.page;
    await page.setViewportSize({ width: 1024, height: 768 });
    await tab.signIn(DEMO_USERS.admin);
    const menu = page.locator('nav[data-menu-state]');
    await expect.poll(() => menu.getAttribute('data-menu-state')).toBe('icons');
    // The demo's tasks due, counted on the rail's Tasks entry: the whole badge inside the rail
    // (it stood past the rail's edge, cut in half).
    const count = menu.getByTestId('menu-task-count');
    await expect.poll(() => count.isVisible()).toBe(true);
    const [badge, rail] = await Promise.all([count.boundingBox(), menu.boundingBox()]);
    expect(badge).not.toBeNull();
    expect((badge?.x ?? 0) + (badge?.width ?? 0)).toBeLessThanOrEqual(
      (rail?.x ?? 0) + (rail?.width ?? 0),
    );

    // The asset's name and its status badge beside the actions.
    await tab.navigateInApp(`/app/devices/${asset?.id ?? ''}/details`);
    const title = page.getByRole('heading', { level: 1 });
    await expect.poll(() => title.textContent()).toBe(String(asset?.attributes['name']));
    expect(await cutWords(title)).toEqual([]);
    expect(await cutWords(page.getByTestId('asset-details'))).toEqual([]);
    expect(await pageOverflow(page)).toBeLessThanOrEqual(0);

    // The users' roles and tags ('security-insights' was cut to 'SECURITY-INSI…').
    await tab.navigateInApp('/app/users/list');
    const table = page.getByRole('table');
    await expect.poll(() => table.getByText('security-insights').count()).toBeGreaterThan(0);
    expect(await cutWords(table)).toEqual([]);
    expect(await pageOverflow(page)).toBeLessThanOrEqual(0);

    // The role matrix: in its own frame, the page does not scroll sideways.
    await tab.navigateInApp(`/app/accounts/${admin.accountId}/roles`);
    await page.getByTestId('roles-page').getByText('Technician', { exact: true }).click();
    const matrix = page.getByTestId('permission-matrix');
    await matrix.waitFor();
    const [frame, main] = await Promise.all([
      matrix.boundingBox(),
      page.locator('main').boundingBox(),
    ]);
    expect((frame?.x ?? 0) + (frame?.width ?? 0)).toBeLessThanOrEqual(
      (main?.x ?? 0) + (main?.width ?? 0) + 1,
    );
    expect(await cutWords(matrix)).toEqual([]);
    expect(await pageOverflow(page)).toBeLessThanOrEqual(0);

    // A choice of the user's own still wins over the tablet's default.
    await page.getByTestId('menu-toggle').click();
    await expect.poll(() => menu.getAttribute('data-menu-state')).toBe('hidden');
  });
});
