import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiPaths, type PointValue } from '@plant/shared-schema';
import { DEMO_USERS } from '../server/src/seed/demo';
import { AssetAccessRepository } from '../server/src/repositories/asset-access.repository';
import { roleId } from '../server/src/testing/access';
import { demoGateway, linkedAgent } from '../server/src/testing/gateway-client';
import { dataOf } from '../server/src/testing/harness';
import { E2e } from './support/fixture';

/*
 * Dashboard widgets (issue 31 items 2 and 3), as a technician who sees 4 of the 12 machines
 * sees them: a value, a line chart and a gauge over a stream of a machine it sees, live; a
 * widget over a stream of a machine it does not see says 'Not available' and shows nothing of
 * it. Offline after a reload, the dashboard and its charts draw from the worker's caches and say
 * which part of the range they hold; back online, the note goes.
 */
let e2e: E2e;
let seq = 0;

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'));
});
afterAll(() => e2e.close());

/** Values straight into the server's time-series store (history older than the test). */
async function stored(
  account: string,
  points: { stream: string; ts: number; value: PointValue }[],
) {
  seq += 1;
  await e2e.server.machineData.store.append({
    source: 'e2e-dashboard-widgets',
    seq,
    points: points.map((p) => ({ ...p, account })),
  });
}

/** What a line chart showed as it joined the page, by the mark its canvas had before it left. */
type Joined = Record<'label' | 'hidden' | 'drawn' | 'points', string | null>;

/**
 * In the page: once the canvas marked `mark` joins the widget `widget` (its id), notes what its
 * chart shows at that moment (before anything else can change it), for `joined`.
 */
function watchJoining({ mark, widget }: { mark: string; widget: string }): void {
  const seen = window as unknown as { __joined?: Record<string, Joined> };
  new MutationObserver((_records, observer) => {
    const box = document
      .querySelector(
        `[data-testid="widget-body"][data-widget="${widget}"] canvas[data-e2e-mark="${mark}"]`,
      )
      ?.closest('[data-testid="widget-line"]');
    if (box === null || box === undefined) return;
    observer.disconnect();
    const row = box.querySelectorAll('.u-legend .u-series')[1];
    seen.__joined = {
      ...seen.__joined,
      [mark]: {
        label: row?.textContent ?? null,
        hidden: String(row?.classList.contains('u-off')),
        drawn: box.getAttribute('data-drawn-points'),
        points: box.getAttribute('data-points'),
      },
    };
  }).observe(document.body, { childList: true, subtree: true });
}

/** In the page: what `watchJoining` noted for `mark`. */
function joined(mark: string): Joined {
  const seen = window as unknown as { __joined?: Record<string, Joined> };
  const found = seen.__joined?.[mark];
  if (found === undefined) throw new Error(`the chart marked ${mark} did not join the page`);
  return found;
}

describe('dashboard widgets', () => {
  it("live values move the value widget; offline after a reload the charts draw from the cache and say what they hold; a stream the user may not see is 'not available'", async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const technician = await roleId(e2e.server.db, admin.accountId, 'technician');
    const grants = await new AssetAccessRepository(e2e.server.db).grantsOf(admin.accountId, [
      technician,
    ]);
    const seen = new Set(grants.assets.map((a) => a.asset_id));
    // A demo gateway whose machine the technician sees, and one whose machine it does not.
    let visible: Awaited<ReturnType<typeof demoGateway>> | undefined;
    let hidden: Awaited<ReturnType<typeof demoGateway>> | undefined;
    for (let i = 0; i < 12 && (visible === undefined || hidden === undefined); i++) {
      const gw = await demoGateway(e2e.server, admin.accountId, i);
      if (seen.has(gw.assetId)) visible ??= gw;
      else hidden ??= gw;
    }
    if (visible === undefined || hidden === undefined) throw new Error('no demo machines');
    const temp = visible.streams['Motor temperature'] ?? '';
    const secret = hidden.streams['Motor temperature'] ?? '';
    const now = Date.now();
    // One value a minute over the last two hours.
    await stored(
      admin.accountId,
      Array.from({ length: 115 }, (_, i) => ({
        stream: temp,
        ts: now - (115 - i) * 60_000,
        value: 40 + (i % 10),
      })),
    );
    await stored(admin.accountId, [{ stream: secret, ts: now - 60_000, value: 99.5 }]);

    const widget = (id: string, type: string, x: number, streams: string[]) => ({
      id,
      type,
      x,
      y: 0,
      w: 6,
      h: 6,
      title: null,
      streams,
      options: type === 'gauge' ? { min: 0, max: 100 } : {},
    });
    const made = await e2e.server.call('POST', apiPaths.collection('dashboards'), {
      token: admin.token,
      json: {
        name: 'Widgets under test',
        widgets: [
          widget('now', 'value', 0, [temp]),
          widget('chart', 'line', 6, [temp]),
          widget('dial', 'gauge', 12, [temp]),
          widget('secret', 'value', 18, [secret]),
          { ...widget('bars', 'bar', 0, [temp]), y: 6, w: 12 },
        ],
      },
    });
    expect(made.status, made.text).toBe(201);
    const dashboardId = dataOf<{ id: string }>(made).id;

    const tab = await e2e.signedInApp(DEMO_USERS.tech, `/app/dashboards/${dashboardId}`);
    const page = tab.page;
    const body = (id: string) => page.locator(`[data-testid="widget-body"][data-widget="${id}"]`);
    const value = body('now').getByTestId('widget-value-text');
    const chart = body('chart').getByTestId('widget-line');
    const dial = body('dial').getByTestId('widget-gauge-dial');

    // The history of the range, drawn; the latest value on the value widget and the gauge.
    await expect.poll(async () => Number(await chart.getAttribute('data-points'))).toBe(115);
    // The plot takes its cell but for the legend below it, once uPlot's stylesheet has laid the
    // legend out in a line (measured before that, the legend took the cell and the plot 80 px).
    const free = () =>
      chart.evaluate((box) => {
        const wrap = box.querySelector('.u-wrap')?.clientHeight ?? 0;
        const legend = box.querySelector<HTMLElement>('.u-legend')?.offsetHeight ?? 0;
        return box.clientHeight - wrap - legend;
      });
    await expect.poll(free).toBeLessThanOrEqual(8);
    await expect.poll(() => value.textContent()).toBe('44 °C');
    // The stream the technician may not see: 'Not available', nothing of its values.
    await expect.poll(() => body('secret').getByTestId('widget-not-available').count()).toBe(1);
    expect(await body('secret').textContent()).not.toContain('99.5');
    // The bar chart per hour, from the server's exact hourly sums (the range touches 3 hours).
    const bars = body('bars').getByTestId('widget-bar-stream');
    await expect.poll(() => bars.getAttribute('data-exact')).toBe('true');
    expect(Number(await bars.getAttribute('data-bars'))).toBeGreaterThanOrEqual(2);
    expect(
      await bars.locator('[role="listitem"][data-value]:not([data-value=""])').count(),
    ).toBeGreaterThanOrEqual(2);

    // Live values move the value widget and the gauge, without a reload.
    await page.evaluate('window.__notReloaded = true');
    const agent = await linkedAgent(e2e.server, admin.token, visible.gatewayId, 'e2e-widgets');
    await agent.send([{ stream: temp, ts: Date.now(), value: 71.25 }]);
    await expect.poll(() => value.textContent()).toBe('71.25 °C');
    await agent.send([{ stream: temp, ts: Date.now(), value: 72.5 }]);
    await expect.poll(() => value.textContent()).toBe('72.5 °C');
    await expect.poll(() => dial.getAttribute('data-value')).toBe('72.5');
    expect(await page.evaluate('window.__notReloaded')).toBe(true);
    // The chart takes the live values too.
    await expect
      .poll(async () => Number(await chart.getAttribute('data-points')))
      .toBeGreaterThan(115);
    expect(await body('chart').getByTestId('widget-coverage').count()).toBe(0);

    // Opened again soon, the chart is the one made before (its canvas kept, not made anew), and
    // it joins the page as a new chart would: with what came meanwhile (a value and the stream's
    // new name, both seen on the stream's page in between) and every series shown.
    // Both live values in the chart first (115 + 2), and its series hidden by a legend click.
    const pointsBefore = 117;
    await expect.poll(async () => Number(await chart.getAttribute('data-points'))).toBe(117);
    await expect.poll(() => chart.getAttribute('data-drawn-points')).toBe('117');
    const streamRow = chart.locator('.u-legend .u-series').nth(1);
    await streamRow.click();
    await expect.poll(() => streamRow.getAttribute('class')).toContain('u-off');
    await chart.locator('canvas').evaluate((c) => c.setAttribute('data-e2e-mark', 'before'));
    await tab.navigateInApp(`/app/devices/${visible.assetId}/input/${temp}`);
    await page.getByTestId('stream-page').waitFor();
    await agent.send([{ stream: temp, ts: Date.now(), value: 74.25 }]);
    const renamed = await e2e.server.call('PUT', apiPaths.model('datastreams', temp), {
      token: admin.token,
      json: { name: 'Motor temperature (spindle)' },
    });
    expect(renamed.status, renamed.text).toBe(200);
    await expect
      .poll(() => page.locator('main h1').textContent())
      .toContain('Motor temperature (spindle)');
    await expect
      .poll(() => page.locator('[data-metric="last"] dd').textContent())
      .toContain('74.25');
    // What the kept chart holds as it joins the page, before anything else can change it.
    await page.evaluate(watchJoining, { mark: 'before', widget: 'chart' });
    await tab.navigateInApp(`/app/dashboards/${dashboardId}`);
    await expect.poll(() => chart.locator('canvas[data-e2e-mark="before"]').count()).toBe(1);
    const kept = await page.evaluate(joined, 'before');
    // As a new chart joins: its new name, its series shown, the points the widget has.
    expect(kept.label).toContain('Motor temperature (spindle)');
    expect(kept.hidden).toBe('false');
    expect(kept.drawn).toBe(kept.points);
    await expect
      .poll(async () => Number(await chart.getAttribute('data-drawn-points')))
      .toBe(pointsBefore + 1);
    expect(await chart.getAttribute('data-points')).toBe(String(pointsBefore + 1));

    // Another dashboard whose chart is made the same way (a template's dashboard of another
    // machine) takes the chart this one leaves, drawn with its own points (its last hour).
    const same = await e2e.server.call('POST', apiPaths.collection('dashboards'), {
      token: admin.token,
      json: {
        name: 'Made the same way',
        range: { kind: 'relative', last: 1, unit: 'hours' },
        widgets: [widget('again', 'line', 0, [temp])],
      },
    });
    expect(same.status, same.text).toBe(201);
    await chart.locator('canvas').evaluate((c) => c.setAttribute('data-e2e-mark', 'left'));
    await page.evaluate(watchJoining, { mark: 'left', widget: 'again' });
    await tab.navigateInApp(`/app/dashboards/${dataOf<{ id: string }>(same).id}`);
    const again = body('again').getByTestId('widget-line');
    await expect.poll(() => again.locator('canvas[data-e2e-mark="left"]').count()).toBe(1);
    const taken = await page.evaluate(joined, 'left');
    expect(taken.drawn).toBe(taken.points);
    expect(Number(taken.points)).toBeGreaterThan(50);
    expect(Number(taken.points)).toBeLessThan(pointsBefore - 40);
    await tab.navigateInApp(`/app/dashboards/${dashboardId}`);
    await expect.poll(() => chart.getAttribute('data-drawn-points')).toBe(String(pointsBefore + 1));

    // Offline, and a reload: everything from the worker's caches, saying what it holds.
    e2e.offline();
    await tab.reload();
    await expect.poll(() => page.getByTestId('dashboard').count()).toBe(1);
    await expect
      .poll(async () => Number(await chart.getAttribute('data-points')))
      .toBeGreaterThanOrEqual(115);
    const note = body('chart').getByTestId('widget-coverage');
    await expect.poll(() => note.count()).toBe(1);
    expect(await note.textContent()).toMatch(/^Showing .+ \(offline\)$/);
    expect(['full', 'part']).toContain(await note.getAttribute('data-coverage'));
    await expect.poll(() => value.textContent()).toBe('74.25 °C');
    // Marked: the last known value (or why it is not to be believed), not a live one.
    expect(await body('now').locator('[data-testid^="stream-value-"]').count()).toBe(1);
    await expect.poll(() => dial.getAttribute('data-value')).toBe('74.25');
    expect(await body('secret').getByTestId('widget-not-available').count()).toBe(1);

    // Back online: the gaps fill and the note goes.
    e2e.online();
    await expect.poll(() => note.count(), { timeout: 60_000 }).toBe(0);
    await agent.send([{ stream: temp, ts: Date.now(), value: 73.75 }]);
    await expect.poll(() => value.textContent(), { timeout: 30_000 }).toBe('73.75 °C');
    await agent.close();
  });
});
