import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DEMO_USERS } from '../server/src/seed/demo';
import { E2e } from './support/fixture';
import { ShellPage } from './support/pages/shell';

/*
 * Issue 36 item 2: translations. An admin gives the account its own German words for a text of
 * the product: an open tab of another user, in German, shows them without a reload; made
 * offline, they are kept, shown at once, and land on the server once. A PO export imported into
 * another account gives that account the same words; a click on a text of a screen (edit texts
 * mode) opens its words.
 */
let e2e: E2e;

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'));
});
afterAll(() => e2e.close());

/** Opens the words of the product's text whose English words are exactly `english`. */
async function openWords(page: Page, english: string): Promise<void> {
  const search = page.getByTestId('translations-search');
  await search.fill(english);
  const row = page
    .getByTestId('translation-row')
    .filter({ has: page.getByRole('cell', { name: english, exact: true }) })
    .first();
  await row.getByRole('button', { name: /^Change the words of / }).click();
  await page.getByTestId('words-editor').waitFor();
}

describe('translations', () => {
  it("show the account's words in an open tab at once, and offline words land once", async () => {
    const tab = await e2e.signedInApp(DEMO_USERS.admin, '/app/translations/list');
    const { page } = tab;
    await page.getByTestId('translations-table').waitFor();
    // Every language's completeness is shown.
    await expect.poll(() => page.getByTestId('complete-de').textContent()).toMatch(/^\d+ %$/);
    // Search starts at 3 characters; "Missing in" keeps the texts without words in a language:
    // German has every text, Plain none (it shows the ids).
    const rows = page.getByTestId('translation-row');
    const all = await rows.count();
    await page.getByTestId('translations-search').fill('Ga');
    expect(await rows.count()).toBe(all);
    await page.getByTestId('translations-search').fill('Gateways');
    await expect.poll(() => rows.count()).toBeLessThan(all);
    await page.getByTestId('translations-search').fill('');
    const missing = page.getByRole('combobox', { name: 'Missing in' });
    await missing.selectOption('de');
    await expect.poll(() => page.getByText('No texts found').count()).toBe(1);
    await missing.selectOption('plain');
    await expect.poll(() => rows.count()).toBe(all);
    await missing.selectOption('');

    // Another user's tab, in German, open on a list page.
    const other = await e2e.signedInApp(DEMO_USERS.internal, '/app/dashboards/list');
    const otherShell = new ShellPage(other.page);
    await otherShell.choosePreference('Deutsch');
    const menu = other.page.getByRole('navigation', { name: 'Hauptmenü' });
    const entries = async () =>
      (await menu.getByRole('link').locator('[data-menu-label]').allTextContents()).map((s) =>
        s.trim(),
      );
    await expect.poll(entries).toContain('Startseite');
    await other.page.evaluate(() => Object.assign(window, { wordsMark: 'kept' }));

    await openWords(page, 'Home');
    await page.getByTestId('words-de').fill('Übersicht');
    await page.getByTestId('words-save').click();
    await expect.poll(entries).toContain('Übersicht');
    expect(await entries()).not.toContain('Startseite');
    expect(
      await other.page.evaluate(() => (window as unknown as { wordsMark?: string }).wordsMark),
    ).toBe('kept');

    // Offline: kept on this device, shown in its table at once, sent once when back.
    e2e.offline();
    await openWords(page, 'Assets');
    await page.getByTestId('words-de').fill('Maschinen');
    await page.getByTestId('words-save').click();
    const assetsRow = page
      .getByTestId('translation-row')
      .filter({ has: page.getByRole('cell', { name: 'Assets', exact: true }) })
      .first();
    await expect.poll(() => assetsRow.textContent()).toContain('Maschinen');
    e2e.online();
    const { root } = await e2e.server.demoAccountIds();
    const serverWords = async () =>
      (await e2e.serverModels(root, 'translation')).filter(
        (m) => (m.attributes.texts as { de?: string }).de === 'Maschinen',
      ).length;
    await expect.poll(serverWords, { timeout: 60_000 }).toBe(1);
    await expect.poll(entries).toContain('Maschinen');
    expect(await serverWords()).toBe(1);
  });

  it('export as PO, imported into another account, gives it the same words', async () => {
    const tab = await e2e.signedInApp(DEMO_USERS.admin, '/app/translations/list');
    const { page } = tab;
    await page.getByTestId('translations-table').waitFor();
    await openWords(page, 'Alarms');
    await page.getByTestId('words-de').fill('Meldungen');
    await page.getByTestId('words-save').click();
    const { root, south } = await e2e.server.demoAccountIds();
    await expect
      .poll(async () =>
        (await e2e.serverModels(root, 'translation')).some(
          (m) => (m.attributes.texts as { de?: string }).de === 'Meldungen',
        ),
      )
      .toBe(true);
    await page.getByRole('combobox', { name: 'PO file language' }).selectOption('de');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('translations-export').click(),
    ]);
    const file = await download.path();
    const po = await readFile(file, 'utf8');
    expect(po).toContain('msgstr "Meldungen"');

    // Customer South's admin imports it: South's own translations are the root account's words.
    const southTab = await e2e.signedInApp(DEMO_USERS.south, '/app/translations/list');
    await southTab.page.getByTestId('translations-table').waitFor();
    const chooser = southTab.page.waitForEvent('filechooser');
    await southTab.page.getByTestId('translations-import').click();
    await (
      await chooser
    ).setFiles({
      name: 'translations-de.po',
      mimeType: 'text/x-gettext-translation',
      buffer: Buffer.from(po),
    });
    await expect
      .poll(() => southTab.page.getByRole('status').filter({ hasText: 'taken from' }).count())
      .toBe(1);
    const wordsOf = async (account: string) =>
      (await e2e.serverModels(account, 'translation'))
        .map(
          (m) =>
            `${String(m.attributes.key)}=${String((m.attributes.texts as { de?: string }).de)}`,
        )
        .sort();
    await expect.poll(() => wordsOf(south)).toEqual(await wordsOf(root));
  });

  it('opens the words of a text clicked on a screen in edit texts mode', async () => {
    const tab = await e2e.signedInApp(DEMO_USERS.admin, '/app/translations/list');
    const { page } = tab;
    await page.getByTestId('translations-edit-mode').click();
    await page.getByTestId('edit-texts-stop').waitFor();
    // A text of the side menu, clicked: its words open instead of the page.
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    await menu.getByText('Gateways', { exact: true }).click();
    await page.getByTestId('words-editor').waitFor();
    expect(await page.getByTestId('words-en').getAttribute('placeholder')).toBe('Gateways');
    await page.getByTestId('words-en').fill('Edge devices');
    await page.getByTestId('words-save').click();
    await expect.poll(() => menu.getByText('Edge devices', { exact: true }).count()).toBe(1);
    await page.getByTestId('edit-texts-stop').click();
    expect(page.url()).toContain('/app/translations/list');
  });
});
