import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiPaths,
  THEME_TEXTS,
  type AccountView,
  type ModelUpdate,
  type StaticConf,
  uuidv7,
} from '@plant/shared-schema';
import { DEMO_USERS } from '../seed/demo';
import { DEMO_NORTH_HOST, DEMO_THEMES } from '../seed/demo-themes';
import { dataOf, startTestServer, type Answer, type TestServer } from '../testing/harness';
import { uploadOwnedFile } from '../testing/release-upload';
import { roleMember } from '../testing/role-member';

/*
 * Themes on the server (issue 36 item 1): one model with the design; colours checked as hex and
 * for the contrast of white text on them; images are files of the theme, served to anyone while
 * the theme names them; an account picks a theme of its own or of one above, its subaccounts
 * show it unless they pick their own; a change reaches every account that shows it (their synced
 * account model); /staticconf follows the host.
 */
let s: TestServer;
let admin = '';
let ids: { root: string; north: string; south: string };

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.signIn(DEMO_USERS.admin);
  ids = await s.demoAccountIds();
});
afterAll(async () => {
  await s.close();
});

const post = (collection: string, json: unknown, token = admin) =>
  s.call('POST', apiPaths.collection(collection), { token, json });
const put = (collection: string, id: string, json: unknown, token = admin) =>
  s.call('PUT', apiPaths.model(collection, id), { token, json });
const errorsOf = (answer: Answer) =>
  (JSON.parse(answer.text) as { errors?: Record<string, string[]> }).errors ?? {};
const staticConf = async (host: string) => {
  // Through http.request (a loopback `from`): fetch sends its own Host.
  const answer = await s.call('GET', '/staticconf', { headers: { Host: host }, from: '127.0.0.1' });
  expect(answer.status).toBe(200);
  return (answer.json as StaticConf).theme;
};
const png = async (colour: string) =>
  new Uint8Array(
    await sharp({ create: { width: 40, height: 20, channels: 3, background: colour } })
      .png()
      .toBuffer(),
  );

describe('themes', () => {
  it('checks the title, the hex codes and the contrast of white text on each colour', async () => {
    const missing = await post('themes', { id: uuidv7(), color1: '#0b5394' });
    expect(missing.status).toBe(422);
    expect(errorsOf(missing).title).toEqual([THEME_TEXTS.title]);
    const notHex = await post('themes', { id: uuidv7(), title: 'A', color1: 'blue' });
    expect(errorsOf(notHex).color1).toEqual(['Valid hex code for colours']);
    // Yellow under white text: 1.07:1.
    const pale = await post('themes', { id: uuidv7(), title: 'A', color2: '#f1c232' });
    expect(pale.status).toBe(422);
    expect(errorsOf(pale).color2).toEqual([THEME_TEXTS.contrast]);
    const id = uuidv7();
    expect((await post('themes', { id, title: 'Dark enough', color2: '#7f6000' })).status).toBe(
      201,
    );
    const paler = await put('themes', id, { color1: '#d9ead3' });
    expect(errorsOf(paler).color1).toEqual([THEME_TEXTS.contrast]);
  });

  it('serves a theme’s images to anyone while the theme names them, and no other file', async () => {
    const id = uuidv7();
    expect((await post('themes', { id, title: 'Logos' })).status).toBe(201);
    const bytes = await png('#0b5394');
    const logo = await uploadOwnedFile(s, admin, { theme_id: id }, 'image', bytes, {
      name: 'logo.png',
      type: 'image/png',
    });
    const image = (fileId: string) => s.call('GET', `/api/v1/theme-images/${fileId}`);
    // Uploaded but not named yet: unknown.
    expect((await image(logo)).status).toBe(404);
    expect((await put('themes', id, { logo_desktop: logo })).status).toBe(200);
    const served = await image(logo);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    // A file that is not the theme's image is refused as one.
    const other = uuidv7();
    expect((await post('themes', { id: other, title: 'Other' })).status).toBe(201);
    const named = await put('themes', other, { logo_mobile: logo });
    expect(errorsOf(named).logo_mobile).toEqual([THEME_TEXTS.imageOfTheme]);
    // Bytes that are no image are never served as one, whatever the upload said.
    const fake = await uploadOwnedFile(
      s,
      admin,
      { theme_id: id },
      'image',
      new TextEncoder().encode('<script>alert(1)</script>'),
      {
        name: 'logo.png',
        type: 'image/png',
      },
    );
    expect((await put('themes', id, { logo_mobile: fake })).status).toBe(200);
    expect((await image(fake)).status).toBe(404);
    // An image is a theme's, and a theme's file is an image.
    const stray = await post('files', {
      id: uuidv7(),
      theme_id: id,
      kind: 'document',
      name: 'a.pdf',
      type: 'application/pdf',
      size: 10,
      sha256: '0'.repeat(64),
    });
    expect(stray.status).toBe(422);
  });

  it('lets a replaced or removed image go with the save: its file is deleted, unless another field names it', async () => {
    const id = uuidv7();
    expect((await post('themes', { id, title: 'Changing logos' })).status).toBe(201);
    const upload = async (name: string, colour: string) =>
      uploadOwnedFile(s, admin, { theme_id: id }, 'image', await png(colour), {
        name,
        type: 'image/png',
      });
    const first = await upload('first.png', '#0b5394');
    const second = await upload('second.png', '#38761d');
    const third = await upload('third.png', '#990000');
    // Whether the account's models hold the file.
    const held = async (fileId: string) =>
      (await s.snapshot(admin)).some((m) => m.type === 'file' && m.id === fileId);
    // The same image as both logos, the login image another.
    expect(
      (await put('themes', id, { logo_desktop: first, logo_mobile: first, login_image: second }))
        .status,
    ).toBe(200);
    // A change of other fields keeps every image.
    expect((await put('themes', id, { title: 'Changed logos' })).status).toBe(200);
    expect([await held(first), await held(second), await held(third)]).toEqual([true, true, true]);
    // Replaced in one field, still named by the other: kept.
    expect((await put('themes', id, { logo_desktop: third })).status).toBe(200);
    expect(await held(first)).toBe(true);
    // Replaced in the last field that named it, and a removed one: both go, told to the account
    // as deletes; the theme's images now are served as before.
    const from = Date.now() - 1;
    expect((await put('themes', id, { logo_mobile: third, login_image: null })).status).toBe(200);
    expect([await held(first), await held(second), await held(third)]).toEqual([
      false,
      false,
      true,
    ]);
    const told = (
      (await s.call('GET', apiPaths.mqttlogs(from), { token: admin })).json as {
        data: { msg: ModelUpdate }[];
      }
    ).data
      .map((d) => d.msg)
      .filter((m) => m.action === 'item_deleted' && m.type === 'file')
      .map((m) => m.id)
      .sort();
    expect(told).toEqual([first, second].sort());
    expect((await s.call('GET', `/api/v1/theme-images/${third}`)).status).toBe(200);
    // The theme's delete takes its images with it.
    expect((await s.call('DELETE', apiPaths.model('themes', id), { token: admin })).status).toBe(
      200,
    );
    expect(await held(third)).toBe(false);
  });

  it('is picked by an account, shown below it, followed at once, and by the host’s sign-in page', async () => {
    const theme = uuidv7();
    expect(
      (await post('themes', { id: theme, title: 'North brand', color1: '#38761d' })).status,
    ).toBe(201);
    // North picks it (from the root account, where the theme is): its members' view shows it.
    expect(
      (
        await s.call('PUT', apiPaths.accountById(ids.north), {
          token: admin,
          json: { theme_id: theme },
        })
      ).status,
    ).toBe(200);
    const me = dataOf<{ id: string }>(await s.call('GET', apiPaths.user(), { token: admin }));
    const switchTo = async (account: string) =>
      expect(
        (await s.call('POST', apiPaths.setActiveAccount(me.id, account), { token: admin })).status,
      ).toBe(200);
    await switchTo(ids.north);
    const shown = async () =>
      dataOf<AccountView>(await s.call('GET', 'user/account', { token: admin })).theme;
    expect((await shown()).color1).toBe('#38761d');
    expect((await staticConf(DEMO_NORTH_HOST)).color1).toBe('#38761d');
    // A theme of an account not above North cannot be picked there.
    const ownTheme = uuidv7();
    expect((await post('themes', { id: ownTheme, title: 'North own' })).status).toBe(201);
    await switchTo(ids.root);
    const refused = await s.call('PUT', apiPaths.accountById(ids.root), {
      token: admin,
      json: { theme_id: ownTheme },
    });
    expect(errorsOf(refused).theme_id).toEqual([THEME_TEXTS.notReachable]);

    // A change of the theme reaches North's log as its account model, with the new colour.
    const since = Date.now() - 1;
    expect((await put('themes', theme, { color1: '#274e13' })).status).toBe(200);
    await switchTo(ids.north);
    const read = await s.call('GET', apiPaths.mqttlogs(since), { token: admin });
    const log = (read.json as { data: { msg: ModelUpdate }[] }).data.map((entry) => entry.msg);
    const account = log.find(
      (u) => u.type === 'account' && u.id === ids.north && u.action === 'updated',
    );
    expect(account?.attributes).toMatchObject({
      theme: { themeId: theme, color1: '#274e13' },
    });
    expect((await staticConf(DEMO_NORTH_HOST)).color1).toBe('#274e13');
    // An unknown host shows the machine builder's theme; a theme in use is not deleted.
    expect(await staticConf('elsewhere.example')).toMatchObject(DEMO_THEMES.root);
    await switchTo(ids.root);
    const gone = await s.call('DELETE', apiPaths.model('themes', theme), { token: admin });
    expect(errorsOf(gone).title).toEqual([THEME_TEXTS.inUse]);
  });

  it('ties a host from above only, one account per host; needs theme::edit to write', async () => {
    const me = dataOf<{ id: string }>(await s.call('GET', apiPaths.user(), { token: admin }));
    await s.call('POST', apiPaths.setActiveAccount(me.id, ids.north), { token: admin });
    const own = await s.call('PUT', apiPaths.accountById(ids.north), {
      token: admin,
      json: { host: 'mine.example' },
    });
    expect(own.status).toBe(403);
    await s.call('POST', apiPaths.setActiveAccount(me.id, ids.root), { token: admin });
    const taken = await s.call('PUT', apiPaths.accountById(ids.south), {
      token: admin,
      json: { host: DEMO_NORTH_HOST },
    });
    expect(errorsOf(taken).host).toEqual(['This host is tied to another account already.']);
    const viewer = await roleMember(s, {
      adminToken: admin,
      accountId: ids.root,
      name: 'Viewer',
      permissions: ['theme::view'],
      domain: 'themes.example',
    });
    const refused = await post('themes', { id: uuidv7(), title: 'Nope' }, viewer.token);
    expect(refused.status).toBe(403);
  });
});
