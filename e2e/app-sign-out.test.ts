import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiPaths } from '@plant/shared-schema';
import { DEMO_USERS } from '../server/src/seed/demo';
import { E2e } from './support/fixture';
import { DeviceDetailsPage, DevicesListPage, syncIndicator } from './support/pages/devices';
import { ShellPage } from './support/pages/shell';

/*
 * Leaving the app: a sign-out that would delete changes the server does not have asks first; a
 * session the server no longer accepts ends on its own (spec 000 §8).
 */
let e2e: E2e;

beforeAll(async () => {
  e2e = await E2e.start(inject('clientDist'));
});
afterAll(() => e2e.close());
afterEach(() => e2e.online());

describe('signing out', () => {
  it('with changes not sent yet, asks first and says how many; Cancel keeps the user signed in', async () => {
    const browser = await e2e.browser();
    const tab = await e2e.signedInApp(DEMO_USERS.admin, '/app/devices/list', browser);
    const list = new DevicesListPage(tab.page);
    await expect.poll(() => list.count()).toBe('13 assets');
    await expect.poll(() => syncIndicator(tab.page).getAttribute('data-state')).toBe('online');
    await list.open('Compressor station');
    await tab.waitForPath(/^\/app\/devices\/[^/]+\/details$/);
    const details = new DeviceDetailsPage(tab.page);
    await expect.poll(() => details.name()).toBe('Compressor station');

    e2e.offline();
    await expect.poll(() => syncIndicator(tab.page).getAttribute('data-state')).toBe('offline');
    await details.rename('Compressor station (spare)');
    await expect.poll(() => syncIndicator(tab.page).getAttribute('data-pending')).toBe('1');

    const shell = new ShellPage(tab.page);
    await shell.signOut();
    const dialog = shell.signOutDialog();
    await dialog.waitFor();
    expect((await dialog.textContent()) ?? '').toContain(
      '1 change has not reached the server yet. Signing out deletes it from this device.',
    );
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    expect(tab.path()).toMatch(/^\/app\/devices\/[^/]+\/details$/);
    expect(await tab.page.evaluate(() => localStorage.getItem('access_token'))).not.toBeNull();
    expect(await details.name()).toBe('Compressor station (spare)');
    expect(await syncIndicator(tab.page).getAttribute('data-pending')).toBe('1');

    // Asked again, the user may still go: then the change is gone with the session.
    await shell.signOut();
    await shell.signOutDialog().getByRole('button', { name: 'Sign out anyway' }).click();
    await tab.waitForPath(/^\/user\/login/);
    expect(await tab.page.evaluate(() => localStorage.getItem('user'))).toBeNull();
  });

  it('with a file still uploading, asks first and names it; once it is up, signs out at once', async () => {
    const admin = await e2e.session(DEMO_USERS.admin);
    const asset = (await e2e.serverModels(admin.accountId, 'asset')).find(
      (a) => a.attributes.name === 'Press line 2',
    );
    if (asset === undefined) throw new Error('no Press line 2');
    const browser = await e2e.browser();
    const tab = await e2e.signedInApp(
      DEMO_USERS.admin,
      `/app/devices/${asset.id}/details`,
      browser,
    );
    await expect.poll(() => syncIndicator(tab.page).getAttribute('data-state')).toBe('online');
    // The file's bytes are held on their way: its model reaches the server, its upload waits.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await browser.context.route('**/api/v1/files/*/upload', async (route) => {
      await held;
      await route.continue();
    });
    const documents = tab.page.getByTestId('asset-documents');
    const chooser = tab.page.waitForEvent('filechooser');
    await documents.getByTestId('add-documents').click();
    await (
      await chooser
    ).setFiles({
      name: 'Lubrication plan.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('%PDF-1.4\n% a plan\n'),
    });
    const row = documents.getByTestId('document-row');
    await expect.poll(() => row.count()).toBe(1);
    const fileId = (await row.getAttribute('data-id')) ?? '';
    const stored = async () =>
      (await e2e.serverModels(admin.accountId, 'file')).find((f) => f.id === fileId)?.attributes
        .state;
    await expect.poll(stored).toBe('uploading');
    await expect.poll(() => syncIndicator(tab.page).getAttribute('data-pending')).toBe('0');

    const shell = new ShellPage(tab.page);
    await shell.signOut();
    const dialog = shell.signOutDialog();
    await dialog.waitFor();
    expect((await dialog.textContent()) ?? '').toContain(
      '1 file has not been uploaded yet. Signing out deletes it from this device.',
    );
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => dialog.count()).toBe(0);

    // Let through, the file is stored; nothing waits, so the sign-out asks nothing.
    release();
    await expect.poll(stored, { timeout: 30_000 }).toBe('ready');
    await expect.poll(() => row.getByTestId('upload-state').count()).toBe(0);
    await shell.signOut();
    await tab.waitForPath(/^\/user\/login/);
    expect(await shell.signOutDialog().count()).toBe(0);
  });

  it('with nothing unsent, signs out at once', async () => {
    const browser = await e2e.browser();
    const tab = await e2e.signedInApp(DEMO_USERS.tech, '/app/devices/list', browser);
    await expect.poll(() => syncIndicator(tab.page).getAttribute('data-state')).toBe('online');
    // A laptop's 720 px: the user menu stays inside the window (scrolling inside beyond), so its
    // last item, Sign out, can be reached; it ran below the window's edge once it grew.
    await tab.page.setViewportSize({ width: 1280, height: 720 });
    const shell = new ShellPage(tab.page);
    await shell.openUserMenu();
    const menu = tab.page.getByTestId('user-menu-dropdown');
    await expect
      .poll(async () => {
        const box = await menu.boundingBox();
        return box === null ? Infinity : box.y + box.height;
      })
      .toBeLessThanOrEqual(720);
    await tab.page.getByRole('menuitem', { name: 'Sign out' }).click();
    await tab.waitForPath(/^\/user\/login/);
    expect(await shell.signOutDialog().count()).toBe(0);
  });

  it('a session the server refuses: the stored user goes at once, the sign-in screen follows after 1 s', async () => {
    const browser = await e2e.browser();
    const tab = await e2e.signedInApp(DEMO_USERS.admin, '/app/devices/list', browser);
    await expect.poll(() => syncIndicator(tab.page).getAttribute('data-state')).toBe('online');

    // When the stored user goes and when the app is left, as the page sees it.
    await tab.page.evaluate(() => {
      const marks: { userGone?: number; leftApp?: number } = {};
      (window as unknown as { marks: typeof marks }).marks = marks;
      setInterval(() => {
        const now = performance.now();
        if (marks.userGone === undefined && localStorage.getItem('user') === null) {
          marks.userGone = now;
        }
        if (marks.leftApp === undefined && !location.pathname.startsWith('/app/')) {
          marks.leftApp = now;
        }
      }, 10);
    });
    // The token is revoked elsewhere (a sign-out on another device, an administrator): the
    // broker's credentials are refused when the connection is made again.
    const token = await tab.page.evaluate(() => localStorage.getItem('access_token'));
    expect((await e2e.server.call('POST', apiPaths.logout(), { token: token ?? '' })).status).toBe(
      200,
    );
    e2e.offline();
    e2e.online();

    await tab.waitForPath(/^\/user\/login/);
    const readMarks = () =>
      tab.page.evaluate(
        () => (window as unknown as { marks: { userGone?: number; leftApp?: number } }).marks,
      );
    // The page's clock notes the change on its next tick (10 ms).
    await expect.poll(async () => (await readMarks()).leftApp).toBeDefined();
    const marks = await readMarks();
    expect(marks.userGone).toBeDefined();
    expect((marks.leftApp ?? 0) - (marks.userGone ?? 0)).toBeGreaterThanOrEqual(900);
    expect(await tab.page.evaluate(() => localStorage.getItem('access_token'))).toBeNull();
  });
});
