import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_USERS } from '../server/src/seed/demo';
import { takeCspViolations } from './support/csp';
import { E2e } from './support/fixture';
import { DevicesListPage, DeviceDetailsPage } from './support/pages/devices';

/*
 * Issue 18 item 6: the app works under its Content-Security-Policy (the pages are served with
 * the server's policy, and every e2e test fails on a refusal: support/test-checks.ts), and no page
 * may frame it (frame-ancestors 'none'), so the consent screen cannot be clickjacked.
 */
let e2e: E2e;
/** A page of another origin (loopback, another port) that frames the app. */
let framer: Server;

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'));
  framer = createServer((req, res) => {
    const target = new URL(req.url ?? '/', 'http://x').searchParams.get('src') ?? '';
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(
      `<!doctype html><title>framer</title><iframe id="app" src="${encodeURI(target)}" width="800" height="600"></iframe>`,
    );
  });
  await new Promise<void>((resolve) => framer.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  framer.closeAllConnections();
  await new Promise<void>((resolve) => framer.close(() => resolve()));
  await e2e.close();
});

describe('the app under its Content-Security-Policy', () => {
  it('signs in and opens the lists, an asset, the map and the alarms without a refusal', async () => {
    const tab = await e2e.openApp(await e2e.browser(), '/user/login');
    const policy = (await tab.page.request.get(tab.page.url())).headers()[
      'content-security-policy'
    ];
    expect(policy).toContain("frame-ancestors 'none'");
    await tab.signIn(DEMO_USERS.admin);

    await tab.goto('/app/devices/list');
    const list = new DevicesListPage(tab.page);
    await expect.poll(() => list.rows.count()).toBeGreaterThan(0);
    await list.chooseView('Map');
    await expect.poll(() => list.map.getAttribute('data-ready')).toBe('true');
    await list.chooseView('Panel');
    await expect.poll(() => list.cards.count()).toBeGreaterThan(0);
    await list.chooseView('Table');
    await expect.poll(() => list.rows.count()).toBeGreaterThan(0);

    await list.rows.first().getByRole('link').first().click();
    await tab.waitForPath(/^\/app\/devices\/[^/]+\/details/);
    const details = new DeviceDetailsPage(tab.page);
    await expect.poll(() => details.name()).not.toBe('');

    for (const path of ['/app/alarms', '/app/gateways', '/app/users/list', '/app/templates/list']) {
      await tab.goto(path);
      await expect.poll(() => tab.page.locator('main').count()).toBeGreaterThan(0);
      await expect.poll(() => tab.page.locator('main').innerText()).not.toBe('');
    }
    expect(takeCspViolations()).toEqual([]);
  });

  it('a page the service worker answers from its cache is under the same policy', async () => {
    const tab = await e2e.openApp(await e2e.browser({ serviceWorkers: 'allow' }), '/user/login');
    await tab.signIn(DEMO_USERS.admin);
    await tab.page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    // A path never visited: the service worker (installed, so it controls the next page load)
    // answers it with the precached index.html.
    const answer = await tab.page.goto(`${e2e.web.url}/app/dashboards/list`);
    expect(answer?.fromServiceWorker()).toBe(true);
    expect(answer?.headers()['content-security-policy']).toContain(
      "script-src 'self' 'wasm-unsafe-eval';",
    );
    expect(answer?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    await tab.page.getByRole('heading', { name: 'Dashboards' }).waitFor();
    // And the browser enforces it there: an inline script does not run.
    const ran = await tab.page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'document.body.dataset.inlineRan = "yes"';
      document.head.append(script);
      return document.body.dataset.inlineRan ?? 'no';
    });
    expect(ran).toBe('no');
    await expect
      .poll(() => takeCspViolations().join('\n'))
      .toMatch(/script-src-elem refused inline/);
  });

  it('a page of another origin cannot frame the app', async () => {
    const tab = await e2e.openApp(await e2e.browser(), '/user/login');
    await tab.signIn(DEMO_USERS.admin);
    const { port } = framer.address() as AddressInfo;
    const target = `${e2e.web.url}/app/oauth/authorize?client_id=x&response_type=code`;
    await tab.page.goto(`http://127.0.0.1:${port}/?src=${encodeURIComponent(target)}`);
    await expect.poll(() => takeCspViolations().join('\n')).toMatch(/frame-ancestors/);
    const frame = tab.page.frames().find((f) => f !== tab.page.mainFrame());
    // The framed document never loads the app: no root, no script ran.
    expect(await frame?.locator('#root').count()).toBe(0);
  });
});
