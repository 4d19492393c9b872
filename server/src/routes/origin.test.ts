import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, staticConfSchema } from '@plant/shared-schema';
import { startTestServer, type TestServer } from '../testing/harness';

/*
 * The built web client at the origin: a small build of its shape (index.html, hashed assets, the
 * service worker) in a temp folder, served by the real server.
 */
let s: TestServer;
let clientDir: string;

beforeAll(async () => {
  clientDir = await fs.mkdtemp(path.join(os.tmpdir(), 'plant-client-dist-'));
  await fs.mkdir(path.join(clientDir, 'assets'));
  await fs.writeFile(
    path.join(clientDir, 'index.html'),
    '<!doctype html><html><body><div id="root"></div><script type="module" src="/assets/index-abc123.js"></script></body></html>',
  );
  await fs.writeFile(path.join(clientDir, 'assets', 'index-abc123.js'), 'console.log(1);');
  await fs.writeFile(path.join(clientDir, 'assets', 'index-abc123.js.map'), '{"version":3}');
  await fs.mkdir(path.join(clientDir, '.vite'));
  await fs.writeFile(path.join(clientDir, '.vite', 'manifest.json'), '{"index.html":{}}');
  await fs.writeFile(path.join(clientDir, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  s = await startTestServer({ env: { CLIENT_DIR: clientDir } });
});
afterAll(async () => {
  await s.close();
  await fs.rm(clientDir, { recursive: true, force: true });
});

describe('the web client at the origin', () => {
  it('every app path answers the app (it routes in the browser), revalidated each time', async () => {
    // (/ is the public landing page, robots.txt the public pages': public/public-pages.test.ts.)
    for (const p of ['/app/devices/list', '/user/login?redirect=%2Fapp', '/no/such/place']) {
      const res = await s.call('GET', p);
      expect(res.status, p).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(res.text).toContain('<div id="root">');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
    }
  });

  it('hashed assets are cached for good; the service worker is revalidated', async () => {
    const asset = await s.call('GET', '/assets/index-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const sw = await s.call('GET', '/sw.js');
    expect(sw.status).toBe(200);
    expect(sw.headers.get('cache-control')).toBe('no-cache');
  });

  it("the build's source maps are not served", async () => {
    for (const p of ['/assets/index-abc123.js.map', '/assets/INDEX-abc123.js.map']) {
      const res = await s.call('GET', p);
      expect(res.status, p).toBe(404);
      expect(res.text, p).not.toContain('version');
    }
  });

  it("the build's manifest is not served", async () => {
    for (const p of ['/.vite/manifest.json', '/.VITE/manifest.json']) {
      const res = await s.call('GET', p);
      expect(res.status, p).toBe(404);
      expect(res.text, p).not.toContain('index.html');
    }
  });

  it('a missing asset or API path is a 404, never the app', async () => {
    expect((await s.call('GET', '/assets/gone-123.js')).status).toBe(404);
    for (const p of ['/api/v1/no-such-call', '/api', '/api/', '/api/users', '/api/v2/user']) {
      const api = await s.call('GET', p);
      expect(api.status, p).toBe(404);
      expect(api.headers.get('content-type'), p).toContain('application/json');
    }
    const conf = await s.call('GET', apiPaths.staticconf());
    expect(conf.status).toBe(200);
    expect(conf.headers.get('content-type')).toContain('application/json');
  });

  it('a missing file is a 404, never the app: the app is only for screen paths', async () => {
    for (const p of [
      '/favicon.ico',
      '/workbox-4f1a2b3c.js',
      '/sw.js.map',
      '/icons/old-icon.png',
      '/mqtt/x',
      '/staticconf/x',
      '/assets/no-dot',
    ]) {
      const res = await s.call('GET', p);
      expect(res.status, p).toBe(404);
      expect(res.headers.get('content-type'), p).toContain('application/json');
      expect(res.text, p).not.toContain('<div id="root">');
    }
    // Screens of the app may carry a dot in an id or a version: the app routes those.
    for (const p of ['/app/versions/modules/m1/1.2.0', '/user/login', '/app', '/scan', '/qr']) {
      const res = await s.call('GET', p);
      expect(res.status, p).toBe(200);
      expect(res.text, p).toContain('<div id="root">');
    }
  });

  it('only GET answers the app: another method on a screen path is a 404', async () => {
    const res = await s.call('POST', '/app/devices/list', { json: {} });
    expect(res.status).toBe(404);
    expect(res.text).not.toContain('<div id="root">');
  });
});

describe('/staticconf and the map', () => {
  it('names the detail tiles of MAP_TILES_URL, and nothing about them when it is not set', async () => {
    const tiles = 'https://tiles.plant.example/{z}/{x}/{y}.png';
    const configured = await startTestServer({
      env: { CLIENT_DIR: clientDir, MAP_TILES_URL: tiles },
    });
    try {
      const conf = staticConfSchema.parse(
        (await configured.call('GET', apiPaths.staticconf())).json,
      );
      expect(conf.map_tiles_url).toBe(tiles);
    } finally {
      await configured.close();
    }
    const plain = staticConfSchema.parse((await s.call('GET', apiPaths.staticconf())).json);
    expect(plain).not.toHaveProperty('map_tiles_url');
    expect(plain.client_id).toBe(s.clientId);
  });
});
