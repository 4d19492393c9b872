import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ACCOUNT_HEADER, apiPaths } from '@plant/shared-schema';
import { DEMO_USERS } from '../server/src/seed/demo';
import { systemClock } from '../server/src/lib/clock';
import { ChangeFeed } from '../server/src/services/change-feed';
import { ModelService } from '../server/src/services/model.service';
import type { AppTab } from './support/app-tab';
import { E2e } from './support/fixture';
import { DevicesListPage } from './support/pages/devices';

/*
 * Issue 16 item 1 and the tag filter of item 7: the asset overview as cards (panel), the table
 * (sortable, columns chosen) and a map (clustered, over the base layer that ships with the
 * product); the choices stay; a tag narrows every view. The demo account's machines (two of
 * them placed here) for the views, the demo's other account with 10,000 placed assets for the
 * scale: a virtualised panel and a map that clusters them and stays responsive.
 */
let e2e: E2e;

/** Munich and Lisbon: far apart, so the map shows each as itself, not as a cluster. */
const PLACES = {
  'Press line 1': { lat: 48.137, lng: 11.575 },
  'Press line 2': { lat: 38.722, lng: -9.139 },
} as const;
const LARGE = 10_000;
const largeName = (i: number) => `Placed asset ${String(i).padStart(5, '0')}`;

/** The demo account's assets on the server (the counts below follow the demo data). */
async function demoAssets() {
  const admin = await e2e.session(DEMO_USERS.admin);
  return e2e.serverModels(admin.accountId, 'asset');
}

/** The count line: "12 assets", "6 of 12 assets" (English numbers, as the page writes them). */
const assetsText = (n: number, of?: number) => {
  const all = `${(of ?? n).toLocaleString('en')} asset${(of ?? n) === 1 ? '' : 's'}`;
  return of === undefined ? all : `${n.toLocaleString('en')} of ${all}`;
};

/** How many of these assets have a position. */
const placedOf = (assets: readonly { attributes: Record<string, unknown> }[]) =>
  assets.filter((a) => a.attributes.position !== null && a.attributes.position !== undefined)
    .length;

/** What the map says of its assets. */
const mapText = (placed: number, unplaced: number) =>
  (placed === 1
    ? '1 asset is on the map.'
    : `${placed.toLocaleString('en')} assets are on the map.`) +
  (unplaced === 0
    ? ''
    : unplaced === 1
      ? ' 1 asset has no position and is not shown.'
      : ` ${unplaced.toLocaleString('en')} assets have no position and are not shown.`);

/** 10,000 assets spread over central Europe, through the service layer, 1000 a transaction. */
async function seedPlaced(accountId: string): Promise<void> {
  const models = new ModelService(e2e.server.db, systemClock, new ChangeFeed());
  for (let from = 0; from < LARGE; from += 1000) {
    await e2e.server.db.transaction().execute(async (trx) => {
      for (let i = from; i < from + 1000; i++) {
        await models.applyIn(trx, accountId, {
          kind: 'create',
          collection: 'assets',
          body: {
            name: largeName(i),
            tags: [i % 10 === 0 ? 'hall-a' : 'hall-b'],
            position: { lat: 44 + ((i * 7919) % 1000) / 100, lng: 2 + ((i * 104729) % 1800) / 100 },
          },
        });
      }
    });
  }
}

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'));
  const admin = await e2e.session(DEMO_USERS.admin);
  for (const asset of await e2e.serverModels(admin.accountId, 'asset')) {
    const position = PLACES[asset.attributes.name as keyof typeof PLACES] as
      (typeof PLACES)[keyof typeof PLACES] | undefined;
    if (position === undefined) continue;
    const answer = await e2e.server.call('PUT', apiPaths.model('assets', asset.id), {
      token: admin.token,
      headers: { [ACCOUNT_HEADER]: admin.accountId },
      json: { position },
    });
    expect(answer.status).toBe(200);
  }
  const south = await e2e.session(DEMO_USERS.south);
  await seedPlaced(south.accountId);
}, 180_000);
afterAll(() => e2e.close());

async function openList(): Promise<{
  tab: AppTab;
  list: DevicesListPage;
}> {
  const tab = await e2e.signedInApp(DEMO_USERS.admin, '/app/devices/list');
  return { tab, list: new DevicesListPage(tab.page) };
}

describe('the asset overview in three views', () => {
  it('switches between panel, table and map, and the choice survives a reload', async () => {
    const n = (await demoAssets()).length;
    const { tab, list } = await openList();
    await expect.poll(() => list.count()).toBe(assetsText(n));
    // The table until the user chooses: a labelled radio group says which view shows.
    expect(await list.view('Table').isChecked()).toBe(true);
    await expect.poll(() => list.rows.count()).toBe(n);

    // Cards, as many as there are assets (each says so: only those on screen are rendered).
    const setSize = () => list.cards.first().getAttribute('aria-setsize');
    await list.chooseView('Panel');
    await expect.poll(setSize).toBe(String(n));
    expect(await list.table.count()).toBe(0);
    expect(await list.view('Panel').isChecked()).toBe(true);
    await tab.reload();
    await expect.poll(setSize).toBe(String(n));
    expect(await list.view('Panel').isChecked()).toBe(true);

    await list.chooseView('Map');
    await expect.poll(() => list.map.getAttribute('data-ready')).toBe('true');
    expect(await list.cards.count()).toBe(0);
    await tab.reload();
    await expect.poll(() => list.map.getAttribute('data-ready')).toBe('true');
    expect(await list.view('Map').isChecked()).toBe(true);

    // The radio group is used with the keyboard: arrows move the choice.
    await list.view('Map').focus();
    await tab.page.keyboard.press('ArrowLeft');
    await expect.poll(() => list.view('Table').isChecked()).toBe(true);
    await expect.poll(() => list.rows.count()).toBe(n);
  });

  it('panel cards show photo, name and state, open their asset, and move with the arrow keys', async () => {
    const { tab, list } = await openList();
    await list.chooseView('Panel');
    await expect.poll(() => list.cardNames()).toContain('Press line 1');
    const card = list.cards.filter({ hasText: 'Press line 1' });
    expect(await card.getByTestId('device-card-status').textContent()).toBe('OK');
    // No photo yet: the name's first letter stands in.
    expect(await card.getByTestId('device-card-photo').textContent()).toBe('P');
    // A card watches its first streams' values once it has stayed on screen.
    await expect.poll(() => card.getByTestId('device-card-values').locator('dt').count()).toBe(3);

    // One Tab stop: the first card, then the arrows; Enter opens.
    const names = await list.cardNames();
    await list.search.focus();
    await tab.page.keyboard.press('Tab');
    const focusedCard = () =>
      tab.page.evaluate(() => document.activeElement?.getAttribute('data-index') ?? null);
    expect(await focusedCard()).toBe('0');
    await tab.page.keyboard.press('ArrowRight');
    expect(await focusedCard()).toBe('1');
    await tab.page.keyboard.press('Enter');
    await tab.waitForPath(/^\/app\/devices\/[^/]+\/details$/);
    await expect
      .poll(() => tab.page.getByRole('heading', { level: 1 }).textContent())
      .toBe(names[1]);
  });

  it('sorts the table by a column either way and keeps the chosen columns', async () => {
    const n = (await demoAssets()).length;
    const { tab, list } = await openList();
    await expect.poll(() => list.count()).toBe(assetsText(n));
    expect(await list.headers()).toEqual(['Name', 'Status', 'Gateway', 'Description']);
    const byName = await list.names();

    // Status, A to Z ("OK" before "Warning"), then Z to A; equal states stay in name order.
    await list.sortButton('Status').click();
    await expect
      .poll(() =>
        list.table.getByRole('columnheader', { name: 'Status' }).getAttribute('aria-sort'),
      )
      .toBe('ascending');
    const assets = await demoAssets();
    const statusOf = (name: string) =>
      String(assets.find((a) => a.attributes.name === name)?.attributes.status);
    // By state (as stored: "ok" before "warning"), equal states in name order.
    const byStatus = (direction: 1 | -1) =>
      [...byName].sort(
        (a, b) =>
          direction * statusOf(a).localeCompare(statusOf(b)) ||
          byName.indexOf(a) - byName.indexOf(b),
      );
    expect(new Set(assets.map((a) => a.attributes.status)).size).toBeGreaterThan(1);
    await expect.poll(() => list.names()).toEqual(byStatus(1));
    await list.sortButton('Status').click();
    await expect
      .poll(() =>
        list.table.getByRole('columnheader', { name: 'Status' }).getAttribute('aria-sort'),
      )
      .toBe('descending');
    await expect.poll(() => list.names()).toEqual(byStatus(-1));
    // Name, Z to A: the name order reversed.
    await list.sortButton('Name').click();
    await list.sortButton('Name').click();
    await expect.poll(() => list.names()).toEqual([...byName].reverse());

    // Up from the first row reaches the headers' buttons: the table stays one Tab stop.
    await list.search.focus();
    await tab.page.keyboard.press('Tab');
    expect(await list.focusedRowIndex()).toBe(0);
    await tab.page.keyboard.press('ArrowUp');
    expect(await tab.page.evaluate(() => document.activeElement?.textContent)).toBe('Name');
    await tab.page.keyboard.press('ArrowRight');
    await tab.page.keyboard.press('Enter');
    await expect
      .poll(() =>
        list.table.getByRole('columnheader', { name: 'Status' }).getAttribute('aria-sort'),
      )
      .toBe('ascending');

    // Columns: the MAC address and the tags in, the description out; kept after a reload.
    await list.toggleColumn('MAC address');
    await list.toggleColumn('Tags');
    await list.toggleColumn('Description');
    const chosen = ['Name', 'Status', 'Gateway', 'MAC address', 'Tags'];
    await expect.poll(() => list.headers()).toEqual(chosen);
    await expect
      .poll(() => list.row('Press line 2').locator('td').nth(4).textContent())
      .toBe('productionhall-2');
    await tab.reload();
    await expect.poll(() => list.headers()).toEqual(chosen);
  });

  it('the map shows the placed assets, says how many are not placed, and opens an asset', async () => {
    const { tab, list } = await openList();
    await list.chooseView('Map');
    await expect.poll(() => list.map.getAttribute('data-ready')).toBe('true');
    const assets = await demoAssets();
    const placed = placedOf(assets);
    await expect.poll(() => list.mapSummary()).toBe(mapText(placed, assets.length - placed));
    // Markers follow the map as it settles (its fit, then the clusters of the final zoom).
    await expect.poll(() => list.mapAsset('Press line 1').count()).toBe(1);
    await expect.poll(() => list.mapAsset('Press line 2').count()).toBe(1);
    // The alternative to the map: the table, one button away.
    expect(await tab.page.getByRole('button', { name: 'Show the assets as a table' }).count()).toBe(
      1,
    );

    // Live: another client's rename shows on its marker, and back.
    const admin = await e2e.session(DEMO_USERS.admin);
    const id = (await e2e.serverModels(admin.accountId, 'asset')).find(
      (a) => a.attributes.name === 'Press line 1',
    )?.id;
    const rename = async (name: string) => {
      const answer = await e2e.server.call('PUT', apiPaths.model('assets', id ?? ''), {
        token: admin.token,
        headers: { [ACCOUNT_HEADER]: admin.accountId },
        json: { name },
      });
      expect(answer.status).toBe(200);
    };
    await rename('Press line 1 (Munich)');
    await expect.poll(() => list.mapAsset('Press line 1 (Munich)').count()).toBe(1);
    await expect.poll(() => list.mapAsset('Press line 1').count()).toBe(0);
    await rename('Press line 1');
    await expect.poll(() => list.mapAsset('Press line 1').count()).toBe(1);
    await list.mapAsset('Press line 1').click();
    await tab.waitForPath(new RegExp(`^/app/devices/${id ?? 'none'}/details$`));
  });

  it('a tag narrows the table, the panel and the map', async () => {
    const assets = await demoAssets();
    const n = assets.length;
    const tagged = assets.filter((a) => (a.attributes.tags as string[]).includes('hall-2')).length;
    expect(tagged).toBeGreaterThan(1);
    expect(tagged).toBeLessThan(n);
    const { list } = await openList();
    await expect.poll(() => list.count()).toBe(assetsText(n));
    // The tags the assets carry, with how many do: "hall-2" is on every second demo machine.
    await list.chooseTag(`hall-2 (${tagged})`);
    await expect.poll(() => list.count()).toBe(assetsText(tagged, n));
    await expect.poll(() => list.rows.count()).toBe(tagged);
    expect(await list.names()).toContain('Press line 2');
    expect(await list.names()).not.toContain('Press line 1');

    await list.chooseView('Panel');
    await expect.poll(() => list.cards.first().getAttribute('aria-setsize')).toBe(String(tagged));
    await expect.poll(() => list.cardNames()).toContain('Press line 2');
    expect(await list.cardNames()).not.toContain('Press line 1');

    await list.chooseView('Map');
    const hall2 = assets.filter((a) => (a.attributes.tags as string[]).includes('hall-2'));
    await expect
      .poll(() => list.mapSummary())
      .toBe(mapText(placedOf(hall2), tagged - placedOf(hall2)));
    await expect.poll(() => list.mapAsset('Press line 2').count()).toBe(1);
    expect(await list.mapAsset('Press line 1').count()).toBe(0);

    // Back to every asset.
    await list.chooseTag('All tags');
    await expect.poll(() => list.count()).toBe(assetsText(n));
    await expect.poll(() => list.mapAsset('Press line 1').count()).toBe(1);
  });
});

describe('the map offline, and with detail tiles', () => {
  it('works with the server unreachable: the shipped base layer, the placed assets, nothing fetched elsewhere', async () => {
    const { tab, list } = await openList();
    const foreign: string[] = [];
    tab.page.on('request', (r) => {
      const url = r.url();
      if (!url.startsWith(e2e.web.url) && !/^(data|blob):/.test(url)) foreign.push(url);
    });
    await list.chooseView('Map');
    await expect.poll(() => list.mapAsset('Press line 1').count()).toBe(1);
    e2e.offline();
    try {
      await tab.reload();
      await expect.poll(() => list.map.getAttribute('data-ready')).toBe('true');
      await expect.poll(() => list.mapAsset('Press line 2').count()).toBe(1);
      const assets = await demoAssets();
      await expect
        .poll(() => list.mapSummary())
        .toBe(mapText(placedOf(assets), assets.length - placedOf(assets)));
    } finally {
      e2e.online();
    }
    expect(foreign).toEqual([]);
  });

  it('draws the tiles of MAP_TILES_URL over the base layer when the server names them', async () => {
    // A tile server on loopback that counts what it is asked for (a 1x1 PNG for every tile).
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGBgAAAABQABpfZFQAAAAABJRU5ErkJggg==',
      'base64',
    );
    const asked: string[] = [];
    const tiles: Server = createServer((req, res) => {
      asked.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'image/png', 'access-control-allow-origin': '*' });
      res.end(png);
    });
    await new Promise<void>((resolve) => tiles.listen(0, '127.0.0.1', resolve));
    const port = (tiles.address() as AddressInfo).port;
    const detailed = await E2e.start(inject('clientDist'), {
      env: { MAP_TILES_URL: `http://127.0.0.1:${port}/{z}/{x}/{y}.png` },
    });
    try {
      const tab = await detailed.signedInApp(DEMO_USERS.admin, '/app/devices/list');
      const list = new DevicesListPage(tab.page);
      await list.chooseView('Map');
      await expect.poll(() => list.map.getAttribute('data-ready')).toBe('true');
      await expect
        .poll(() => asked.filter((u) => /^\/\d+\/\d+\/\d+\.png$/.test(u)).length)
        .toBeGreaterThan(0);
    } finally {
      await detailed.close();
      await new Promise((resolve) => tiles.close(resolve));
    }
  });
});

/** The demo's other account: its own machines and the 10,000 placed here. */
async function southTotal(): Promise<number> {
  const south = await e2e.session(DEMO_USERS.south);
  return (await e2e.serverModels(south.accountId, 'asset')).length;
}

describe('10,000 assets', () => {
  /**
   * One browser for both tests (`signedInTab`): the first signs in and loads the 10,000 assets,
   * the second opens a new tab of it on the list, as a user does the next day (the local data is
   * there; only its load is saved, several seconds of CPU). The second chooses its own view.
   */
  async function openSouthList(): Promise<{ tab: AppTab; list: DevicesListPage }> {
    const tab = await e2e.signedInTab(DEMO_USERS.south, '/app/devices/list');
    return { tab, list: new DevicesListPage(tab.page) };
  }

  it('the panel is virtualised: a few cards in the DOM, the last one after scrolling', async () => {
    const total = await southTotal();
    const { list } = await openSouthList();
    await expect.poll(() => list.count(), { timeout: 120_000 }).toBe(assetsText(total));
    await list.chooseView('Panel');
    await expect.poll(() => list.cards.count()).toBeGreaterThan(0);
    expect(await list.page.locator('[role="listitem"]').count()).toBeLessThan(200);
    await list.scrollPanelToEnd();
    await expect.poll(() => list.cardNames()).toContain(largeName(LARGE - 1));
    expect(await list.page.locator('[role="listitem"]').count()).toBeLessThan(200);
    const last = list.cards.filter({ hasText: largeName(LARGE - 1) });
    expect(await last.getAttribute('aria-setsize')).toBe(String(total));
  }, 240_000);

  it('the map clusters them, stays responsive through a zoom in and out, and a tag narrows it', async () => {
    const total = await southTotal();
    const { tab, list } = await openSouthList();
    await expect.poll(() => list.count(), { timeout: 120_000 }).toBe(assetsText(total));
    await list.chooseView('Map');
    await expect
      .poll(() => list.mapSummary(), { timeout: 60_000 })
      .toBe(mapText(LARGE, total - LARGE));
    // Every placed asset is in a cluster or shown by itself, with far fewer markers than assets.
    await expect.poll(() => list.mapAssetsShown(), { timeout: 60_000 }).toBe(LARGE);
    const markers = Number(await list.map.getAttribute('data-markers'));
    expect(markers).toBeGreaterThan(0);
    expect(markers).toBeLessThan(500);

    // The page answers while the map shows 10,000 assets: a frame within half a second.
    for (let i = 0; i < 5; i++) {
      const frame = await tab.page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            const t0 = performance.now();
            requestAnimationFrame(() => resolve(performance.now() - t0));
          }),
      );
      expect(frame).toBeLessThan(500);
    }

    // A cluster zooms in; the map's own button zooms back out: the round trip completes.
    const zoom = async () => Number(await list.map.getAttribute('data-zoom'));
    const start = await zoom();
    await list.mapClusters.first().click();
    await expect.poll(zoom, { timeout: 30_000 }).toBeGreaterThan(start);
    await expect.poll(() => list.map.getAttribute('data-state')).toBe('idle');
    const zoomedIn = await zoom();
    const zoomOut = tab.page.getByRole('button', { name: 'Zoom out' });
    while ((await zoom()) > start + 0.01) {
      const before = await zoom();
      await zoomOut.click();
      await expect.poll(zoom).toBeLessThan(before - 0.99);
      await expect.poll(() => list.map.getAttribute('data-state')).toBe('idle');
    }
    expect(await zoom()).toBeLessThan(zoomedIn);
    await expect.poll(() => list.mapAssetsShown(), { timeout: 60_000 }).toBe(LARGE);

    // The tag narrows the map too: every tenth asset carries "hall-a".
    await list.chooseTag('hall-a (1,000)');
    await expect.poll(() => list.mapSummary(), { timeout: 60_000 }).toBe(mapText(LARGE / 10, 0));
    await expect.poll(() => list.mapAssetsShown(), { timeout: 60_000 }).toBe(LARGE / 10);
  }, 240_000);
});
