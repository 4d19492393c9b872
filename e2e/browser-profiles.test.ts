import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { E2e } from './support/fixture';

/*
 * The browsers the tests get (support/browser.ts): a test's default profile is a browser another
 * test of the file used before, handed back wiped. A test must not be able to tell it from a new
 * profile: nothing the earlier test stored may be there.
 */
let e2e: E2e;
let served = '';

beforeAll(async () => {
  e2e = await E2e.start(inject('e2ePage'));
  // A served file that runs nothing: its page has the app's origin without the app's own storage.
  const script = fs
    .readdirSync(path.join(inject('e2ePage'), 'assets'))
    .find((f) => f.endsWith('.js'));
  if (script === undefined) throw new Error('the built page has no script');
  served = `${e2e.web.url}/assets/${script}`;
});
afterAll(() => e2e.close());

async function originPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.goto(served);
  return page;
}

let first: BrowserContext | undefined;

describe('a browser handed from one test to the next', () => {
  it('is where a test stores everything a page can store', async () => {
    const profile = await e2e.browser();
    first = profile.context;
    const page = await originPage(profile.context);
    await page.evaluate(async () => {
      localStorage.setItem('left', 'behind');
      document.cookie = 'left=behind; max-age=3600';
      await (await caches.open('left')).put('/left', new Response('behind'));
      await new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('left', 1);
        open.onupgradeneeded = () => open.result.createObjectStore('things').put('behind', 'left');
        open.onsuccess = () => {
          open.result.close();
          resolve();
        };
        open.onerror = () => reject(open.error ?? new Error('indexedDB.open failed'));
      });
    });
    await profile.context.grantPermissions(['clipboard-read'], { origin: e2e.web.url });
    await profile.context.route('**/left', (route) => route.fulfill({ body: 'routed' }));
    expect(await page.evaluate(() => localStorage.getItem('left'))).toBe('behind');
    expect(await page.evaluate(() => fetch('/left').then((r) => r.text()))).toBe('routed');
  });

  it('comes to the next test with none of it', async () => {
    const profile = await e2e.browser();
    // The same browser (else this test would prove nothing about the wipe).
    expect(profile.context).toBe(first);
    const page = await originPage(profile.context);
    const left = await page.evaluate(async () => ({
      localStorage: localStorage.length,
      cookie: document.cookie,
      caches: await caches.keys(),
      databases: (await indexedDB.databases()).map((d) => d.name),
      clipboard: (await navigator.permissions.query({ name: 'clipboard-read' as PermissionName }))
        .state,
      routed: (await fetch('/left').then((r) => r.text())) === 'routed',
    }));
    expect(left).toEqual({
      localStorage: 0,
      cookie: '',
      caches: [],
      databases: [],
      clipboard: 'prompt',
      routed: false,
    });
    expect(await profile.context.cookies()).toEqual([]);
    // Its other tabs closed with the test that opened them: only this one and the keeper's blank.
    expect(profile.context.pages().filter((p) => p.url() !== 'about:blank')).toHaveLength(1);
  });
});
