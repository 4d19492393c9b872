import http from 'node:http';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API_BASE,
  apiPaths,
  DESIGN_IMAGE_MAX_BYTES,
  DESIGN_IMAGE_TEXTS,
  type AccountDesign,
  type DesignImageAnswer,
} from '@plant/shared-schema';
import { DiskBlobStore } from '../files/blob-store';
import { FilePruner, UNUSED_FILE_GRACE_MS } from '../files/file-pruner';
import { createLogger } from '../logger';
import { DEMO_USERS } from '../seed/demo';
import { dataOf, ManualClock, startTestServer, type TestServer } from '../testing/harness';

/*
 * Issue 30 item 9: the images of an account's design are uploaded as files. The server decides
 * what the bytes are (never the name or the type given), keeps them in the account's file store,
 * and serves them without a token (the sign-in screen) only while the design names them.
 */
let s: TestServer;
let admin = '';
let tech = '';
let ids: Awaited<ReturnType<TestServer['demoAccountIds']>>;

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.signIn(DEMO_USERS.admin);
  tech = await s.signIn(DEMO_USERS.tech);
  ids = await s.demoAccountIds();
});
afterAll(() => s.close());

const image = (format: 'png' | 'jpeg', colour: string, size = 64) =>
  sharp({ create: { width: size, height: size / 2, channels: 3, background: colour } })
    .toFormat(format)
    .toBuffer();

async function upload(account: string, bytes: Uint8Array, type: string, token = admin) {
  const res = await fetch(`${s.url}${API_BASE}/${apiPaths.accountDesignImages(account)}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': type },
    body: bytes,
  });
  const json = (await res.json()) as {
    data?: DesignImageAnswer;
    errors?: Record<string, string[]>;
    message?: string;
  };
  return { status: res.status, json };
}

/**
 * A body past the limit on a connection of its own: the server answers 413 before reading it
 * and closes that connection, which fetch's pool would otherwise hand to the next request.
 */
function uploadAlone(
  account: string,
  bytes: Uint8Array,
): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${s.url}${API_BASE}/${apiPaths.accountDesignImages(account)}`,
      {
        method: 'POST',
        agent: false,
        headers: {
          Authorization: `Bearer ${admin}`,
          'Content-Type': 'image/png',
          'Content-Length': String(bytes.byteLength),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            json: JSON.parse(Buffer.concat(chunks).toString()) as unknown,
          }),
        );
      },
    );
    // The server may close before taking it all: the answer already came.
    req.on('error', reject);
    req.end(bytes);
  });
}

const served = (url: string) => fetch(`${s.url}${url}`);

const design = (changes: Partial<AccountDesign>): AccountDesign => ({
  color1: null,
  color2: null,
  title: null,
  logoDesktop: null,
  logoMobile: null,
  loginImage: null,
  ...changes,
});

const setDesign = (account: string, value: AccountDesign) =>
  s.call('PUT', apiPaths.accountDesign(account), { token: admin, json: value });

describe("the images of an account's design", () => {
  it('are checked by their bytes, and served to anyone only while the design names them', async () => {
    const png = await image('png', '#336699');
    const made = await upload(ids.root, png, 'image/png');
    expect(made.status).toBe(201);
    const answer = made.json.data;
    expect(answer).toMatchObject({ type: 'image/png', size: png.length, width: 64, height: 32 });
    const url = answer?.url ?? '';
    expect(url).toMatch(new RegExp(`^${API_BASE}/design-images/${ids.root}/[0-9a-f]{64}\\.png$`));

    // Uploaded but not named by the design: nobody reads it (not even the account's own admin).
    expect((await served(url)).status).toBe(404);
    expect((await setDesign(ids.root, design({ loginImage: url }))).status).toBe(200);
    const res = await served(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await res.arrayBuffer()).equals(png)).toBe(true);
    // The same address under another account, or another ending, is nothing.
    expect((await served(url.replace(ids.root, ids.north))).status).toBe(404);
    expect((await served(url.replace(/\.png$/, '.gif'))).status).toBe(404);

    // Named no more: gone from the public path.
    expect((await setDesign(ids.root, design({}))).status).toBe(200);
    expect((await served(url)).status).toBe(404);
  });

  it('refuses what is not a PNG, JPEG, WebP or GIF image, whatever its type says', async () => {
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
    );
    const asSvg = await upload(ids.root, svg, 'image/png');
    expect(asSvg.status).toBe(422);
    expect(asSvg.json.errors?.file).toEqual([DESIGN_IMAGE_TEXTS.wrongType]);
    const text = await upload(ids.root, Buffer.from('not an image at all'), 'image/png');
    expect(text.status).toBe(422);
    expect(text.json.errors?.file).toEqual([DESIGN_IMAGE_TEXTS.notImage]);
    const empty = await upload(ids.root, new Uint8Array(0), 'image/png');
    expect(empty.status).toBe(422);
    const large = await uploadAlone(ids.root, new Uint8Array(DESIGN_IMAGE_MAX_BYTES + 1));
    expect(large).toEqual({
      status: 413,
      json: { success: false, message: DESIGN_IMAGE_TEXTS.tooLarge },
    });
    // A JPEG sent as "image/png" is a JPEG.
    const jpeg = await upload(ids.root, await image('jpeg', '#aa3300'), 'image/png');
    expect(jpeg.json.data?.type).toBe('image/jpeg');
    expect(jpeg.json.data?.url).toMatch(/\.jpg$/);
  });

  it("needs account::edit on an account within the user's reach", async () => {
    const png = await image('png', '#112233');
    expect((await upload(ids.root, png, 'image/png', tech)).status).toBe(403);
    const noToken = await fetch(`${s.url}${API_BASE}/${apiPaths.accountDesignImages(ids.root)}`, {
      method: 'POST',
      headers: { 'Content-Type': 'image/png' },
      body: png,
    });
    expect(noToken.status).toBe(401);
    expect((await upload('not-an-account', png, 'image/png')).status).toBe(404);
  });

  it('the file pruner keeps what the design names and frees what it never named', async () => {
    const named = await upload(ids.root, await image('png', '#445566'), 'image/png');
    const unsaved = await upload(ids.root, await image('png', '#778899'), 'image/png');
    const namedUrl = named.json.data?.url ?? '';
    expect((await setDesign(ids.root, design({ logoDesktop: namedUrl }))).status).toBe(200);
    const store = new DiskBlobStore(path.join(s.dataDir, 'files'));
    const shaOf = (url: string) => /([0-9a-f]{64})\./.exec(url)?.[1] ?? '';
    const clock = new ManualClock(Date.now());
    const pruner = new FilePruner(s.db, clock, createLogger('error'), store);
    clock.advance(UNUSED_FILE_GRACE_MS + 1000);
    await pruner.pruneNow();
    expect(await store.size(ids.root, shaOf(namedUrl))).toBe(named.json.data?.size);
    expect(await store.size(ids.root, shaOf(unsaved.json.data?.url ?? ''))).toBeUndefined();
    expect((await served(namedUrl)).status).toBe(200);
    expect(
      dataOf<unknown>(await s.call('GET', apiPaths.accountById(ids.root), { token: admin })),
    ).toMatchObject({ theme: { logoDesktop: namedUrl } });
  });
});
