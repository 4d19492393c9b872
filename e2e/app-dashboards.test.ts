import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { apiPaths, isolate, templateStreamKey, type TemplateGroup } from '@plant/shared-schema';
import { DEMO_DASHBOARD, DEMO_USERS } from '../server/src/seed/demo';
import { E2e } from './support/fixture';
import { ShellPage } from './support/pages/shell';
import { DeviceDetailsPage } from './support/pages/devices';

/*
 * Issue 31 item 1 and item 3's layout edits made offline: a dashboard made, three widgets added,
 * one moved and sized with the mouse, one with the keyboard, the layout held over a reload, the
 * name edited, an edit made offline landing once, the delete's question, a template's dashboard
 * carried into an asset made from it; a user without dashboard::edit gets no edit controls; the
 * demo's overview names same-named streams with their machines; a dashboard opened again (from
 * Home's "Recently opened") shows in its first render, and after a sign-out it waits for the store
 * again. The widgets' own content is the widgets' business
 * (asserted elsewhere): this asserts the grid.
 */
let e2e: E2e;

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'));
});
afterAll(() => e2e.close());

const places = (page: Page): Promise<Record<string, string | null>> =>
  page.getByTestId('dashboard-widget').evaluateAll((els) => {
    const out: Record<string, string | null> = {};
    for (const el of els) out[el.getAttribute('data-id') ?? ''] = el.getAttribute('data-place');
    return out;
  });

interface StoredWidget {
  id: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

async function serverPlaces(accountId: string, id: string): Promise<Record<string, string>> {
  const board = (await e2e.serverModels(accountId, 'dashboard')).find((d) => d.id === id);
  const widgets = (board?.attributes['widgets'] ?? []) as StoredWidget[];
  return Object.fromEntries(widgets.map((w) => [w.id, `${w.x},${w.y},${w.w},${w.h}`]));
}

const placeOf = async (widget: Locator) => (await widget.getAttribute('data-place')) ?? '';
const parse = (place: string) => place.split(',').map(Number) as [number, number, number, number];

/** A press of the mouse on `from`, moved in steps by (dx, dy), released. */
async function drag(page: Page, from: Locator, dx: number, dy: number): Promise<void> {
  await from.scrollIntoViewIfNeeded();
  const box = await from.boundingBox();
  if (box === null) throw new Error('nothing to drag');
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + 5, y + 5, { steps: 2 });
  await page.mouse.move(x + dx, y + dy, { steps: 12 });
  await page.mouse.up();
}

describe('dashboards', () => {
  it('made, three widgets placed by mouse and keyboard, held over a reload, renamed, edited offline once, deleted after the question; a template’s copied into its new asset', async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const tab = await e2e.signedInApp(DEMO_USERS.admin, '/app/dashboards/list');
    const { page } = tab;
    await page.setViewportSize({ width: 1024, height: 768 });

    // The list: the demo's dashboard; search from 3 characters; the spec's empty state.
    const rows = page.getByTestId('dashboard-row');
    await expect
      .poll(() => rows.allTextContents())
      .toContainEqual(expect.stringContaining(DEMO_DASHBOARD));
    const search = page.getByLabel('Search dashboards');
    await search.fill('zz');
    await expect.poll(() => rows.count()).toBeGreaterThan(0);
    await search.fill('zzz');
    await expect.poll(() => page.getByText('No dashboards found').count()).toBe(1);
    await search.fill('plant');
    await expect.poll(() => rows.count()).toBe(1);

    // A new dashboard opens empty.
    await page.getByTestId('new-dashboard').click();
    const form = page.getByTestId('new-dashboard-form');
    await form.getByLabel('Name').fill('Line board');
    await form.getByRole('button', { name: 'Create dashboard' }).click();
    // (The list's own path matches /app/dashboards/{x} too.)
    await tab.waitForPath(/^\/app\/dashboards\/(?!list$)[^/]+$/);
    const id = decodeURIComponent(tab.path().split('/').at(-1) ?? '');
    await expect.poll(() => page.getByTestId('dashboard-title').textContent()).toBe('Line board');

    // Three widgets: each placed at once, its settings offered next.
    await page.getByTestId('dashboard-edit').click();
    for (const type of ['Value', 'Gauge', 'Text']) {
      await page.getByTestId('add-widget').click();
      await page.getByRole('radio', { name: type, exact: true }).check();
      await page.getByTestId('add-widget-submit').click();
      await page.getByTestId('widget-settings').waitFor();
      await page.keyboard.press('Escape');
      await page.getByTestId('widget-settings').waitFor({ state: 'detached' });
    }
    const widgets = page.getByTestId('dashboard-widget');
    await expect.poll(() => widgets.count()).toBe(3);
    const [value, gauge, text] = [widgets.nth(0), widgets.nth(1), widgets.nth(2)];
    expect(await placeOf(value)).toBe('0,0,4,4');
    expect(await placeOf(gauge)).toBe('4,0,6,6');
    expect(await placeOf(text)).toBe('10,0,6,4');
    // The tablet's page does not scroll sideways with the grid on it.
    expect(
      await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      ),
    ).toBeLessThanOrEqual(0);

    // The keyboard: arrows move the focused widget, Shift with an arrow sizes it; a live region
    // says where it is. The widget keeps the focus through each write.
    const announced = page.getByTestId('dashboard-announcement');
    await text.focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => placeOf(text)).toBe('11,0,6,4');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => placeOf(text)).toBe('11,1,6,4');
    await expect.poll(() => announced.textContent()).toBe('Place: column 12, row 2.');
    await page.keyboard.press('Shift+ArrowRight');
    await expect.poll(() => placeOf(text)).toBe('11,1,7,4');
    // Down to one row, said in the singular ('by 1 rows' before), and up to five.
    for (const h of [3, 2, 1]) {
      await page.keyboard.press('Shift+ArrowUp');
      await expect.poll(() => placeOf(text)).toBe(`11,1,7,${h}`);
    }
    await expect.poll(() => announced.textContent()).toBe('Size: 7 columns by 1 row.');
    for (const h of [2, 3, 4, 5]) {
      await page.keyboard.press('Shift+ArrowDown');
      await expect.poll(() => placeOf(text)).toBe(`11,1,7,${h}`);
    }
    await expect.poll(() => announced.textContent()).toBe('Size: 7 columns by 5 rows.');
    expect(await text.evaluate((el) => el === document.activeElement)).toBe(true);

    // The mouse: the value widget sized by its corner, then dragged down by its title bar.
    const row = ((await gauge.boundingBox())?.height ?? 0) / 6;
    const column = ((await value.boundingBox())?.width ?? 0) / 4;
    await drag(page, value.locator('.react-resizable-handle'), column * 3, row * 2);
    await expect.poll(async () => parse(await placeOf(value))[2]).toBeGreaterThan(4);
    const sized = parse(await placeOf(value));
    expect(sized[0]).toBe(0);
    expect(sized[1]).toBe(0);
    expect(sized[3]).toBeGreaterThan(4);
    await drag(page, value.getByText('Value', { exact: true }), 0, row * 4);
    await expect.poll(async () => parse(await placeOf(value))[1]).toBeGreaterThan(0);
    expect(parse(await placeOf(value)).slice(2)).toEqual(sized.slice(2));

    // The server holds what the screen shows; a reload shows it again.
    const shown = await places(page);
    await expect.poll(() => serverPlaces(admin.accountId, id)).toEqual(shown);
    await tab.reload();
    await expect.poll(() => places(page)).toEqual(shown);

    // The name, edited in place.
    await page.getByTestId('dashboard-name-edit').click();
    await page.getByTestId('dashboard-name-input').fill('Line 1 board');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('dashboard-title').textContent()).toBe('Line 1 board');
    await expect
      .poll(
        async () =>
          (await e2e.serverModels(admin.accountId, 'dashboard')).find((d) => d.id === id)
            ?.attributes['name'],
      )
      .toBe('Line 1 board');
    // The breadcrumb names it.
    await expect.poll(() => new ShellPage(page).crumbs()).toEqual(['Dashboards', 'Line 1 board']);
    // Home's "Recently opened" names it.
    await tab.navigateInApp('/app/home');
    const recent = page.getByTestId('home-recent').getByRole('link', { name: 'Line 1 board' });
    await expect.poll(() => recent.count()).toBe(1);
    await recent.click();
    await expect.poll(() => page.getByTestId('dashboard-title').textContent()).toBe('Line 1 board');

    // Offline: a layout edit is kept on the device and lands once when the server is back.
    const updatesOf = async () =>
      (await e2e.serverLog(admin.accountId)).filter((u) => u.id === id || u.child_id === id).length;
    const before = await updatesOf();
    e2e.offline();
    await page.getByTestId('dashboard-edit').click();
    await text.focus();
    await page.keyboard.press('ArrowUp');
    await expect.poll(() => placeOf(text)).toBe('11,0,7,5');
    await expect.poll(() => page.getByTestId('dashboard-pending').count()).toBe(1);
    expect(await serverPlaces(admin.accountId, id)).toEqual(shown);
    e2e.online();
    const after = await places(page);
    await expect.poll(() => serverPlaces(admin.accountId, id)).toEqual(after);
    await expect.poll(() => page.getByTestId('dashboard-pending').count()).toBe(0);
    expect(await updatesOf()).toBe(before + 1);

    // A widget's settings open from its pencil; its cross removes it (one write).
    await page.getByRole('button', { name: `Edit widget ${isolate('Gauge')}` }).click();
    await page.getByTestId('widget-settings').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('widget-settings').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: `Remove widget ${isolate('Gauge')}` }).click();
    await expect.poll(() => widgets.count()).toBe(2);
    await expect
      .poll(async () => Object.keys(await serverPlaces(admin.accountId, id)).length)
      .toBe(2);

    // The delete asks first ("Keep it" keeps it), then deletes and goes back to the list.
    await page.getByTestId('dashboard-delete').click();
    const question = page.getByRole('dialog', { name: /Delete the dashboard/ });
    await question.getByRole('button', { name: 'Keep it' }).click();
    await question.waitFor({ state: 'detached' });
    expect(await page.getByTestId('dashboard').count()).toBe(1);
    await page.getByTestId('dashboard-delete').click();
    await page.getByTestId('dashboard-delete-confirm').click();
    await tab.waitForPath(/^\/app\/dashboards\/list$/);
    await expect
      .poll(async () =>
        (await e2e.serverModels(admin.accountId, 'dashboard')).some((d) => d.id === id),
      )
      .toBe(false);

    // A template's dashboard comes with every asset made from the template, over its streams.
    const [template] = await e2e.serverModels(admin.accountId, 'template');
    const groups = (template?.attributes['groups'] ?? []) as TemplateGroup[];
    const first = groups[0]?.streams[0]?.name;
    expect(first).toBeDefined();
    const board = await e2e.server.call('POST', apiPaths.collection('dashboards'), {
      token: admin.token,
      json: {
        name: 'Phone board',
        template_id: template?.id,
        widgets: [
          { id: 'w1', type: 'value', x: 0, y: 0, w: 4, h: 4, streams: [templateStreamKey(0, 0)] },
        ],
      },
    });
    expect(board.status).toBe(201);
    await tab.navigateInApp(`/app/templates/${template?.id ?? ''}/details`);
    const listed = page.getByTestId('own-dashboards').getByTestId('dashboard-row');
    await expect
      .poll(() => listed.allTextContents())
      .toEqual([expect.stringContaining('Phone board')]);
    await page.getByTestId('create-from-template').click();
    const create = page.getByTestId('create-from-template-form');
    await create.getByTestId('template-dashboard-count').waitFor();
    await create.getByRole('textbox', { name: /^Name of the new asset/ }).fill('Phone 2');
    await create.getByRole('button', { name: 'Create asset' }).click();
    await tab.waitForPath(/^\/app\/devices\/[^/]+\/details$/);
    const made = tab.path().split('/')[3] ?? '';
    // On the new asset's page (the template's, with the same list, shows until it renders).
    const listedOnAsset = new DeviceDetailsPage(page)
      .of(made)
      .getByTestId('own-dashboards')
      .getByTestId('dashboard-row');
    await expect
      .poll(() => listedOnAsset.allTextContents())
      .toEqual([expect.stringContaining('Phone board')]);
    const boundTo = async () => {
      const copy = (await e2e.serverModels(admin.accountId, 'dashboard')).find(
        (d) => d.attributes['asset_id'] === made,
      );
      const [streamId] =
        ((copy?.attributes['widgets'] ?? []) as { streams: string[] }[])[0]?.streams ?? [];
      const stream = (await e2e.serverModels(admin.accountId, 'datastream')).find(
        (d) => d.id === streamId,
      );
      return [stream?.attributes['asset_id'], stream?.attributes['name']];
    };
    await expect.poll(boundTo).toEqual([made, first]);
  });

  it("the demo's Plant overview tells its machines' same-named streams apart by their assets", async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const overview = (await e2e.serverModels(admin.accountId, 'dashboard')).find(
      (d) => d.attributes['name'] === DEMO_DASHBOARD,
    );
    const widgets = (overview?.attributes['widgets'] ?? []) as { id: string; streams: string[] }[];
    const streams = await e2e.serverModels(admin.accountId, 'datastream');
    const assets = await e2e.serverModels(admin.accountId, 'asset');
    const expected = (widgetId: string) =>
      (widgets.find((w) => w.id === widgetId)?.streams ?? []).map((id) => {
        const stream = streams.find((m) => m.id === id);
        const asset = assets.find((a) => a.id === stream?.attributes['asset_id']);
        return `${String(stream?.attributes['name'])} (${String(asset?.attributes['name'])})`;
      });
    const plain = (texts: string[]) => texts.map((t) => t.replace(/[\u2066-\u2069]/g, '').trim());
    // Each machine's mode went from Automatic to Manual an hour ago (each band gets its legend).
    const modes = widgets.find((w) => w.id === 'modes')?.streams ?? [];
    const now = Date.now();
    await e2e.server.machineData.store.append({
      source: 'e2e-dashboards',
      seq: 1,
      points: modes.flatMap((stream) => [
        { stream, account: admin.accountId, ts: now - 90 * 60_000, value: 1 },
        { stream, account: admin.accountId, ts: now - 60 * 60_000, value: 2 },
      ]),
    });
    const tab = await e2e.signedInApp(DEMO_USERS.admin, `/app/dashboards/${overview?.id ?? ''}`);
    const body = (id: string) =>
      tab.page.locator(`[data-testid="widget-body"][data-widget="${id}"]`);
    // Three machines' motor temperatures in one chart: each line's legend names its machine.
    const temperatures = expected('temperatures');
    expect(new Set(temperatures).size).toBe(3);
    await expect
      .poll(async () =>
        plain(await body('temperatures').locator('.u-series .u-label').allTextContents()),
      )
      .toEqual(['Time', ...temperatures]);
    // Two machines' operating modes as state bands, each named with its machine.
    await expect
      .poll(async () =>
        plain(
          await body('modes')
            .getByTestId('widget-state-band')
            .evaluateAll((bands) => bands.map((b) => b.firstElementChild?.textContent ?? '')),
        ),
      )
      .toEqual(expected('modes'));
    // Both bands with their legends whole, with nothing to scroll to in the widget (the second
    // machine's legend was cut at the widget's foot).
    await expect
      .poll(() =>
        body('modes')
          .getByTestId('widget-state-band')
          .evaluateAll((bands) => bands.map((b) => b.getAttribute('data-segments'))),
      )
      .toEqual(['2', '2']);
    const hidden = await body('modes').evaluate((el) => {
      const scroller = el.parentElement ?? el;
      return scroller.scrollHeight - scroller.clientHeight;
    });
    expect(hidden).toBeLessThanOrEqual(0);
  });

  it('opened again from Home shows at once, without waiting for the store; not after a sign-out', async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const overview = (await e2e.serverModels(admin.accountId, 'dashboard')).find(
      (d) => d.attributes['name'] === DEMO_DASHBOARD,
    );
    const id = overview?.id ?? '';
    const tab = await e2e.signedInApp(DEMO_USERS.admin, `/app/dashboards/${id}`);
    const { page } = tab;
    await expect.poll(() => page.getByTestId('dashboard-title').textContent()).toBe(DEMO_DASHBOARD);
    const recent = page.locator(`[data-testid="home-recent-item"][data-id="${id}"] a`);
    // Notes every loading skeleton and every dashboard the page puts into the document from now.
    const watch = () =>
      page.evaluate(() => {
        const seen: string[] = [];
        (window as unknown as { __seen: string[] }).__seen = seen;
        new MutationObserver((records) => {
          for (const r of records) {
            for (const n of r.addedNodes) {
              if (!(n instanceof Element)) continue;
              for (const el of [n, ...n.querySelectorAll('[data-testid]')]) {
                const testId = el.getAttribute('data-testid');
                if (testId === 'dashboard-loading' || testId === 'dashboard') seen.push(testId);
              }
            }
          }
        }).observe(document.body, { childList: true, subtree: true });
      });
    const seen = () => page.evaluate(() => (window as unknown as { __seen: string[] }).__seen);

    // Home lists it; opened from there, the page shows the dashboard in its first render.
    await tab.navigateInApp('/app/home');
    await expect.poll(() => recent.textContent()).toBe(DEMO_DASHBOARD);
    await watch();
    await recent.click();
    await expect.poll(() => page.getByTestId('dashboard-title').textContent()).toBe(DEMO_DASHBOARD);
    expect(await seen()).toEqual(['dashboard']);

    // Signed out and in again: nothing of the last session is shown from memory, nor are its
    // charts kept (a chart outlives its widget for a while within a session).
    const charts = page.locator('[data-testid="widget-line"] canvas');
    await expect.poll(() => charts.count()).toBeGreaterThan(0);
    await charts.evaluateAll((all) =>
      all.forEach((c) => c.setAttribute('data-e2e-mark', 'before')),
    );
    await tab.navigateInApp('/app/home');
    await expect.poll(() => recent.count()).toBe(1);
    await new ShellPage(page).signOut();
    await tab.waitForPath(/^\/user\/login/);
    await tab.signIn(DEMO_USERS.admin);
    // Signed in, the app opens the assets (not Home, whose recent list would read the dashboard
    // into the new session's memory before the page is opened).
    await tab.waitForPath(/^\/app\/devices\/list/);
    await watch();
    await tab.navigateInApp(`/app/dashboards/${id}`);
    await expect.poll(() => page.getByTestId('dashboard-title').textContent()).toBe(DEMO_DASHBOARD);
    expect((await seen())[0]).toBe('dashboard-loading');
    await expect.poll(() => charts.count()).toBeGreaterThan(0);
    expect(await page.locator('canvas[data-e2e-mark]').count()).toBe(0);
  });

  it('without dashboard::edit: the dashboard shows, no control changes it, a range is the viewer’s own', async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const overview = (await e2e.serverModels(admin.accountId, 'dashboard')).find(
      (d) => d.attributes['name'] === DEMO_DASHBOARD,
    );
    const tab = await e2e.signedInApp(DEMO_USERS.tech, `/app/dashboards/${overview?.id ?? ''}`);
    const { page } = tab;
    await expect.poll(() => page.getByTestId('dashboard-title').textContent()).toBe(DEMO_DASHBOARD);
    await expect.poll(() => page.getByTestId('dashboard-widget').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('dashboard-edit').count()).toBe(0);
    expect(await page.getByTestId('dashboard-delete').count()).toBe(0);
    expect(await page.getByTestId('dashboard-name-edit').count()).toBe(0);
    expect(await page.getByTestId('add-widget').count()).toBe(0);
    expect(await page.locator('[data-testid="dashboard-widget"][tabindex]').count()).toBe(0);
    expect(await page.locator('.react-resizable-handle:visible').count()).toBe(0);

    // A range picked here is this viewer's: the stored one stays the last 2 hours.
    await page.getByTestId('dashboard-range').getByText('24 h', { exact: true }).click();
    await expect
      .poll(() => page.getByTestId('dashboard-range-button').textContent())
      .toBe('Last 24 hours');
    const stored = (await e2e.serverModels(admin.accountId, 'dashboard')).find(
      (d) => d.id === overview?.id,
    );
    expect(stored?.attributes['range']).toEqual({ kind: 'relative', last: 2, unit: 'hours' });

    await tab.navigateInApp('/app/dashboards/list');
    await expect.poll(() => page.getByTestId('dashboard-row').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('new-dashboard').count()).toBe(0);
  });
});
