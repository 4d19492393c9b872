import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_USERS } from '../server/src/seed/demo';
import { DEMO_JOBS } from '../server/src/seed/demo-themes';
import { E2e } from './support/fixture';

/*
 * Issue 36 item 3: a job written and published in the app by the machine builder's admin; the
 * public pages, served by the server itself, show it to a visitor whose browser runs no
 * JavaScript and asks for German, with the demo's published jobs.
 */
let e2e: E2e;

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'));
});
afterAll(() => e2e.close());

describe('the public pages', () => {
  it('list the jobs the top account published, in German, without JavaScript', async () => {
    const tab = await e2e.signedInApp(DEMO_USERS.admin, '/app/jobs/list');
    const { page } = tab;
    await page.getByTestId('job-new').click();
    const form = page.getByTestId('job-form');
    await form.getByRole('textbox', { name: 'Title' }).fill('Wartungsplaner');
    await form.getByRole('textbox', { name: 'Location' }).fill('Hamburg');
    await form.getByRole('button', { name: 'Create job' }).click();
    await page.getByTestId('job-details').waitFor();
    // The address came from the title; a text and publishing it.
    expect(await page.getByTestId('job-slug').inputValue()).toBe('wartungsplaner');
    await page
      .getByRole('textbox', { name: 'Text' })
      .fill('Sie planen die Wartung.\n\nIn Hamburg.');
    await page.getByRole('switch', { name: 'Full time' }).click();
    await page.getByRole('switch', { name: 'Published on the public pages' }).click();
    await page.getByTestId('job-save').click();
    const { root } = await e2e.server.demoAccountIds();
    await expect
      .poll(async () =>
        (await e2e.serverModels(root, 'job')).some(
          (m) => m.attributes.slug === 'wartungsplaner' && m.attributes.published === true,
        ),
      )
      .toBe(true);

    // A visitor: no JavaScript, German first. The server's own pages, not the app.
    const visitor = await e2e.browser({ javaScript: false, locale: 'de-DE' });
    const site = await visitor.context.newPage();
    await site.goto(new URL('/jobs', e2e.server.url).toString());
    expect(await site.locator('html').getAttribute('lang')).toBe('de');
    expect(await site.getByRole('heading', { level: 1 }).textContent()).toMatch(
      /^Stellenangebote bei /,
    );
    const listed = await site.getByRole('heading', { level: 2 }).allTextContents();
    expect(listed).toEqual(
      expect.arrayContaining(['Wartungsplaner', ...DEMO_JOBS.map((job) => job.title)]),
    );
    await site.getByRole('link', { name: 'Wartungsplaner' }).click();
    await site.waitForURL(/\/jobs\/wartungsplaner/);
    expect(await site.getByRole('heading', { level: 1 }).textContent()).toBe('Wartungsplaner');
    expect(await site.locator('main p').allTextContents()).toEqual(
      expect.arrayContaining(['Sie planen die Wartung.', 'In Hamburg.']),
    );
    expect(await site.getByText('Teilzeit').count()).toBeGreaterThan(0);
    // Nothing of the app: no script on the page, no service worker.
    expect(await site.locator('script').count()).toBe(0);
    // The language switch keeps the page.
    await site.getByRole('link', { name: 'English' }).click();
    await site.waitForURL(/\/jobs\/wartungsplaner\?lang=en/);
    expect(await site.getByText('Part time').count()).toBeGreaterThan(0);
  });
});
