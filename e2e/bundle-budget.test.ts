import { beforeAll, describe, expect, inject, it } from 'vitest';
import {
  BUDGET_ROUTES,
  BuiltClient,
  kb,
  PAGE_BUDGET_BYTES,
  type FirstVisit,
} from './support/bundle-budget';

/*
 * Issue 29 item 6 (issue 5's budget): no page's first visit downloads more JavaScript than its
 * budget, gzip level 9, summed over the files. Sizes are exact, read from the build the e2e run
 * makes (its manifest: each chunk's static imports), no browser needed; the bench
 * (bench/bundle-size.bench.ts) measures the same routes by what Chromium fetched.
 */

/**
 * Pages allowed over the 300 KB of issue 5 (a ratchet: entries may only shrink or go). None
 * since issue 29: the stream page was at 300.5 KB until the service worker's registration
 * (workbox-window, 2.3 KB) left every first visit; at 301.5 KB again with issue 30's chart
 * labels, it is at 283.9 KB since the custom range's form loads on its first opening.
 */
const OVER_BUDGET_TODAY: Readonly<Record<string, number>> = {};

let client: BuiltClient;

beforeAll(async () => {
  client = await BuiltClient.read(inject('clientDist'));
});

const over = (visit: FirstVisit, budget: number) =>
  `${visit.page}: ${kb(visit.bytes)} > ${kb(budget)} in ${visit.files.length} files`;

describe("the first visit's JavaScript", () => {
  it.each(BUDGET_ROUTES)('$name ($path) stays within its budget', async (route) => {
    const visit = await client.firstVisit(route.chunks);
    expect(visit.bytes, over(visit, route.budget)).toBeLessThanOrEqual(route.budget);
  });

  it('every page of the route tree stays within its budget', async () => {
    const pages = client.pages();
    // The route tree's pages are found, not listed: a build without them proves nothing.
    expect(pages).toContain('src/features/devices/devices-list-page.tsx');
    expect(pages).toContain('src/features/user/login-page.tsx');
    const failures: string[] = [];
    for (const page of pages) {
      const budget = OVER_BUDGET_TODAY[page] ?? PAGE_BUDGET_BYTES;
      const visit = await client.firstVisit([client.layoutOf(page), page]);
      if (visit.bytes > budget) failures.push(over(visit, budget));
    }
    expect(failures).toEqual([]);
  });
});
