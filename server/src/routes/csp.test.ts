import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/harness';

/*
 * The Content-Security-Policy of every page the origin answers (server/src/http/csp.ts): the built
 * app on each of its paths and its static files, and the page that says the app is not built.
 */
let built: TestServer;
let notBuilt: TestServer;
let clientDir: string;
let emptyDir: string;
const tiles = 'https://tiles.plant.example:8443/detail/{z}/{x}/{y}.png';

beforeAll(async () => {
  clientDir = await fs.mkdtemp(path.join(os.tmpdir(), 'plant-client-dist-'));
  emptyDir = await fs.mkdtemp(path.join(os.tmpdir(), 'plant-client-none-'));
  await fs.mkdir(path.join(clientDir, 'assets'));
  await fs.writeFile(
    path.join(clientDir, 'index.html'),
    '<!doctype html><html><body><div id="root"></div><script type="module" src="/assets/index-abc123.js"></script></body></html>',
  );
  await fs.writeFile(path.join(clientDir, 'assets', 'index-abc123.js'), 'console.log(1);');
  await fs.writeFile(path.join(clientDir, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  [built, notBuilt] = await Promise.all([
    startTestServer({ env: { CLIENT_DIR: clientDir, MAP_TILES_URL: tiles } }),
    startTestServer({ env: { CLIENT_DIR: emptyDir } }),
  ]);
});
afterAll(async () => {
  await Promise.all([built.close(), notBuilt.close()]);
  await fs.rm(clientDir, { recursive: true, force: true });
  await fs.rm(emptyDir, { recursive: true, force: true });
});

/** The policy's directives by name. */
function directives(header: string | null): Map<string, string[]> {
  expect(header).not.toBeNull();
  return new Map(
    (header ?? '').split(';').map((part) => {
      const [name = '', ...sources] = part.trim().split(/\s+/);
      return [name, sources];
    }),
  );
}

async function expectStrictPolicy(s: TestServer, pagePath: string): Promise<Map<string, string[]>> {
  const res = await s.call('GET', pagePath);
  expect(res.status, pagePath).toBe(200);
  const policy = directives(res.headers.get('content-security-policy'));
  expect(policy.get('frame-ancestors'), pagePath).toEqual(["'none'"]);
  // WebAssembly may be compiled (the 3D viewer's meshopt decoder), JavaScript never evaluated.
  expect(policy.get('script-src'), pagePath).toEqual(["'self'", "'wasm-unsafe-eval'"]);
  expect(policy.get('default-src'), pagePath).toEqual(["'self'"]);
  expect(policy.get('object-src'), pagePath).toEqual(["'none'"]);
  expect(policy.get('base-uri'), pagePath).toEqual(["'none'"]);
  for (const [name, sources] of policy) {
    // No inline script, no eval, nowhere the scripts could come from.
    if (name.endsWith('-src') && name !== 'style-src') {
      expect(sources, `${pagePath} ${name}`).not.toContain("'unsafe-inline'");
    }
    expect(sources, `${pagePath} ${name}`).not.toContain("'unsafe-eval'");
    expect(sources, `${pagePath} ${name}`).not.toContain('*');
  }
  expect(res.headers.get('x-frame-options'), pagePath).toBe('DENY');
  expect(res.headers.get('x-content-type-options'), pagePath).toBe('nosniff');
  return policy;
}

describe("the origin's pages carry a strict Content-Security-Policy", () => {
  it('the app on every app path, deep unknown ones too', async () => {
    // (/ is the public landing page: public/public-pages.test.ts.)
    for (const p of [
      '/app/devices/list',
      '/app/oauth/authorize?client_id=x&response_type=code',
      '/app/no/such/deep/place/1.2.0',
      '/user/login',
      '/index.html',
    ]) {
      const res = await built.call('GET', p);
      expect(res.text, p).toContain('<div id="root">');
      await expectStrictPolicy(built, p);
    }
  });

  it("the app's own files (the service worker caches them with their headers)", async () => {
    await expectStrictPolicy(built, '/sw.js');
    await expectStrictPolicy(built, '/assets/index-abc123.js');
  });

  it('the configured map tiles are the only other origin, for their images and fetches', async () => {
    const policy = await expectStrictPolicy(built, '/app/devices/map');
    const origin = 'https://tiles.plant.example:8443';
    expect(policy.get('connect-src')).toEqual(["'self'", origin]);
    expect(policy.get('img-src')).toEqual(["'self'", 'data:', 'blob:', origin]);
    for (const name of ['script-src', 'worker-src', 'default-src', 'style-src', 'font-src']) {
      expect(policy.get(name), name).not.toContain(origin);
    }
  });

  it('the page that says the app is not built', async () => {
    const res = await notBuilt.call('GET', '/app');
    expect(res.text).toContain('not built');
    const policy = await expectStrictPolicy(notBuilt, '/app');
    expect(policy.get('connect-src')).toEqual(["'self'"]);
  });
});
