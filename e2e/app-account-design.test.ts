import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_USERS } from '../server/src/seed/demo';
import { E2e } from './support/fixture';
import { ShellPage } from './support/pages/shell';

/*
 * Issue 30 item 9: an account's design. Colours picked or typed (#rrggbb, a wrong one named at
 * its field and kept as typed) apply to the running app at once; logos and the login image are
 * uploaded as files, shown in a preview, in the header and on the sign-in screen (without a
 * token); an image that cannot be loaded leaves the account's name, in the header and on the
 * sign-in screen. One page load, one sign-out and two reloads of the sign-in screen.
 */
let e2e: E2e;

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'));
});
afterAll(() => e2e.close());

/** A CRC-32 of PNG chunks. */
function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k += 1) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** A valid PNG of `width` x `height` pixels of one colour. */
function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0x33)]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe("the account's design", () => {
  it('applies colours and logos at once and never loses the brand name to a broken image', async () => {
    const root = await e2e.server.db
      .selectFrom('accounts')
      .select(['id', 'name'])
      .where('name', '=', 'Demo Machine Builder')
      .executeTakeFirstOrThrow();
    const tab = await e2e.signedInTab(DEMO_USERS.admin, `/app/accounts/${root.id}/design`);
    const { page } = tab;
    const shell = new ShellPage(page);
    // An image that is gone.
    await page.route('**/e2e-brand/gone.png', (route) =>
      route.fulfill({ status: 404, contentType: 'text/plain', body: 'Not found' }),
    );
    // Nothing below reloads the page: this mark would go.
    await page.evaluate(() => Object.assign(window, { designMark: 'kept' }));
    const stillSamePage = () =>
      page.evaluate(() => (window as unknown as { designMark?: string }).designMark);

    const color1 = page.getByRole('textbox', { name: 'Color1' });
    const save = page.getByRole('button', { name: 'Save' });
    const stripColour = () =>
      shell.header().evaluate((header) => getComputedStyle(header).borderTopColor);
    await color1.waitFor();
    const before = await stripColour();

    // A wrong colour: named at its field, the text kept as typed.
    await color1.fill('#33669z');
    await page.keyboard.press('Tab');
    await save.click();
    await expect.poll(() => color1.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await color1.getAttribute('aria-describedby')) ?? '';
    expect(await page.locator(`[id="${describedBy.split(' ')[0] ?? ''}"]`).textContent()).toBe(
      'Valid hex code for colours',
    );
    expect(await color1.inputValue()).toBe('#33669z');
    expect(await stripColour()).toBe(before);

    // A right one, picked from the swatches or typed: the header's strip takes it at once.
    await color1.fill('#336699');
    await page.keyboard.press('Tab');
    await save.click();
    await expect.poll(stripColour).toBe('rgb(51, 102, 153)');
    expect(await color1.getAttribute('aria-invalid')).not.toBe('true');

    // A desktop logo, uploaded as a file: a preview before saving, the header's logo after,
    // served by the server from the account's file store.
    const choose = async (
      button: string,
      file: { name: string; mimeType: string; buffer: Buffer },
    ) => {
      const chooser = page.waitForEvent('filechooser');
      await page.getByRole('button', { name: button }).click();
      await (await chooser).setFiles(file);
    };
    const desktop = page.getByRole('textbox', { name: 'Desktop logo' });
    await choose('Upload Desktop logo', {
      name: 'logo.png',
      mimeType: 'image/png',
      buffer: png(120, 30),
    });
    await expect.poll(() => desktop.inputValue()).toMatch(/^\/api\/v1\/design-images\//);
    const preview = page.getByRole('img', { name: 'Preview: Desktop logo' });
    await expect
      .poll(() => preview.evaluate((img) => (img as HTMLImageElement).naturalWidth))
      .toBe(120);
    const brand = page.getByTestId('account-brand');
    expect(await brand.getByRole('img').count()).toBe(0);
    await save.click();
    const logo = brand.getByRole('img', { name: root.name });
    await expect
      .poll(() => logo.evaluate((img) => (img as HTMLImageElement).naturalWidth))
      .toBe(120);
    expect(await brand.textContent()).toBe('');

    // The logo's file is gone (404): the preview says so, the header shows the name.
    await desktop.fill('/e2e-brand/gone.png');
    await expect.poll(() => page.getByText('This image cannot be shown.').count()).toBe(1);
    await save.click();
    await expect.poll(() => brand.textContent()).toBe(root.name);
    expect(await brand.getByRole('img').count()).toBe(0);

    // Remove takes the image away.
    await page.getByRole('button', { name: 'Remove Desktop logo' }).click();
    expect(await desktop.inputValue()).toBe('');
    expect(await page.getByTestId('design-preview').count()).toBe(0);

    // A file that is no image is refused before it is sent, and says why.
    await choose('Upload Login image', {
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('not a picture'),
    });
    await expect
      .poll(() => page.getByRole('alert').filter({ hasText: 'PNG, JPEG, WebP or GIF' }).count())
      .toBe(1);
    // The login image, uploaded.
    const loginImage = page.getByRole('textbox', { name: 'Login image' });
    await choose('Upload Login image', {
      name: 'login.png',
      mimeType: 'image/png',
      buffer: png(200, 50),
    });
    await expect.poll(() => loginImage.inputValue()).toMatch(/^\/api\/v1\/design-images\//);
    const uploaded = await loginImage.inputValue();
    await page.getByRole('textbox', { name: 'Title' }).fill('Machine Works');
    await save.click();
    await expect.poll(() => page.title()).toBe('Machine Works');
    expect(await stillSamePage()).toBe('kept');
    await expect
      .poll(
        async () =>
          await e2e.server.db
            .selectFrom('accounts')
            .select(['color1', 'logo_desktop', 'login_image'])
            .where('id', '=', root.id)
            .executeTakeFirstOrThrow(),
      )
      .toEqual({ color1: '#336699', logo_desktop: null, login_image: uploaded });

    // The sign-in screen shows the uploaded login image, read from the server without a token
    // (after a reload: nothing of the upload is left in the page), and the title.
    await shell.signOut();
    await tab.waitForPath(/^\/user\/login/);
    await page.reload();
    await expect
      .poll(() =>
        page
          .getByTestId('login-image')
          .evaluate((img) => (img as HTMLImageElement).naturalWidth)
          .catch(() => 0),
      )
      .toBe(200);
    expect(await page.getByTestId('login-brand').textContent()).toBe('Machine Works');

    // A login image that cannot be shown leaves the account's title.
    let asked = 0;
    page.on('request', (request) => {
      if (request.url().endsWith('/e2e-brand/gone.png')) asked += 1;
    });
    await page.evaluate(() =>
      localStorage.setItem(
        'loginBrand',
        JSON.stringify({ title: 'Machine Works', loginImage: '/e2e-brand/gone.png' }),
      ),
    );
    await page.reload();
    await expect.poll(() => asked).toBeGreaterThan(0);
    await expect.poll(() => page.getByTestId('login-image').count()).toBe(0);
    expect(await page.getByTestId('login-brand').textContent()).toBe('Machine Works');
  });
});
