import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_USERS } from '../server/src/seed/demo';
import { seedAssets } from '../server/src/testing/seed-assets';
import { E2e } from './support/fixture';
import { DevicesListPage } from './support/pages/devices';

/*
 * Issue 13: an account of 50,000 assets opens as a small one does. The first rows of the list
 * show while the account still loads (the count says so meanwhile, the progress bar shows), the
 * count is right once everything is in, and the list scrolls to its last row.
 */
let e2e: E2e;

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'));
});
afterAll(() => e2e.close());

const TOTAL = 50_000;

/** "Zone asset 000000" …: after the demo machines, the last one last of all. */
const nameOf = (n: number) => `Zone asset ${String(n).padStart(6, '0')}`;

/** What the page saw, recorded as it happened (nothing here waits for a fixed time). */
interface Seen {
  /** The count line and the progress bar when the first row appeared. */
  firstRow: { at: number; count: string; loading: boolean; name: string } | null;
  /** When the count line first said the final total. */
  counted: number | null;
  /** Whether "No assets yet" (or any empty state) ever showed. */
  empty: boolean;
}

describe('a large account', () => {
  it('50,000 assets: rows while loading, the count at the end, the last row after scrolling', async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const before = (await e2e.serverModels(admin.accountId, 'asset')).length;
    await seedAssets(e2e.server, admin.accountId, TOTAL - before, (i) => nameOf(i + 1));
    const countText = `${TOTAL.toLocaleString('en')} assets`;

    const browser = await e2e.browser();
    const tab = await e2e.openApp(browser, '/user/login');
    await tab.page.evaluate(`(() => {
      const seen = { firstRow: null, counted: null, empty: false };
      window.seen = seen;
      const count = () => (document.querySelector('[data-testid="devices-count"]')?.textContent ?? '').trim();
      new MutationObserver(() => {
        if (document.querySelector('[data-testid="empty-state"]') !== null) seen.empty = true;
        const row = document.querySelector('[data-testid="device-row"][data-index="0"]');
        if (seen.firstRow === null && row !== null) {
          seen.firstRow = {
            at: performance.now(),
            count: count(),
            loading: document.querySelector('[data-testid="bootstrap-progress"]') !== null,
            name: row.querySelector('a')?.textContent ?? '',
          };
        }
        if (seen.counted === null && count() === ${JSON.stringify(countText)}) {
          seen.counted = performance.now();
        }
      }).observe(document.body, { childList: true, subtree: true, characterData: true });
    })()`);
    await tab.signIn(DEMO_USERS.admin);
    await tab.waitForPath(/^\/app\/devices\/list$/);
    const list = new DevicesListPage(tab.page);

    // Rows come while the account loads: the count says it is loading, the progress bar shows.
    await expect.poll(() => list.rows.count(), { timeout: 60_000 }).toBeGreaterThan(0);
    const seen = () => tab.page.evaluate(() => (window as unknown as { seen: Seen }).seen);
    const early = (await seen()).firstRow;
    expect(early?.count).toBe('Loading assets…');
    expect(early?.loading).toBe(true);

    // The count once everything is in, and the table as long as the account.
    await expect.poll(() => list.count(), { timeout: 240_000 }).toBe(countText);
    const done = await seen();
    expect(done.firstRow?.at).toBeLessThan(done.counted ?? 0);
    expect(done.empty).toBe(false);
    expect(await tab.page.getByTestId('bootstrap-progress').count()).toBe(0);
    expect(await list.table.getAttribute('aria-rowcount')).toBe(String(TOTAL + 1));
    // The rows shown first were the list's first rows, in its order (not just any loaded first).
    expect((await list.names())[0]).toBe(early?.name);
    expect(await list.renderedRowCount()).toBeLessThan(200);

    await list.scrollToEnd();
    const last = nameOf(TOTAL - before);
    await expect.poll(() => list.row(last).count()).toBe(1);
    expect(await list.row(last).getAttribute('aria-rowindex')).toBe(String(TOTAL + 1));
  }, 420_000);
});
