import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ACCOUNT_HEADER, apiPaths } from '@plant/shared-schema';
import { DEMO_USERS } from '../server/src/seed/demo';
import { E2e } from './support/fixture';
import type { AppTab } from './support/app-tab';
import { DevicesListPage, syncIndicator } from './support/pages/devices';

let e2e: E2e;

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'));
});
afterAll(() => e2e.close());

/** The demo account's machines as the list orders them (by name, case-insensitive). */
async function serverNames(accountId: string): Promise<string[]> {
  const assets = await e2e.serverModels(accountId, 'asset');
  return assets
    .map((a) => String(a.attributes.name))
    .sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
}

async function openList(): Promise<{ tab: AppTab; list: DevicesListPage }> {
  const browser = await e2e.browser();
  const tab = await e2e.signedInApp(DEMO_USERS.admin, '/app/devices/list', browser);
  return { tab, list: new DevicesListPage(tab.page) };
}

describe('the asset list', () => {
  it('shows the 13 demo assets of the account (12 machines, the demo smartphone), searches from 3 characters and the count follows', async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const { list } = await openList();
    await expect.poll(() => list.count()).toBe('13 assets');
    await expect.poll(() => list.names()).toEqual(await serverNames(admin.accountId));
    expect(await list.table.getAttribute('aria-rowcount')).toBe('14');

    // Under 3 characters nothing is filtered, and the box says why.
    await list.searchFor('Pr');
    await expect
      .poll(() => list.page.getByText('Type at least 3 characters to search.').count())
      .toBe(1);
    await list.page.waitForTimeout(400);
    expect(await list.count()).toBe('13 assets');

    // From 3: name, description and MAC address ("Compressor" has "pre" too).
    await list.searchFor('Pre');
    await expect.poll(() => list.count()).toBe('3 of 13 assets');
    expect(await list.names()).toEqual(['Compressor station', 'Press line 1', 'Press line 2']);
    await list.searchFor('3a:b4');
    await expect.poll(() => list.names()).toEqual(['Paint shop conveyor']);
    expect(await list.count()).toBe('1 of 13 assets');

    // No match is not "no assets": it says what was searched and offers to clear it.
    await list.searchFor('no such machine');
    await expect.poll(() => list.count()).toBe('0 of 13 assets');
    expect(await list.emptyState().textContent()).toContain('No assets match “no such machine”');
    await list.page.getByRole('button', { name: 'Clear search' }).first().click();
    await expect.poll(() => list.count()).toBe('13 assets');
    expect(await list.search.inputValue()).toBe('');
  });

  it('is reached and used with the keyboard: Tab to a row, arrows to move, Enter to open', async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const names = await serverNames(admin.accountId);
    const { tab, list } = await openList();
    await expect.poll(() => list.count()).toBe('13 assets');

    // Each key's move lands when the list has rendered the row (the last one after a scroll of
    // the virtualised list): waited for, as a busy machine takes its time (a clean clone read the
    // row still on 2 right after End).
    await list.search.focus();
    await tab.page.keyboard.press('Tab');
    await expect.poll(() => list.focusedRowIndex()).toBe(0);
    await tab.page.keyboard.press('ArrowDown');
    await tab.page.keyboard.press('ArrowDown');
    await expect.poll(() => list.focusedRowIndex()).toBe(2);
    // The focused row is plainly marked (a solid outline), not only by the browser's default.
    const outline = await tab.page.evaluate(() => {
      const el = document.activeElement;
      return el === null ? 'none' : getComputedStyle(el).outlineStyle;
    });
    expect(outline).toBe('solid');
    await tab.page.keyboard.press('End');
    await expect.poll(() => list.focusedRowIndex(), { timeout: 10_000 }).toBe(12);
    await tab.page.keyboard.press('Home');
    await expect.poll(() => list.focusedRowIndex(), { timeout: 10_000 }).toBe(0);
    await tab.page.keyboard.press('ArrowDown');
    await expect.poll(() => list.focusedRowIndex()).toBe(1);

    const second = names[1] ?? '';
    const id = await list.row(second).getAttribute('data-id');
    await tab.page.keyboard.press('Enter');
    await tab.waitForPath(new RegExp(`^/app/devices/${id ?? 'none'}/details$`));
    await expect.poll(() => tab.page.getByRole('heading', { level: 1 }).textContent()).toBe(second);
  });

  it("reaches the focused row's gateway link with Tab, and only that row's", async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const names = await serverNames(admin.accountId);
    const assets = await e2e.serverModels(admin.accountId, 'asset');
    const gateways = await e2e.serverModels(admin.accountId, 'gateway');
    const second = assets.find((a) => a.attributes.name === names[1]);
    const gatewayId = String(second?.attributes.gateway_id);
    const gatewayName = String(gateways.find((g) => g.id === gatewayId)?.attributes.name);
    const { tab, list } = await openList();
    await expect.poll(() => list.count()).toBe('13 assets');
    await expect
      .poll(() =>
        list
          .row(names[1] ?? '')
          .getByRole('link', { name: gatewayName })
          .count(),
      )
      .toBe(1);

    await list.search.focus();
    await tab.page.keyboard.press('Tab');
    await tab.page.keyboard.press('ArrowDown');
    await expect.poll(() => list.focusedRowIndex()).toBe(1);
    // From the row to its gateway: the next Tab stop, named by the gateway.
    await tab.page.keyboard.press('Tab');
    const focused = () =>
      tab.page.evaluate(() => ({
        text: document.activeElement?.textContent ?? '',
        href: document.activeElement?.getAttribute('href') ?? null,
      }));
    await expect.poll(focused).toEqual({
      text: gatewayName,
      href: `/app/gateways/${gatewayId}/details`,
    });
    await tab.page.keyboard.press('Shift+Tab');
    await expect.poll(() => list.focusedRowIndex()).toBe(1);
    // Only the current row's links are in the tab order: the other rows' are not.
    const tabbableLinks = await tab.page
      .locator('[data-testid="device-row"] a[tabindex="0"]')
      .count();
    expect(tabbableLinks).toBe(1);
    // Enter on the gateway link follows it (not the row's asset).
    await tab.page.keyboard.press('Tab');
    await tab.page.keyboard.press('Enter');
    await tab.waitForPath(new RegExp(`^/app/gateways/${gatewayId}/details$`));
  });

  it('keeps the search when the user opens an asset and comes back', async () => {
    const { tab, list } = await openList();
    await list.searchFor('line');
    await expect.poll(() => list.count()).toBe('3 of 13 assets');
    await list.open('Press line 1');
    await tab.waitForPath(/^\/app\/devices\/[^/]+\/details$/);
    await tab.page.goBack();
    await tab.waitForPath(/^\/app\/devices\/list$/);
    await expect.poll(() => list.count()).toBe('3 of 13 assets');
    expect(await list.search.inputValue()).toBe('line');
  });

  it("shows another client's rename within 2 s, without a reload", async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const { tab, list } = await openList();
    await expect.poll(() => list.count()).toBe('13 assets');
    // Live: subscribed to the account's updates (the fast path that the 2 s are about).
    await expect.poll(() => syncIndicator(tab.page).getAttribute('data-subscribed')).toBe('true');

    const asset = (await e2e.serverModels(admin.accountId, 'asset')).find(
      (a) => a.attributes.name === 'Welding robot W7',
    );
    expect(asset).toBeDefined();
    const rename = async (name: string) => {
      const answer = await e2e.server.call('PUT', apiPaths.model('assets', asset?.id ?? ''), {
        token: admin.token,
        headers: { [ACCOUNT_HEADER]: admin.accountId },
        json: { name },
      });
      expect(answer.status).toBe(200);
    };
    await rename('Welding robot W7 (line 2)');
    await expect
      .poll(() => list.names(), { timeout: 2_000 })
      .toContain('Welding robot W7 (line 2)');
    expect(await list.names()).not.toContain('Welding robot W7');
    expect(await list.count()).toBe('13 assets');
  });
});
