import fs from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { PointValue } from '@plant/shared-schema';
import { DEMO_USERS } from '../server/src/seed/demo';
import { demoGateway } from '../server/src/testing/gateway-client';
import { E2e } from './support/fixture';

/*
 * A data stream's diagram (issue 12): the range's history from the server, kept in the worker's
 * values cache; a reload with the server out of reach still shows the cached hours and says it
 * is offline; back online, the values stored meanwhile appear without a reload. A moment chosen
 * on it opens its event inspection.
 */
let e2e: E2e;
let seq = 0;

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'));
});
afterAll(() => e2e.close());

/** Values straight into the server's time-series store (as ingest would have stored them). */
async function stored(
  account: string,
  points: { stream: string; ts: number; value: PointValue }[],
) {
  seq += 1;
  await e2e.server.machineData.store.append({
    source: 'e2e-history',
    seq,
    points: points.map((p) => ({ ...p, account })),
  });
}

describe('the data stream diagram', () => {
  it('shows the history; offline after a reload it shows the cached hours and says so; back online the gap fills', async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const gw = await demoGateway(e2e.server, admin.accountId, 1);
    const stream = gw.streams['Spindle speed'] ?? '';
    const now = Date.now();
    // One value a minute over the last two hours (the last one a minute ago).
    await stored(
      admin.accountId,
      Array.from({ length: 115 }, (_, i) => ({
        stream,
        ts: now - (115 - i) * 60_000,
        value: 1000 + i,
      })),
    );

    const browser = await e2e.browser();
    const tab = await e2e.openApp(browser);
    // A 1024x768 tablet: the diagram fits the screen without scrolling sideways.
    await tab.page.setViewportSize({ width: 1024, height: 768 });
    await tab.signInAt(DEMO_USERS.admin);
    await tab.goto(`/app/devices/${gw.assetId}/input/${stream}`);
    const page = tab.page;
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).textContent())
      .toBe('Spindle speed');
    await page.getByTestId('date-range').getByText('2 h', { exact: true }).click();
    const chart = page.getByTestId('stream-chart');
    await expect.poll(async () => Number(await chart.getAttribute('data-points'))).toBe(115);
    // The range's metrics, from the values shown.
    const metric = (key: string) => page.locator(`[data-metric="${key}"] dd`).textContent();
    await expect.poll(() => metric('min')).toBe('1,000 rpm');
    expect(await metric('max')).toBe('1,114 rpm');
    expect(await metric('last')).toBe('1,114 rpm');
    expect(await page.getByTestId('stream-offline').count()).toBe(0);
    const fits = await page.evaluate(() => {
      const chart = document.querySelector('[data-testid="stream-chart"] canvas');
      const box = chart?.getBoundingClientRect();
      return {
        page: document.documentElement.scrollWidth <= window.innerWidth,
        chart: box !== undefined && box.width > 300 && box.right <= window.innerWidth,
      };
    });
    expect(fits).toEqual({ page: true, chart: true });
    // The range's raw values as CSV.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('stream-csv').click(),
    ]);
    const csv = await fs.readFile(await download.path(), 'utf8');
    const csvLines = csv.trim().split('\n');
    expect(csvLines[0]).toBe('ts,time,value');
    expect(csvLines).toHaveLength(116);
    expect(csvLines[1]).toMatch(/^\d+,\d{4}-\d\d-\d\dT[\d:.]+Z,1000$/);

    // The server out of reach, and a reload: the cached hours show, and the page says why
    // nothing newer does.
    e2e.offline();
    await tab.reload();
    await expect.poll(() => page.getByTestId('stream-offline').count()).toBe(1);
    await expect
      .poll(async () => Number(await chart.getAttribute('data-points')))
      .toBeGreaterThanOrEqual(114);
    const shownOffline = Number(await chart.getAttribute('data-points'));

    // Values stored while this tablet was offline.
    const later = Date.now();
    await stored(admin.accountId, [
      { stream, ts: later - 3_000, value: 5000 },
      { stream, ts: later - 2_000, value: 5001 },
    ]);
    e2e.online();
    await expect
      .poll(() => page.getByTestId('stream-offline').count(), { timeout: 60_000 })
      .toBe(0);
    await expect.poll(() => metric('last'), { timeout: 60_000 }).toBe('5,001 rpm');
    expect(await metric('max')).toBe('5,001 rpm');
    expect(Number(await chart.getAttribute('data-points'))).toBeGreaterThan(shownOffline);

    // A moment chosen on the chart (issue 37 item 5): a click in the middle of the plot picks
    // the middle of the two hours shown, drawn as a line; the arrow keys move it by a hundredth
    // of the range; its event inspection opens around it.
    const moment = page.getByTestId('stream-moment');
    expect(await moment.textContent()).toContain('Click the chart');
    const over = chart.locator('.u-over');
    const plot = await over.boundingBox();
    if (plot === null) throw new Error('The chart has no plot area');
    await over.click({ position: { x: plot.width / 2, y: plot.height / 2 } });
    const inspect = moment.getByTestId('inspect-event');
    await inspect.waitFor();
    const picked = Number(await inspect.getAttribute('data-at'));
    expect(Math.abs(picked - (Date.now() - 3_600_000))).toBeLessThan(5 * 60_000);
    expect(await moment.textContent()).toContain('Chosen moment');
    // The line stands where the click was (the canvas's CSS pixels).
    const canvas = await chart.locator('canvas').boundingBox();
    if (canvas === null) throw new Error('The chart has no canvas');
    const lineX = Number(await chart.locator('.uplot').getAttribute('data-moment-x'));
    expect(Math.abs(lineX - (plot.x - canvas.x + plot.width / 2))).toBeLessThanOrEqual(2);
    await chart.focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(async () => Number(await inspect.getAttribute('data-at'))).not.toBe(picked);
    const moved = Number(await inspect.getAttribute('data-at'));
    // 72 s (two hours over 100), the moment kept to the whole second.
    expect(Math.abs(moved - picked - 72_000)).toBeLessThanOrEqual(1_000);
    // A double-click (back to the range before a zoom) keeps the moment it found.
    await over.dblclick({ position: { x: plot.width / 4, y: plot.height / 2 } });
    expect(Number(await inspect.getAttribute('data-at'))).toBe(moved);
    await inspect.click();
    await tab.waitForPath(/\/eventinspection\//);
    await expect
      .poll(() => page.getByTestId('inspection-chart').first().getAttribute('data-moment'))
      .toBe(String(moved));
    await expect
      .poll(async () =>
        (await e2e.serverModels(admin.accountId, 'inspection')).some(
          (m) => m.attributes.at === moved && m.attributes.alarm_id === null,
        ),
      )
      .toBe(true);
  });
});
