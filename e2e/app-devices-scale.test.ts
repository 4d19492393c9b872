import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ACCOUNT_HEADER, apiPaths, BATCH_MAX_ITEMS } from '@plant/shared-schema';
import { DEMO_USERS } from '../server/src/seed/demo';
import { E2e } from './support/fixture';
import { DevicesListPage } from './support/pages/devices';

let e2e: E2e;

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'));
});
afterAll(() => e2e.close());

const TOTAL = 10_000;

/** "Zone asset 00001" …: they sort after the demo machines, the last one last of all. */
const nameOf = (n: number) => `Zone asset ${String(n).padStart(5, '0')}`;

describe('the asset list at scale', () => {
  it('10,000 assets: the count, the last row after scrolling to the end, and only a window of rows in the DOM', async () => {
    // The account gets its assets as any client would make them: the batch API (500 a request),
    // every one a real write with its change-log entry; the browser bootstraps them after.
    const admin = await e2e.session(DEMO_USERS.admin);
    const seeded = (await e2e.serverModels(admin.accountId, 'asset')).length;
    const extra = TOTAL - seeded;
    for (let from = 1; from <= extra; from += BATCH_MAX_ITEMS) {
      const items = Array.from({ length: Math.min(BATCH_MAX_ITEMS, extra - from + 1) }, (_, i) => ({
        batch_id: from + i,
        data: { name: nameOf(from + i), description: `Bulk asset number ${from + i}` },
      }));
      const answer = await e2e.server.call('POST', apiPaths.collection('assets'), {
        token: admin.token,
        headers: { [ACCOUNT_HEADER]: admin.accountId },
        json: items,
      });
      expect(answer.status).toBe(200);
      expect((answer.json as { success: boolean }).success).toBe(true);
    }
    expect(await e2e.serverModels(admin.accountId, 'asset')).toHaveLength(TOTAL);

    const browser = await e2e.browser();
    const tab = await e2e.openApp(browser, '/user/login');
    // While the 10,000 load, the list shows its skeleton until rows come, never "no assets".
    await tab.page.evaluate(() => {
      const seen = { empty: false, skeleton: false };
      (window as unknown as { seen: typeof seen }).seen = seen;
      new MutationObserver(() => {
        if (document.querySelector('[data-testid="empty-state"]') !== null) seen.empty = true;
        if (document.querySelector('[data-testid="devices-loading"]') !== null)
          seen.skeleton = true;
      }).observe(document.body, { childList: true, subtree: true });
    });
    await tab.signIn(DEMO_USERS.admin);
    await tab.waitForPath(/^\/app\/devices\/list$/);
    const list = new DevicesListPage(tab.page);
    await expect.poll(() => list.count()).toBe('10,000 assets');
    expect(
      await tab.page.evaluate(
        () => (window as unknown as { seen: { empty: boolean; skeleton: boolean } }).seen,
      ),
    ).toEqual({ empty: false, skeleton: true });
    expect(await list.table.getAttribute('aria-rowcount')).toBe(String(TOTAL + 1));
    await expect.poll(() => list.rows.count()).toBeGreaterThan(0);
    expect(await list.renderedRowCount()).toBeLessThan(200);

    await list.scrollToEnd();
    const last = nameOf(extra);
    await expect.poll(() => list.row(last).count()).toBe(1);
    expect(await list.row(last).getAttribute('aria-rowindex')).toBe(String(TOTAL + 1));
    expect(await list.renderedRowCount()).toBeLessThan(200);

    // From the last asset's page back to the list: it is where the user left it.
    await list.open(last);
    await tab.waitForPath(/^\/app\/devices\/[^/]+\/details$/);
    await tab.page.goBack();
    await tab.waitForPath(/^\/app\/devices\/list$/);
    await expect.poll(() => list.row(last).count()).toBe(1);

    // Search over the 10,000: the count says how many of all.
    const prefix = nameOf(extra).slice(0, -1);
    const matching = Array.from({ length: extra }, (_, i) => nameOf(i + 1)).filter((n) =>
      n.startsWith(prefix),
    ).length;
    await list.searchFor(prefix);
    await expect.poll(() => list.count()).toBe(`${matching} of 10,000 assets`);
  });
});
