import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { apiPaths, type PointValue } from '@plant/shared-schema';
import { DEMO_USERS } from '../server/src/seed/demo';
import { demoGateway } from '../server/src/testing/gateway-client';
import { E2e } from './support/fixture';
import { ShellPage } from './support/pages/shell';

/*
 * States agree (issue 30 item 8, and the charts of item 12): an asset with a raised critical alarm
 * never shows 'OK' (its page, the table, the cards); booleans and states draw as steps labelled
 * On/Off or by their state texts, with time On and changes instead of an average; every chart
 * shows the value under the pointer and a double-click takes back a zoom; the custom range
 * popover fits its buttons; on a 1024x768 tablet the chart's axis labels do not collide.
 */
let e2e: E2e;
let admin: Awaited<ReturnType<E2e['session']>>;
let gw: Awaited<ReturnType<typeof demoGateway>>;
let seq = 0;
const MINUTE = 60_000;

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'));
  admin = await e2e.session(DEMO_USERS.admin);
  // A machine without the demo's own alarms (those are on the first two).
  gw = await demoGateway(e2e.server, admin.accountId, 2);
  // Two hours of history, a value a minute, ending a minute ago, stored before any page opens
  // the asset (which caches its last day).
  const now = Date.now();
  const at = (i: number) => now - (115 - i) * MINUTE;
  const minutes = Array.from({ length: 115 }, (_, i) => i);
  await stored([
    // On, off for half an hour, on again: two changes.
    ...minutes.map((i) => ({
      stream: stream('Running'),
      ts: at(i),
      value: i >= 40 && i < 70 ? 0 : 1,
    })),
    // Automatic, Manual, Automatic, Fault: three changes.
    ...minutes.map((i) => ({
      stream: stream('Operating mode'),
      ts: at(i),
      value: i < 30 ? 1 : i < 60 ? 2 : i < 90 ? 1 : 3,
    })),
    ...minutes.map((i) => ({ stream: stream('Spindle speed'), ts: at(i), value: 1000 + i })),
  ]);
});
afterAll(() => e2e.close());

function stream(name: string): string {
  const id = gw.streams[name];
  if (id === undefined) throw new Error(`no stream ${name}`);
  return id;
}

/** Values straight into the server's time-series store (as ingest would have stored them). */
async function stored(points: { stream: string; ts: number; value: PointValue }[]) {
  seq += 1;
  await e2e.server.machineData.store.append({
    source: 'e2e-states',
    seq,
    points: points.map((p) => ({ ...p, account: admin.accountId })),
  });
}

interface DrawnLabel {
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

/** The chart's axis labels as drawn (the chart writes where each starts and ends). */
async function axisLabels(page: Page, axis: 'x' | 'y'): Promise<DrawnLabel[]> {
  const raw = await page
    .getByTestId('stream-chart')
    .locator('.uplot')
    .getAttribute(axis === 'x' ? 'data-x-labels' : 'data-y-labels');
  return JSON.parse(raw ?? '[]') as DrawnLabel[];
}

/** Labels that overlap each other (with less than `gap` pixels between), as "a|b". */
function collisions(labels: readonly DrawnLabel[], gap: number): string[] {
  const sorted = [...labels].sort((a, b) => a.start - b.start);
  return sorted.flatMap((label, i) => {
    const next = sorted[i + 1];
    return next !== undefined && label.end + gap > next.start ? [`${label.text}|${next.text}`] : [];
  });
}

/** Moves the pointer to a share (0 to 1) of the chart's plot width, half way down. */
async function pointAt(page: Page, share: number): Promise<void> {
  // The chart is a chunk of its own: it may still be on its way.
  const plot = page.getByTestId('stream-chart').locator('.u-over');
  await plot.waitFor();
  const box = await plot.boundingBox();
  // Drawn anew between the wait and the measure (its data came): the caller's poll points again.
  if (box === null) return;
  await page.mouse.move(box.x + box.width * share, box.y + box.height / 2);
}

/** The legend's value of the stream (the value under the pointer). */
function pointerValue(page: Page): Promise<string | null> {
  return page
    .getByTestId('stream-chart')
    .locator('.u-legend .u-series')
    .nth(1)
    .locator('.u-value')
    .textContent();
}

const metric = (page: Page, key: string) => page.locator(`[data-metric="${key}"] dd`).textContent();

/** Every button of the custom range popover lies inside it, and it inside the window. */
async function popoverFits(page: Page): Promise<string[]> {
  const rangeButton = page.getByTestId('date-range').getByRole('button');
  await rangeButton.click();
  const dropdown = page.getByTestId('date-range-custom');
  await expect.poll(() => dropdown.isVisible()).toBe(true);
  // Its form is a chunk of its own, loaded on the first opening.
  await expect.poll(() => dropdown.locator('input[type="datetime-local"]').count()).toBe(2);
  // Wait for the popover to stand still (its transition): the same box twice in a row.
  let last = '';
  await expect
    .poll(async () => {
      const box = JSON.stringify(await dropdown.boundingBox());
      const still = box === last;
      last = box;
      return still;
    })
    .toBe(true);
  const problems = await dropdown.evaluate((el) => {
    const outer = el.getBoundingClientRect();
    const out: string[] = [];
    if (outer.left < 0 || outer.right > window.innerWidth) out.push('popover off the window');
    for (const child of el.querySelectorAll('button, input')) {
      const r = child.getBoundingClientRect();
      // A hidden input (a Select's value) has no box.
      if (r.width === 0 && r.height === 0) continue;
      if (r.left < outer.left - 0.5 || r.right > outer.right + 0.5) {
        const name = child.textContent || child.getAttribute('aria-label') || child.id;
        out.push(
          `${child.tagName} ${name} cut: ${r.left}..${r.right} in ${outer.left}..${outer.right}`,
        );
      }
      // A button squeezed narrower than its words clips them (its label hides the overflow).
      for (const part of [child, ...child.querySelectorAll('span')]) {
        if (part.scrollWidth > part.clientWidth + 1) {
          out.push(
            `${child.tagName} ${child.textContent} squeezed: ${part.scrollWidth} > ${part.clientWidth}`,
          );
          break;
        }
      }
    }
    return out;
  });
  await page.keyboard.press('Escape');
  await expect.poll(() => dropdown.count()).toBe(0);
  return problems;
}

async function badge(scope: Locator | Page, testId: string) {
  const el = scope.getByTestId(testId).first();
  return {
    status: await el.getAttribute('data-status'),
    alarm: await el.getAttribute('data-alarm'),
    text: await el.textContent(),
  };
}

describe('states agree', () => {
  it('an alarmed asset never shows OK; booleans and states are steps with their texts; charts read under the pointer, zoom back, and fit a tablet', async () => {
    const tab = await e2e.signedInTab(DEMO_USERS.admin, '/app/devices/list');
    const page = tab.page;
    page.setDefaultTimeout(30_000);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.getByTestId('devices-view').getByText('Table', { exact: true }).click();
    const assetRow = page.locator(`[data-testid="device-row"][data-id="${gw.assetId}"]`);
    // Stored as OK, no alarm raised: OK.
    await expect.poll(async () => (await badge(assetRow, 'asset-status')).status).toBe('ok');

    // A critical alarm raised on the asset's spindle speed.
    const made = await e2e.server.call('POST', apiPaths.collection('alarms'), {
      token: admin.token,
      json: {
        asset_id: gw.assetId,
        datastream_id: stream('Spindle speed'),
        name: 'Spindle overspeed',
        upper_limit: 5_000,
        severity: 'critical',
      },
    });
    expect(made.status, made.text).toBe(201);
    const raise = [{ stream: stream('Spindle speed'), ts: Date.now() - 500, value: 5_500 }];
    await stored(raise);
    await e2e.server.machineData.alarms.evaluate(admin.accountId, raise);

    // The table: 'Alarm', red, the alarm named in its tooltip; never 'OK'.
    await expect
      .poll(() => badge(assetRow, 'asset-status'))
      .toMatchObject({ status: 'alarm', alarm: 'Spindle overspeed' });
    expect((await badge(assetRow, 'asset-status')).text).toMatch(/^Alarm/);
    await assetRow.getByTestId('asset-status').hover();
    await expect
      .poll(() => page.getByRole('tooltip').textContent())
      .toBe('Alarm raised (Critical): \u2068Spindle overspeed\u2069');
    // The cards.
    await page.getByTestId('devices-view').getByText('Panel', { exact: true }).click();
    const card = page.locator(`[data-testid="device-card"][data-id="${gw.assetId}"]`);
    await expect
      .poll(() => badge(card, 'device-card-status'))
      .toMatchObject({ status: 'alarm', alarm: 'Spindle overspeed' });
    await page.getByTestId('devices-view').getByText('Table', { exact: true }).click();
    // The asset's page.
    await tab.navigateInApp(`/app/devices/${gw.assetId}/details`);
    const details = page.getByTestId('asset-details');
    await expect
      .poll(() => badge(details, 'asset-status'))
      .toMatchObject({ status: 'alarm', alarm: 'Spindle overspeed' });
    expect(await details.getByText('OK', { exact: true }).count()).toBe(0);

    // A boolean stream: steps, On and Off on its axis and under the pointer, time On and changes.
    await tab.navigateInApp(`/app/devices/${gw.assetId}/input/${stream('Running')}`);
    // The last 2 hours (the shared range, kept for the other streams below).
    await page.getByTestId('date-range').getByText('2 h', { exact: true }).click();
    const chart = page.getByTestId('stream-chart');
    await expect.poll(async () => Number(await chart.getAttribute('data-points'))).toBe(115);
    expect(await chart.getAttribute('data-stepped')).toBe('true');
    await expect
      .poll(async () => (await axisLabels(page, 'y')).map((l) => l.text))
      .toEqual(['Off', 'On']);
    // Half way is an hour ago: off (minutes 40 to 70 of the two hours).
    await expect
      .poll(async () => {
        await pointAt(page, 0.5);
        return pointerValue(page);
      })
      .toBe('Off');
    await expect
      .poll(async () => {
        await pointAt(page, 0.1);
        return pointerValue(page);
      })
      .toBe('On');
    expect(await page.locator('[data-metric="avg"]').count()).toBe(0);
    expect(await page.locator('[data-metric="min"]').count()).toBe(0);
    expect(await metric(page, 'changes')).toBe('2');
    expect(await metric(page, 'last')).toBe('On');
    // On 85 of the 115 minutes (the last until now, a minute on).
    expect(await metric(page, 'on')).toMatch(/^7\d\s?%$/);

    // A state stream: steps labelled by its state texts.
    await tab.navigateInApp(`/app/devices/${gw.assetId}/input/${stream('Operating mode')}`);
    // The last page's chart stays until the router renders the new one (same points, stepped).
    await expect.poll(() => chart.getAttribute('aria-label')).toContain('Operating mode');
    await expect.poll(async () => Number(await chart.getAttribute('data-points'))).toBe(115);
    expect(await chart.getAttribute('data-stepped')).toBe('true');
    await expect
      .poll(async () => (await axisLabels(page, 'y')).map((l) => l.text))
      .toEqual(['Off', 'Automatic', 'Manual', 'Fault']);
    await expect
      .poll(async () => {
        await pointAt(page, 0.4);
        return pointerValue(page);
      })
      .toBe('Manual');
    expect(await metric(page, 'changes')).toBe('3');
    expect(await metric(page, 'last')).toBe('Fault');
    expect(await page.locator('[data-metric="avg"]').count()).toBe(0);

    // A number: the value under the pointer with its unit, isolated together.
    await tab.navigateInApp(`/app/devices/${gw.assetId}/input/${stream('Spindle speed')}`);
    await expect.poll(() => chart.getAttribute('aria-label')).toContain('Spindle speed');
    await expect
      .poll(async () => Number(await chart.getAttribute('data-points')))
      .toBeGreaterThanOrEqual(115);
    expect(await chart.getAttribute('data-stepped')).toBe('false');
    await expect
      .poll(async () => {
        await pointAt(page, 0.5);
        return pointerValue(page);
      })
      .toMatch(/^\u20681,0\d\d rpm\u2069$/);

    // A moving range slides with each answer (here the tail's refill brings a new value): the
    // chart stays the one it was. A new uPlot for each slide lost a drag-zoom under way.
    await chart.locator('.uplot').evaluate((el) => el.setAttribute('data-kept', 'yes'));
    const shown = Number(await chart.getAttribute('data-points'));
    await stored([{ stream: stream('Spindle speed'), ts: Date.now(), value: 1200 }]);
    await expect
      .poll(async () => Number(await chart.getAttribute('data-points')), { timeout: 60_000 })
      .toBeGreaterThan(shown);
    expect(await chart.locator('.uplot[data-kept="yes"]').count()).toBe(1);

    // Zoom by dragging, then a double-click goes back to the last 2 hours.
    const rangeButton = page.getByTestId('date-range').getByRole('button');
    expect(await rangeButton.textContent()).toBe('Last 2 hours');
    const over = await chart.locator('.u-over').boundingBox();
    if (over === null) throw new Error('no plot area');
    await page.mouse.move(over.x + over.width * 0.3, over.y + over.height / 2);
    await page.mouse.down();
    await page.mouse.move(over.x + over.width * 0.5, over.y + over.height / 2, { steps: 5 });
    await page.mouse.up();
    await expect.poll(() => rangeButton.textContent()).not.toBe('Last 2 hours');
    await chart.locator('.u-over').dblclick();
    await expect.poll(() => rangeButton.textContent()).toBe('Last 2 hours');

    // The custom range popover fits its buttons, on a desktop and on a tablet.
    expect(await popoverFits(page)).toEqual([]);
    await page.setViewportSize({ width: 1024, height: 768 });
    expect(await popoverFits(page)).toEqual([]);

    // The tablet: the chart's axis labels do not collide, over 2 hours and over 7 days.
    for (const quick of ['2 h', '7 d']) {
      await page.getByTestId('date-range').getByText(quick, { exact: true }).click();
      await expect
        .poll(async () => Number(await chart.locator('.uplot').getAttribute('data-plot-width')))
        .toBeLessThan(1024);
      await expect.poll(async () => (await axisLabels(page, 'x')).length).toBeGreaterThan(2);
      const xs = await axisLabels(page, 'x');
      expect(collisions(xs, 4), quick).toEqual([]);
      const width = Number(await chart.locator('.uplot').getAttribute('data-plot-width'));
      expect(xs.every((l) => l.start >= 0 && l.end <= width + 20)).toBe(true);
      expect(collisions(await axisLabels(page, 'y'), 0), quick).toEqual([]);
    }

    // In German (longer words: "Anzeigen" did not fit beside the two fields), tablet and desktop.
    await new ShellPage(page).choosePreference('Deutsch');
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('de');
    expect(await popoverFits(page)).toEqual([]);
    await page.setViewportSize({ width: 1440, height: 900 });
    expect(await popoverFits(page)).toEqual([]);
  });
});
