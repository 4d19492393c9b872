import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { API_BASE, apiPaths } from '@plant/shared-schema';
import { DEMO_USERS } from '../server/src/seed/demo';
import { E2e } from './support/fixture';
import {
  DeviceDetailsPage,
  DevicesListPage,
  imageLoaded,
  syncIndicator,
} from './support/pages/devices';

/*
 * Photos and documents of assets in the browser (issue 16 item 4, DESIGN.md §9): a photo given to
 * an asset made offline shows at once and after an offline reload, reaches the server once with
 * its bytes, and another user's open page shows both live; a document upload cut in the middle
 * resumes and ends with the same bytes while its percent moves; what was opened stays readable
 * offline until the user frees it.
 */
let e2e: E2e;
let dir = '';

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'));
  dir = await mkdtemp(path.join(tmpdir(), 'plant-files-'));
});
afterAll(async () => {
  await e2e.close();
  await rm(dir, { recursive: true, force: true });
});

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** The server's bytes of a file, read with a token as a client would. */
async function serverBytes(token: string, id: string): Promise<Uint8Array> {
  const res = await fetch(`${e2e.server.url}${API_BASE}/${apiPaths.fileContent(id)}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  if (res.status !== 200) throw new Error(`file ${id}: ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}

describe('photos and documents', () => {
  it('an asset made offline with a photo shows it, keeps it through a reload, and lands once; another user sees both live', async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const png = await sharp({
      create: { width: 640, height: 480, channels: 3, background: { r: 20, g: 120, b: 200 } },
    })
      .png()
      .toBuffer();
    const photoPath = path.join(dir, 'pump.png');
    await writeFile(photoPath, png);

    // Another user is signed in elsewhere.
    const other = await e2e.openApp(await e2e.browser());
    await other.signInAt(DEMO_USERS.internal);
    const tab = await e2e.signedInApp(DEMO_USERS.admin, '/app/devices/list');
    await expect.poll(() => syncIndicator(tab.page).getAttribute('data-state')).toBe('online');
    e2e.offline();
    await expect.poll(() => syncIndicator(tab.page).getAttribute('data-state')).toBe('offline');
    await tab.page.getByTestId('new-asset').click();
    const form = tab.page.getByTestId('asset-form');
    await form.getByRole('textbox', { name: /^Name/ }).fill('Camera pump');
    const chooser = tab.page.waitForEvent('filechooser');
    await form.getByTestId('asset-photo-pick').click();
    await (await chooser).setFiles(photoPath);
    await expect.poll(() => form.getByText('pump.png').count()).toBe(1);
    await form.getByRole('button', { name: 'Create asset' }).click();
    await tab.waitForPath(/^\/app\/devices\/[^/]+\/details$/);
    const id = tab.path().split('/')[3] ?? '';
    const details = new DeviceDetailsPage(tab.page);
    await expect.poll(() => details.name()).toBe('Camera pump');
    const photo = tab.page.getByTestId('asset-details').getByTestId('asset-photo');
    await expect.poll(() => photo.count()).toBe(1);
    await expect.poll(() => imageLoaded(photo)).toBe(true);

    await tab.reload();
    await expect.poll(() => details.name()).toBe('Camera pump');
    await expect.poll(() => photo.count()).toBe(1);
    await expect.poll(() => imageLoaded(photo)).toBe(true);
    expect((await e2e.serverModels(admin.accountId, 'asset')).some((a) => a.id === id)).toBe(false);

    // The other user waits on the asset's page: not there yet.
    await other.goto(`/app/devices/${id}/details`);
    await expect.poll(() => other.page.getByTestId('asset-not-found').count()).toBe(1);

    e2e.online();
    const serverAsset = async () =>
      (await e2e.serverModels(admin.accountId, 'asset')).filter((a) => a.id === id);
    await expect
      .poll(async () => (await serverAsset())[0]?.attributes.photo ?? null)
      .not.toBe(null);
    expect(await serverAsset()).toHaveLength(1);
    const photoId = String((await serverAsset())[0]?.attributes.photo);
    const fileState = async () =>
      (await e2e.serverModels(admin.accountId, 'file')).find((f) => f.id === photoId)?.attributes
        .state;
    await expect.poll(fileState, { timeout: 20_000 }).toBe('ready');
    expect(sha(await serverBytes(admin.token, photoId))).toBe(sha(png));
    expect(
      (await e2e.serverModels(admin.accountId, 'file')).filter((f) => f.attributes.asset_id === id),
    ).toHaveLength(1);

    // The other user's page follows: the asset, then its photo (the server's thumbnail).
    const theirs = new DeviceDetailsPage(other.page);
    await expect.poll(() => theirs.name(), { timeout: 20_000 }).toBe('Camera pump');
    const theirPhoto = other.page.getByTestId('asset-details').getByTestId('asset-photo');
    await expect.poll(() => theirPhoto.count(), { timeout: 20_000 }).toBe(1);
    await expect.poll(() => imageLoaded(theirPhoto)).toBe(true);
    expect(
      await theirPhoto.evaluate((el) => (el as HTMLImageElement).naturalWidth),
    ).toBeLessThanOrEqual(320);

    // The asset overview's panel shows the photo on the asset's card.
    await other.goto('/app/devices/list');
    const list = new DevicesListPage(other.page);
    await list.chooseView('Panel');
    await list.searchFor('Camera pump');
    const card = list.cards.filter({ hasText: 'Camera pump' });
    await expect.poll(() => card.count()).toBe(1);
    const cardPhoto = card.getByTestId('asset-photo');
    await expect.poll(() => cardPhoto.count()).toBe(1);
    await expect.poll(() => imageLoaded(cardPhoto)).toBe(true);
  });

  it('a document upload cut in the middle resumes with the same bytes, its percent moving; it stays readable offline until freed', async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const asset = (await e2e.serverModels(admin.accountId, 'asset')).find(
      (a) => a.attributes.name === 'Press line 1',
    );
    if (asset === undefined) throw new Error('no Press line 1');
    const bytes = randomBytes(12 * 1024 * 1024);
    const docPath = path.join(dir, 'Wiring diagram.pdf');
    await writeFile(docPath, bytes);

    const tab = await e2e.signedInApp(DEMO_USERS.admin, `/app/devices/${asset.id}/details`);
    const documents = tab.page.getByTestId('asset-documents');
    await expect.poll(() => documents.getByTestId('no-documents').count()).toBe(1);
    await expect.poll(() => syncIndicator(tab.page).getAttribute('data-state')).toBe('online');

    const resetsBefore = e2e.net.stats.resets;
    e2e.net.resetAfterUpstreamBytes(6 * 1024 * 1024);
    // Every percent the page shows, as it changes.
    await tab.page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { percents: string[] }).percents = seen;
      new MutationObserver(() => {
        for (const el of document.querySelectorAll('[data-testid="upload-percent"]')) {
          const text = el.textContent ?? '';
          if (text !== '' && seen.at(-1) !== text) seen.push(text);
        }
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    const chooser = tab.page.waitForEvent('filechooser');
    await documents.getByTestId('add-documents').click();
    await (await chooser).setFiles(docPath);
    const row = documents.getByTestId('document-row');
    await expect.poll(() => row.count()).toBe(1);
    const fileId = (await row.getAttribute('data-id')) ?? '';
    const fileState = async () =>
      (await e2e.serverModels(admin.accountId, 'file')).find((f) => f.id === fileId)?.attributes
        .state;
    await expect.poll(fileState, { timeout: 60_000 }).toBe('ready');
    expect(e2e.net.stats.resets).toBeGreaterThan(resetsBefore);
    expect(sha(await serverBytes(admin.token, fileId))).toBe(sha(bytes));
    // The percent moved, in whole numbers (spec 000 §9).
    const percents = await tab.page.evaluate(
      () => (window as unknown as { percents: string[] }).percents,
    );
    const shown = percents.map((p) => /(\d+)\s?%/.exec(p)?.[1]).filter((p) => p !== undefined);
    expect(new Set(shown).size).toBeGreaterThan(1);
    expect(
      percents.every((p) => /^(Waiting to upload \(\d+\s?%\)|Uploading \d+\s?%)$/.test(p)),
    ).toBe(true);
    await expect.poll(() => row.getByTestId('upload-state').count()).toBe(0);

    // Kept here: the download works offline, and the page says how much is kept.
    await expect.poll(() => documents.getByTestId('files-kept').count()).toBe(1);
    e2e.offline();
    await expect.poll(() => syncIndicator(tab.page).getAttribute('data-state')).toBe('offline');
    const download = tab.page.waitForEvent('download');
    await row.getByTestId('document-download').click();
    const saved = await (await download).path();
    expect(sha(await readFile(saved))).toBe(sha(bytes));
    await documents.getByTestId('files-free').click();
    await expect.poll(() => documents.getByTestId('files-kept').count()).toBe(0);
    e2e.online();
  });

  it('refuses a photo that is not an image, on its field', async () => {
    const txt = path.join(dir, 'notes.txt');
    await writeFile(txt, 'not a photo');
    const tab = await e2e.signedInApp(DEMO_USERS.admin, '/app/devices/list');
    await tab.page.getByTestId('new-asset').click();
    const form = tab.page.getByTestId('asset-form');
    await form.getByRole('textbox', { name: /^Name/ }).fill('Bad photo');
    const chooser = tab.page.waitForEvent('filechooser');
    await form.getByTestId('asset-photo-pick').click();
    await (await chooser).setFiles(txt);
    await form.getByRole('button', { name: 'Create asset' }).click();
    await expect
      .poll(() => form.getByText('A photo must be a JPEG, PNG, WebP or GIF image.').count())
      .toBe(1);
    expect(tab.path()).toBe('/app/devices/list');
  });
});
