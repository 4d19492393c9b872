import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import {
  apiPaths,
  type AlarmAttributes,
  type AlarmEvent,
  type PointValue,
} from '@plant/shared-schema';
import { dataOf } from '../server/src/testing/harness';
import { DEMO_USERS } from '../server/src/seed/demo';
import { demoGateway } from '../server/src/testing/gateway-client';
import { roleMember } from '../server/src/testing/role-member';
import { E2e } from './support/fixture';

/*
 * Event inspection (issue 37 item 5) in Chromium against the real server: opened from a raised
 * alarm, it shows every stream of the asset around the alarm's moment on one time axis, the
 * moment and the alarm's transitions marked (drawn on each chart's canvas), a cursor shared by
 * the charts, a window that moves; the row of the same raise in the alarm's history opens the
 * same inspection. A colleague who sees the asset (and may not change it) opens the link, sees
 * the same inspection and adds a note the first user sees arrive; one who does not see the asset
 * gets nothing. At 1024 x 768.
 */
let e2e: E2e;
let admin: Awaited<ReturnType<E2e['session']>>;
let gw: Awaited<ReturnType<typeof demoGateway>>;
let alarmId = '';
let seq = 0;
const MINUTE = 60_000;
const COLLEAGUE = { email: 'colleague@inspection.test', password: 'member-pass-1' };
/** The streams of a demo machine, each with values every 10 s over the last 40 minutes. */
const STREAMS = ['Motor temperature', 'Spindle speed', 'Running', 'Oil pressure', 'Operating mode'];

function stream(name: string): string {
  const id = gw.streams[name];
  if (id === undefined) throw new Error(`no stream ${name}`);
  return id;
}

/** Points as ingest stores them, then (`evaluate`) judged by the alarms as ingest does. */
async function ingest(
  points: { stream: string; ts: number; value: PointValue }[],
  evaluate = false,
) {
  seq += 1;
  await e2e.server.machineData.store.append({
    source: 'e2e-inspection',
    seq,
    points: points.map((p) => ({ ...p, account: admin.accountId })),
  });
  if (evaluate) await e2e.server.machineData.alarms.evaluate(admin.accountId, points);
}

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'));
  admin = await e2e.session(DEMO_USERS.admin);
  // A machine the technician does not see (it sees the first four of the twelve).
  const tech = await e2e.session(DEMO_USERS.tech);
  const seen = new Set((await e2e.server.snapshot(tech.token)).map((m) => m.id));
  for (let i = 4; i < 12; i++) {
    gw = await demoGateway(e2e.server, admin.accountId, i);
    if (!seen.has(gw.assetId)) break;
  }
  expect(seen.has(gw.assetId)).toBe(false);
  await roleMember(e2e.server, {
    adminToken: admin.token,
    accountId: admin.accountId,
    name: 'Colleague',
    permissions: ['asset::view', 'datastream::view'],
    domain: 'inspection.test',
    assets: 'all',
  });
  const made = await e2e.server.call('POST', apiPaths.collection('alarms'), {
    token: admin.token,
    json: {
      asset_id: gw.assetId,
      datastream_id: stream('Oil pressure'),
      name: 'Oil pressure high',
      upper_limit: 200,
      severity: 'critical',
    },
  });
  expect(made.status, made.text).toBe(201);
  alarmId = dataOf<{ id: string }>(made).id;

  // 40 minutes of every stream, a value every 10 s; the oil pressure over its limit from 13 to
  // 9 minutes ago and again from 5 minutes ago: raised, cleared, raised (still active).
  const now = Date.now();
  const times = Array.from({ length: 240 }, (_, i) => now - 40 * MINUTE + i * 10_000);
  const over = (ts: number) =>
    (ts >= now - 13 * MINUTE && ts < now - 9 * MINUTE) || ts >= now - 5 * MINUTE;
  await ingest([
    ...times.map((ts, i) => ({ stream: stream('Motor temperature'), ts, value: 60 + (i % 20) })),
    ...times.map((ts, i) => ({ stream: stream('Spindle speed'), ts, value: 1000 + 10 * i })),
    ...times.map((ts, i) => ({ stream: stream('Running'), ts, value: i % 30 < 20 ? 1 : 0 })),
    ...times.map((ts, i) => ({ stream: stream('Operating mode'), ts, value: (i % 3) + 1 })),
  ]);
  await ingest(
    times.map((ts) => ({ stream: stream('Oil pressure'), ts, value: over(ts) ? 210 : 150 })),
    true,
  );
});
afterAll(() => e2e.close());

const charts = (page: Page) => page.getByTestId('inspection-chart');

/** A chart's drawn marks (where each line was drawn on its canvas). */
async function drawnMarks(chart: Locator): Promise<{ kind: string; x: number }[]> {
  const text = await chart.locator('.uplot').getAttribute('data-marks');
  return JSON.parse(text ?? '[]') as { kind: string; x: number }[];
}

/** Whether the chart's canvas has a pixel of this colour in the column at x (CSS px). */
function columnHasColour(chart: Locator, x: number, rgb: readonly number[]): Promise<boolean> {
  return chart.locator('canvas').evaluate(
    (canvas: HTMLCanvasElement, [cx, colour]) => {
      const ratio = canvas.width / canvas.getBoundingClientRect().width;
      const ctx = canvas.getContext('2d');
      if (ctx === null) return false;
      const column = ctx.getImageData(Math.round(cx * ratio), 0, 1, canvas.height).data;
      for (let i = 0; i < column.length; i += 4) {
        const close = [0, 1, 2].every(
          (k) => Math.abs((column[i + k] ?? 0) - (colour[k] ?? 0)) < 24,
        );
        if (close && (column[i + 3] ?? 0) > 200) return true;
      }
      return false;
    },
    [x, rgb] as const,
  );
}

describe('event inspection', () => {
  let link = '';
  let inspectionId = '';

  it('opened from a raised alarm shows every stream of the asset around it, the moment and the transitions marked', async () => {
    const alarm = (await e2e.serverModels(admin.accountId, 'alarm')).find((m) => m.id === alarmId);
    const raisedAt = (alarm?.attributes as AlarmAttributes | undefined)?.status?.raised_at ?? 0;
    expect(raisedAt).toBeGreaterThan(0);
    const tab = await e2e.signedInApp(DEMO_USERS.admin, `/app/alarms/${alarmId}`);
    const page = tab.page;
    page.setDefaultTimeout(30_000);
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.getByTestId('alarm-page').waitFor();
    const header = page
      .getByTestId('alarm-page')
      .locator(`[data-testid="inspect-event"][data-at="${raisedAt}"]`);
    await header.first().click();
    await tab.waitForPath(/\/eventinspection\//);
    const view = page.getByTestId('inspection');
    await view.waitFor();
    inspectionId = (await view.getAttribute('data-id')) ?? '';
    expect(tab.path()).toBe(`/app/devices/${gw.assetId}/eventinspection/${inspectionId}`);
    expect(Number(await view.getAttribute('data-at'))).toBe(raisedAt);
    // The breadcrumb names the inspection by its moment, not by its id's end.
    const named = await page.evaluate(
      (at) => new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' }).format(at),
      raisedAt,
    );
    await expect.poll(() => page.getByTestId('breadcrumb-item').last().textContent()).toBe(named);

    // Every stream of the asset, each a chart with values before and after the moment.
    await expect.poll(() => charts(page).count()).toBe(STREAMS.length);
    expect(
      (
        await charts(page).evaluateAll((els) => els.map((e) => e.getAttribute('data-stream')))
      ).sort(),
    ).toEqual(STREAMS.map(stream).sort());
    for (let i = 0; i < STREAMS.length; i++) {
      const chart = charts(page).nth(i);
      await expect.poll(() => chart.locator('canvas').count()).toBe(1);
      await expect
        .poll(async () => Number(await chart.getAttribute('data-points')))
        .toBeGreaterThan(0);
      expect(Number(await chart.getAttribute('data-first'))).toBeLessThan(raisedAt);
      expect(Number(await chart.getAttribute('data-last'))).toBeGreaterThan(raisedAt);
    }
    // The window: 30 minutes each side of the moment.
    const window = page.getByTestId('inspection-window');
    expect(Number(await window.getAttribute('data-from'))).toBe(raisedAt - 30 * MINUTE);
    expect(Number(await window.getAttribute('data-to'))).toBe(raisedAt + 30 * MINUTE);

    // The transitions are the alarm's history within the window, as the server keeps it.
    const history = dataOf<{ events: AlarmEvent[] }>(
      await e2e.server.call('GET', `${apiPaths.alarmHistory(alarmId)}?limit=100`, {
        token: admin.token,
      }),
    ).events.filter((e) => e.ts >= raisedAt - 30 * MINUTE);
    const kinds = history.map((e) => e.kind).sort();
    expect(kinds).toContain('raised');
    expect(kinds).toContain('cleared');
    await expect
      .poll(async () =>
        (
          await page
            .getByTestId('inspection-mark')
            .evaluateAll((els) => els.map((e) => e.getAttribute('data-kind')))
        ).sort(),
      )
      .toEqual(kinds);
    expect(await page.getByTestId('inspection-mark-moment').count()).toBe(1);
    // Drawn on every chart: the moment dashed orange, the clear green, at their places.
    for (let i = 0; i < STREAMS.length; i++) {
      const chart = charts(page).nth(i);
      await expect.poll(async () => (await drawnMarks(chart)).length).toBe(kinds.length + 1);
    }
    const first = charts(page).first();
    const marks = await drawnMarks(first);
    const moment = marks.find((m) => m.kind === 'moment');
    const cleared = marks.find((m) => m.kind === 'cleared');
    expect(await columnHasColour(first, moment?.x ?? -1, [240, 140, 0])).toBe(true);
    expect(await columnHasColour(first, cleared?.x ?? -1, [47, 158, 68])).toBe(true);
    // One time axis: the moment at the same place on every chart.
    const xs = new Set<number>();
    for (let i = 0; i < STREAMS.length; i++) {
      xs.add((await drawnMarks(charts(page).nth(i))).find((m) => m.kind === 'moment')?.x ?? -1);
    }
    expect([...xs]).toEqual([moment?.x]);

    // One cursor: pointing at one chart shows the cursor on another at the same place.
    const over = first.locator('.u-over');
    const box = await over.boundingBox();
    if (box === null) throw new Error('no plot');
    await page.mouse.move(box.x + box.width / 3, box.y + box.height / 2);
    const cursorOf = (chart: Locator) =>
      chart.locator('.u-cursor-x').evaluate((el) => ({
        off: el.classList.contains('u-off'),
        x: Number(/translate\(([-\d.]+)px/.exec((el as HTMLElement).style.transform)?.[1]),
      }));
    await expect.poll(async () => (await cursorOf(charts(page).nth(3))).off).toBe(false);
    const there = (await cursorOf(charts(page).nth(3))).x;
    expect(Math.abs(there - (await cursorOf(first)).x)).toBeLessThanOrEqual(1);

    // The window narrows to ±5 minutes and moves later: kept in the inspection.
    await page.getByTestId('inspection-span-5').click();
    await expect
      .poll(async () => Number(await window.getAttribute('data-from')))
      .toBe(raisedAt - 5 * MINUTE);
    await page.getByTestId('inspection-later').click();
    await expect
      .poll(async () => Number(await window.getAttribute('data-from')))
      .toBe(raisedAt - 2.5 * MINUTE);
    await expect
      .poll(async () => {
        const stored = (await e2e.serverModels(admin.accountId, 'inspection')).find(
          (m) => m.id === inspectionId,
        );
        return [stored?.attributes.before_ms, stored?.attributes.after_ms];
      })
      .toEqual([2.5 * MINUTE, 7.5 * MINUTE]);
    await expect
      .poll(async () => Number(await charts(page).first().getAttribute('data-first')))
      .toBeGreaterThanOrEqual(raisedAt - 2.5 * MINUTE);

    // The history's row of the same raise opens the same inspection.
    await tab.navigateInApp(`/app/alarms/${alarmId}`);
    const row = page.locator('[data-testid="alarm-event"][data-kind="raised"]').filter({
      has: page.locator(`[data-testid="inspect-event"][data-at="${raisedAt}"]`),
    });
    await row.getByTestId('inspect-event').click();
    await tab.waitForPath(/\/eventinspection\//);
    expect(tab.path()).toBe(`/app/devices/${gw.assetId}/eventinspection/${inspectionId}`);
    link = await page.getByTestId('inspection-link').inputValue();
    expect(new URL(link).pathname).toBe(tab.path());

    // Offline, and a reload: the charts from the worker's values cache, saying what it holds.
    e2e.offline();
    try {
      await tab.reload();
      await expect.poll(() => charts(page).count()).toBe(STREAMS.length);
      for (let i = 0; i < STREAMS.length; i++) {
        const chart = charts(page).nth(i);
        await expect
          .poll(async () => Number(await chart.getAttribute('data-points')))
          .toBeGreaterThan(0);
        await expect.poll(() => chart.locator('canvas').count()).toBe(1);
      }
      const note = page.getByTestId('widget-coverage');
      await expect.poll(() => note.count()).toBe(1);
      expect(await note.textContent()).toMatch(/\(offline\)$/);
    } finally {
      e2e.online();
    }
  });

  it('a colleague who sees the asset opens the link and sees the same inspection; one who does not, does not', async () => {
    expect(link).not.toBe('');
    const path = new URL(link).pathname;
    const colleague = await e2e.openApp(await e2e.browser(), '/user/login');
    await colleague.page.setViewportSize({ width: 1024, height: 768 });
    await colleague.signInTo(COLLEAGUE.email, path, COLLEAGUE.password);
    const view = colleague.page.getByTestId('inspection');
    await view.waitFor();
    expect(await view.getAttribute('data-id')).toBe(inspectionId);
    await expect.poll(() => charts(colleague.page).count()).toBe(STREAMS.length);
    await expect
      .poll(async () =>
        Number(await colleague.page.getByTestId('inspection-window').getAttribute('data-from')),
      )
      .toBeGreaterThan(0);
    // The window the first user left, not the default.
    expect(
      Number(await colleague.page.getByTestId('inspection-window').getAttribute('data-to')) -
        Number(await colleague.page.getByTestId('inspection-window').getAttribute('data-from')),
    ).toBe(10 * MINUTE);

    // A note of the colleague's (who may not change the asset) reaches the first user live.
    const mine = await e2e.signedInApp(DEMO_USERS.admin, path);
    await mine.page.getByTestId('inspection-no-notes').waitFor();
    await colleague.page
      .getByTestId('inspection-note-text')
      .fill('Pressure rose before the mode changed.');
    await colleague.page.getByTestId('inspection-note-add').click();
    await expect
      .poll(async () =>
        (await e2e.serverModels(admin.accountId, 'inspection_note')).map((m) => m.attributes.text),
      )
      .toEqual(['Pressure rose before the mode changed.']);
    await expect
      .poll(() => mine.page.getByTestId('inspection-note').first().textContent())
      .toContain('Pressure rose before the mode changed.');
    // The author's name comes with the user's own model, which may sync a moment later.
    await expect
      .poll(() => mine.page.getByTestId('inspection-note').first().textContent())
      .toContain('Colleague');

    // The technician does not see this machine: the link shows nothing of it.
    const outsider = await e2e.signedInApp(DEMO_USERS.tech, path);
    await outsider.page.getByTestId('inspection-not-found').waitFor();
    expect(await outsider.page.getByTestId('inspection').count()).toBe(0);
    expect(await outsider.page.getByTestId('inspection-chart').count()).toBe(0);
  });
});
