import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiPaths,
  fileAttributesSchema,
  themeAttributesSchema,
  type CurrentUser,
} from '@plant/shared-schema';
import { DiskBlobStore, keepBytes } from '../files/blob-store';
import { createLogger } from '../logger';
import { ModelRepository } from '../repositories/model.repository';
import { DEMO_USERS } from '../seed/demo';
import { dataOf, startTestServer, type TestServer } from '../testing/harness';
import { adoptDesigns, legacyDesignBlobs } from './adopt-designs';

/*
 * Issue 36 item 1: an account's design of issue 30 (its own columns) moves into a theme of its
 * own, which it picks; its uploaded images become files of that theme (the same bytes), served
 * as theme images. What cannot move (an image at another address, a colour white text cannot be
 * read on) stays in its column; a second start moves nothing again.
 */
let s: TestServer;

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

describe('account designs of issue 30 become themes', () => {
  it('moves colours, title and uploaded logos into a theme the account picks, once', async () => {
    const { south } = await s.demoAccountIds();
    const blobs = new DiskBlobStore(path.join(s.dataDir, 'files'));
    const logo = new Uint8Array(
      await sharp({ create: { width: 30, height: 10, channels: 3, background: '#224466' } })
        .png()
        .toBuffer(),
    );
    const sha = await keepBytes(blobs, south, logo);
    const logoPath = `/api/v1/design-images/${south}/${sha}.png`;
    await s.db
      .updateTable('accounts')
      .set({
        theme_id: null,
        color1: '#112233',
        color2: '#f1c232',
        title: 'South of old',
        logo_desktop: logoPath,
        login_image: 'https://cdn.example/login.jpg',
      })
      .where('id', '=', south)
      .execute();
    expect(await legacyDesignBlobs(s.db, south)).toEqual([sha]);

    const log = createLogger('error');
    expect(await adoptDesigns(s.db, { now: () => Date.now() }, log, blobs)).toBe(1);
    const account = await s.db
      .selectFrom('accounts')
      .selectAll()
      .where('id', '=', south)
      .executeTakeFirstOrThrow();
    expect(account).toMatchObject({
      color1: null,
      title: null,
      logo_desktop: null,
      // Kept where they were: white text is unreadable on this yellow, and this image is no upload.
      color2: '#f1c232',
      login_image: 'https://cdn.example/login.jpg',
    });
    const models = new ModelRepository(s.db);
    const themeRow = await models.find(south, 'theme', account.theme_id ?? '');
    const theme = themeAttributesSchema.parse(JSON.parse(themeRow?.attributes ?? '{}'));
    expect(theme).toMatchObject({ title: 'South of old', color1: '#112233', color2: null });
    const fileRow = await models.find(south, 'file', theme.logo_desktop ?? '');
    expect(fileAttributesSchema.parse(JSON.parse(fileRow?.attributes ?? '{}'))).toMatchObject({
      theme_id: account.theme_id,
      kind: 'image',
      sha256: sha,
      size: logo.byteLength,
      state: 'ready',
    });

    // Its users see the theme, and its logo is served from the same bytes.
    const token = await s.signIn(DEMO_USERS.south);
    const user = dataOf<CurrentUser>(await s.call('GET', apiPaths.user(), { token }));
    const design = user.activeAccount?.theme;
    expect(design).toMatchObject({ themeId: account.theme_id, title: 'South of old' });
    const served = await s.call('GET', design?.logoDesktop ?? '/missing');
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');

    // A second start moves nothing.
    expect(await adoptDesigns(s.db, { now: () => Date.now() }, log, blobs)).toBe(0);
  });
});
