import { rm } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { createRequire } from 'node:module';
import {
  apiPaths,
  MAX_VALUE_POINTS,
  type StreamValues,
  type SyncedModel,
} from '@plant/shared-schema';
import { DEMO_USERS } from '../server/src/seed/demo';
import { dataOf } from '../server/src/testing/harness';
import { E2e } from '../e2e/support/fixture';
import { buildClient } from '../e2e/support/web';
import { median, ms } from './browser-env';

/*
 * Issue 37 item 5's benchmark, the production build in headless Chromium, measured as the
 * dashboard's (dashboard.bench.ts): an event inspection of an asset with 20 streams over ±30 min
 * of 1 s data (3,600 points a stream, 72,000 in all, in the server's store and, after the first
 * round, in the worker's values cache), opened in the app (a navigation inside the signed-in
 * app: the inspection and the asset's streams from the local store, each stream's M4 points
 * through the shared reads in one values.watchMany, the charts drawn) until every chart has
 * drawn its points, against uPlot drawing the same M4 points already in a page (20 charts of the
 * same size, with their legends). Target: at most 1.5.
 */

const STREAMS = 20;
const SIDE_S = 30 * 60;
const ROUNDS = Number(process.env.BENCH_INSPECTION_ROUNDS ?? 6);
const WARM_UP = 1;
/** The charts' points per stream (client/src/features/dashboards/widgets/shared-reads.ts). */
const WIDGET_POINTS = 800;
/** The inspection's plot height (client/src/features/inspection/inspection-charts.tsx). */
const PLOT_HEIGHT = 120;

/**
 * Resolves with performance.now() when the inspection page showed (its charts' box in the DOM)
 * and when all charts have drawn their points (uPlot's canvas in the chart, points there),
 * checked at the start of every frame, as the baseline's moment is. Started in the page in the
 * same task as the navigation (NAVIGATE): a check started by a later evaluate came a CDP round
 * trip late, up to 300 ms on a busy machine, and counted that instead of the page's frames.
 */
const ALL_DRAWN = `new Promise((resolve) => {
  let shown = null;
  const check = () => {
    if (shown === null && document.querySelector('[data-testid="inspection-charts"]') !== null) shown = performance.now();
    const charts = document.querySelectorAll('[data-testid="inspection-chart"]');
    const drawn = [...charts].filter(
      (c) => Number(c.getAttribute('data-points')) > 0 && c.querySelector('canvas') !== null,
    );
    if (drawn.length === ${STREAMS}) resolve({ shown, drawn: performance.now() });
    else requestAnimationFrame(check);
  };
  check();
})`;

/** The watch NAVIGATE started, awaited. */
const DRAWN = 'window.__inspectionDrawn';

interface Drawn {
  readonly shown: number;
  readonly drawn: number;
}

/** The baseline: the charts drawn by uPlot in the page; answers the ms to the frame after. */
const DRAW_DIRECT = (series: readonly (readonly [number[], number[]])[], width: number) => `(() => {
  const series = ${JSON.stringify(series)};
  document.body.innerHTML = '';
  const start = performance.now();
  for (const [xs, ys] of series) {
    const el = document.createElement('div');
    document.body.appendChild(el);
    new uPlot({
      width: ${width},
      height: ${PLOT_HEIGHT},
      scales: { x: { time: true } },
      series: [{}, { stroke: '#228be6', width: 1.5, points: { show: false } }],
      legend: { show: true, live: true },
    }, [xs, ys], el);
  }
  return new Promise((resolve) => requestAnimationFrame(() => resolve(performance.now() - start)));
})()`;

export async function benchEventInspection(): Promise<string[]> {
  const dist = await buildClient();
  const e2e = await E2e.start(dist);
  try {
    const admin = await e2e.session(DEMO_USERS.admin);
    const post = async (collection: string, json: unknown) => {
      const answer = await e2e.server.call('POST', apiPaths.collection(collection), {
        token: admin.token,
        json,
      });
      if (answer.status !== 201 && answer.status !== 200)
        throw new Error(`${collection}: ${answer.status} ${answer.text}`);
      return answer;
    };
    const asset = dataOf<SyncedModel>(await post('assets', { name: 'Twenty streams' })).id;
    const group = dataOf<SyncedModel>(
      await post('datastreamgroups', { asset_id: asset, name: 'Everything' }),
    ).id;
    const made = await post(
      'datastreams',
      Array.from({ length: STREAMS }, (_, i) => ({
        batch_id: i,
        data: { asset_id: asset, group_id: group, name: `Stream ${i + 1}`, unit: '°C' },
      })),
    );
    const streams = dataOf<{ data: { data: SyncedModel } }[]>(made).map((d) => d.data.data.id);

    // ±30 min of one value a second per stream around a moment two hours ago (all settled, so
    // the worker's cache holds the whole window after the first round).
    const at = Math.floor(Date.now() / 1000) * 1000 - 2 * 3_600_000;
    let seq = 0;
    for (const [n, stream] of streams.entries()) {
      const points = [];
      for (let k = -SIDE_S; k < SIDE_S; k++) {
        points.push({
          stream,
          account: admin.accountId,
          ts: at + k * 1000,
          value: 50 + 10 * Math.sin((k + n * 60) / 300) + (k % 397 === 0 ? 25 : 0),
        });
      }
      seq += 1;
      await e2e.server.machineData.store.append({ source: 'bench-inspection', seq, points });
    }
    const inspection = dataOf<SyncedModel>(await post('inspections', { asset_id: asset, at })).id;
    const path = `/app/devices/${asset}/eventinspection/${inspection}`;

    const profile = await e2e.browser({ serviceWorkers: 'block' });
    const tab = await e2e.openApp(profile, '/user/login');
    const page = tab.page;
    await page.setViewportSize({ width: 1600, height: 1000 });
    await tab.signIn(DEMO_USERS.admin);
    await tab.goto('/app/home');
    await page.locator('[data-testid="bootstrap-progress"]').waitFor({ state: 'detached' });

    // ---- the baseline's page: the same M4 points, already in it, drawn by uPlot alone -----------
    const answer = await e2e.server.call(
      'GET',
      apiPaths.severalValues(
        streams,
        at - SIDE_S * 1000,
        at + SIDE_S * 1000,
        Math.min(MAX_VALUE_POINTS, WIDGET_POINTS),
      ),
      { token: admin.token },
    );
    const series = dataOf<StreamValues[]>(answer).map(
      (v) =>
        [v.points.map((p) => p[0] / 1000), v.points.map((p) => Number(p[1]))] as [
          number[],
          number[],
        ],
    );
    const m4Points = series.reduce((n, [xs]) => n + xs.length, 0);
    const blank = await profile.context.newPage();
    await blank.setViewportSize({ width: 1600, height: 1000 });
    const require = createRequire(import.meta.url);
    await blank.addScriptTag({ path: require.resolve('uplot/dist/uPlot.iife.min.js') });
    await blank.addStyleTag({ path: require.resolve('uplot/dist/uPlot.min.css') });

    // ---- rounds: opened in the app, then the baseline, one after the other ----------------------
    // Interleaved, so that what else the machine does at a moment (these 2 cores are shared)
    // weighs on both sides alike; a warm-up round of each first (the page's chunks, the worker's
    // cache, the JIT).
    const opened: number[] = [];
    const openedShown: number[] = [];
    const direct: number[] = [];
    let chartWidth = 0;
    for (let r = 0; r < ROUNDS + WARM_UP; r++) {
      await page.bringToFront();
      await tab.navigateInApp('/app/home');
      // The shared reads linger 2 s after the page leaves: gone before the next round.
      await page.waitForTimeout(2_500);
      const start = await page.evaluate<number>(NAVIGATE(path));
      const drawn = await page.evaluate<Drawn>(DRAWN);
      chartWidth ||= await page
        .locator('[data-testid="inspection-chart"] .uplot')
        .first()
        .evaluate((el) => Math.floor(el.getBoundingClientRect().width));
      await blank.bringToFront();
      const took = await blank.evaluate<number>(DRAW_DIRECT(series, chartWidth));
      if (r >= WARM_UP) {
        opened.push(drawn.drawn - start);
        openedShown.push(drawn.shown - start);
        direct.push(took);
      }
    }
    await page.bringToFront();
    await profileRound(page, path);
    await blank.close();
    await profile.close();

    const ours = median(opened);
    const base = median(direct);
    const paired = median(opened.map((o, i) => o / (direct[i] ?? o)));
    return [
      `event-inspection: ${(ours / base).toFixed(2)} (ours/baseline, target at most 1.5; ` +
        `${paired.toFixed(2)} the median of each round's pair) ` +
        `${STREAMS} streams over ±30 min of 1 s data (${(STREAMS * 2 * SIDE_S).toLocaleString('en')} ` +
        `points) opened in the app to every chart drawn ${ms(ours)} (the charts' box shown at ` +
        `${ms(median(openedShown))}; rounds ${opened.map((v) => v.toFixed(0)).join(', ')}); ` +
        `uPlot drawing the same ${m4Points} M4 points already in the page ${ms(base)} ` +
        `(${direct.map((v) => v.toFixed(0)).join(', ')})`,
    ];
  } finally {
    await e2e.close();
    await rm(dist, { recursive: true, force: true });
  }
}

/**
 * A navigation inside the app, as a link's: answers performance.now() at its start, with the
 * watch for the drawn charts (ALL_DRAWN) started just before it, awaited by DRAWN.
 */
const NAVIGATE = (to: string, watch = true) => `(() => {
  const started = performance.now();
  ${watch ? `window.__inspectionDrawn = ${ALL_DRAWN};` : ''}
  history.pushState(history.state, '', ${JSON.stringify(to)});
  dispatchEvent(new PopStateEvent('popstate', { state: history.state }));
  return started;
})()`;

/**
 * With BENCH_INSPECTION_PHASES=1, one more round printing when the page's `performance.mark`s
 * fell after the navigation (none are left in the app: add some to look inside).
 */
async function profileRound(page: Page, path: string): Promise<void> {
  if (process.env.BENCH_INSPECTION_PHASES !== '1') return;
  await page.evaluate(NAVIGATE('/app/home', false));
  await page.waitForTimeout(2_500);
  await page.evaluate('performance.clearMarks()');
  const start = await page.evaluate<number>(NAVIGATE(path));
  const drawn = await page.evaluate<Drawn>(DRAWN);
  process.stdout.write(`  shown: ${ms(drawn.shown - start)}, drawn: ${ms(drawn.drawn - start)}\n`);
  const marks = await page.evaluate<{ name: string; startTime: number }[]>(
    "performance.getEntriesByType('mark').map((m) => ({ name: m.name, startTime: m.startTime }))",
  );
  for (const m of marks) process.stdout.write(`  ${m.name}: ${ms(m.startTime - start)}\n`);
}
