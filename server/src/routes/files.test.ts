import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  API_BASE,
  apiPaths,
  FILE_CHECKSUM_MISMATCH,
  FILE_FIXED,
  FILE_NOT_UPLOADED,
  FILE_REQUIRED,
  FILE_TOO_LARGE,
  FILE_WRONG_TYPE,
  NUL_TEXT_MESSAGE,
  PHOTO_NOT_OF_ASSET,
  topics,
  UPLOAD_CHUNK_BYTES,
  UPLOAD_CHUNK_MAX_BYTES,
  uuidv7,
  type SyncedModel,
  type UploadState,
} from '@plant/shared-schema';
import path from 'node:path';
import { DiskBlobStore } from '../files/blob-store';
import { FilePruner, UNUSED_FILE_GRACE_MS } from '../files/file-pruner';
import { createLogger } from '../logger';
import { DEMO_USERS } from '../seed/demo';
import { dataOf, ManualClock, startTestServer, type TestServer } from '../testing/harness';
import { brokerClients, collect, until } from '../testing/mqtt-client';

/*
 * The file store (DESIGN.md §9): a file is a synced model whose bytes come in chunks that resume
 * where the stored part ends, are checked against the model's SHA-256, get a thumbnail when they
 * are an image, report progress on the upload topic, and are served only to who sees the asset.
 */
let s: TestServer;
let admin = '';
let tech = '';
let south = '';
const { session, connect, closeAll } = brokerClients(() => s);

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const snapshotOf = (token: string) => s.snapshot(token);

async function assetNamed(name: string, token = admin): Promise<string> {
  const found = (await snapshotOf(token)).find(
    (m) => m.type === 'asset' && m.attributes.name === name,
  );
  if (found === undefined) throw new Error(`no asset ${name}`);
  return found.id;
}

async function fileModel(id: string, token = admin): Promise<SyncedModel | undefined> {
  return (await snapshotOf(token)).find((m) => m.type === 'file' && m.id === id);
}

/** A file model for these bytes. */
async function makeFile(
  assetId: string,
  bytes: Uint8Array,
  extra: Record<string, unknown> = {},
  token = admin,
) {
  const id = uuidv7();
  const answer = await s.call('POST', apiPaths.collection('files'), {
    token,
    json: {
      id,
      asset_id: assetId,
      kind: 'document',
      name: 'manual.pdf',
      type: 'application/pdf',
      size: bytes.length,
      sha256: sha(bytes),
      ...extra,
    },
  });
  return { id, answer };
}

/** A raw chunk PUT (the test client's `call` sends text). */
async function putChunk(id: string, offset: number, bytes: Uint8Array, token = admin) {
  const res = await fetch(`${s.url}${API_BASE}/${apiPaths.fileUpload(id, offset)}`, {
    method: 'PUT',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/octet-stream' },
    body: bytes,
  });
  const text = await res.text();
  return { status: res.status, json: JSON.parse(text) as { data?: UploadState; message?: string } };
}

async function download(path: string, token = admin) {
  const res = await fetch(`${s.url}${API_BASE}/${path}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  return {
    status: res.status,
    headers: res.headers,
    bytes: new Uint8Array(await res.arrayBuffer()),
  };
}

const stateOf = async (id: string, token = admin) =>
  s.call('GET', apiPaths.fileUpload(id), { token });

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.signIn(DEMO_USERS.admin);
  tech = await s.signIn(DEMO_USERS.tech);
  south = await s.signIn(DEMO_USERS.south);
});
afterEach(() => closeAll());
afterAll(() => s.close());

describe('uploads in chunks', () => {
  it('stores a file chunk by chunk, resumes where the part ends, reports progress and serves the same bytes', async () => {
    const press = await assetNamed('Press line 1');
    const bytes = randomBytes(UPLOAD_CHUNK_BYTES * 2 + 12_345);
    const { id, answer } = await makeFile(press, bytes);
    expect(answer.status).toBe(201);
    expect(dataOf<SyncedModel>(answer).attributes).toMatchObject({ state: 'uploading' });

    const watcher = session(DEMO_USERS.admin).then(async (w) => {
      const client = await connect(w.creds);
      await client.subscribeAsync(topics.uploadProgress(w.user.account));
      return collect(client);
    });
    const progress = await watcher;

    expect(dataOf<UploadState>(await stateOf(id))).toEqual({
      received: 0,
      size: bytes.length,
      state: 'uploading',
    });
    const first = await putChunk(id, 0, bytes.subarray(0, UPLOAD_CHUNK_BYTES));
    expect(first.status).toBe(200);
    expect(first.json.data?.received).toBe(UPLOAD_CHUNK_BYTES);
    // A chunk sent again (its answer was lost) or out of place: 409, and the state says where.
    expect((await putChunk(id, 0, bytes.subarray(0, UPLOAD_CHUNK_BYTES))).status).toBe(409);
    expect(dataOf<UploadState>(await stateOf(id)).received).toBe(UPLOAD_CHUNK_BYTES);
    // Nothing is readable before the last byte.
    const early = await download(apiPaths.fileContent(id));
    expect(early.status).toBe(409);
    expect(new TextDecoder().decode(early.bytes)).toContain(FILE_NOT_UPLOADED);

    let offset = UPLOAD_CHUNK_BYTES;
    while (offset < bytes.length) {
      const end = Math.min(offset + UPLOAD_CHUNK_BYTES, bytes.length);
      const put = await putChunk(id, offset, bytes.subarray(offset, end));
      expect(put.status).toBe(200);
      offset = end;
    }
    expect(dataOf<UploadState>(await stateOf(id))).toEqual({
      received: bytes.length,
      size: bytes.length,
      state: 'ready',
    });
    expect((await fileModel(id))?.attributes).toMatchObject({ state: 'ready', thumbnail: false });

    const got = await download(apiPaths.fileContent(id));
    expect(got.status).toBe(200);
    expect(sha(got.bytes)).toBe(sha(bytes));
    expect(got.headers.get('content-type')).toBe('application/pdf');
    expect(got.headers.get('content-disposition')).toBe("attachment; filename*=UTF-8''manual.pdf");
    expect(got.headers.get('x-content-type-options')).toBe('nosniff');
    expect(got.headers.get('cache-control')).toBe('private, no-store');
    expect(got.headers.get('content-security-policy')).toContain('sandbox');

    await until(() => progress.some((p) => (p.payload as { progress: number }).progress === 1));
    const seen = progress
      .filter((p) => (p.payload as { id: string }).id === id)
      .map((p) => (p.payload as { progress: number }).progress);
    expect(seen[0]).toBeCloseTo(UPLOAD_CHUNK_BYTES / bytes.length);
    expect(seen.at(-1)).toBe(1);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
  });

  it('reads a refused chunk to its end, so its connection carries the next request (a slow client too)', async () => {
    const press = await assetNamed('Press line 1');
    const bytes = randomBytes(1000);
    const { id } = await makeFile(press, bytes);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const url = new URL(s.url);
    const request = (
      method: string,
      target: string,
      write: (req: http.ClientRequest) => Promise<void>,
    ) =>
      new Promise<{ status: number; reused: boolean; text: string }>((resolve, reject) => {
        const req = http.request(
          {
            agent,
            host: url.hostname,
            port: url.port,
            method,
            path: `${API_BASE}/${target}`,
            headers: {
              Authorization: `Bearer ${admin}`,
              ...(method === 'PUT'
                ? { 'Content-Type': 'application/octet-stream', 'Content-Length': '1000' }
                : {}),
            },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () =>
              resolve({
                status: res.statusCode ?? 0,
                reused: req.reusedSocket,
                text: Buffer.concat(chunks).toString(),
              }),
            );
          },
        );
        req.on('error', reject);
        void write(req).then(() => req.end(), reject);
      });
    try {
      // The chunk at the wrong place (the upload stands at 0), its second half a second late: a
      // client on a slow link. The pause is the client's, not a wait for an outcome.
      const refused = await request('PUT', apiPaths.fileUpload(id, 500), async (req) => {
        req.write(bytes.subarray(0, 500));
        await new Promise((r) => setTimeout(r, 1_000));
        req.write(bytes.subarray(500));
      });
      expect(refused.status, refused.text).toBe(409);
      const next = await request('GET', apiPaths.fileUpload(id), () => Promise.resolve());
      expect(next).toMatchObject({ status: 200, reused: true });
    } finally {
      agent.destroy();
    }
  });

  it('throws away bytes that do not match the checksum, so the upload starts again', async () => {
    const press = await assetNamed('Press line 1');
    const bytes = randomBytes(1000);
    const { id } = await makeFile(press, bytes);
    const wrong = Uint8Array.from(bytes);
    wrong[500] = (wrong[500] ?? 0) ^ 0xff;
    const put = await putChunk(id, 0, wrong);
    expect(put.status).toBe(422);
    expect(put.json.message).toBe(FILE_CHECKSUM_MISMATCH);
    expect(dataOf<UploadState>(await stateOf(id)).received).toBe(0);
    expect((await putChunk(id, 0, bytes)).json.data?.state).toBe('ready');
  });

  it('refuses a chunk past the end of the file and one larger than the chunk limit', async () => {
    const press = await assetNamed('Press line 1');
    const bytes = randomBytes(100);
    const { id } = await makeFile(press, bytes);
    const past = await putChunk(id, 0, randomBytes(101));
    expect(past.status).toBe(422);
    expect(dataOf<UploadState>(await stateOf(id)).received).toBe(0);
    const huge = await makeFile(press, randomBytes(UPLOAD_CHUNK_MAX_BYTES + 10));
    expect((await putChunk(huge.id, 0, randomBytes(UPLOAD_CHUNK_MAX_BYTES + 10))).status).toBe(413);
  });

  it('makes a WebP thumbnail of a photo and shows it as the asset photo', async () => {
    const press = await assetNamed('Press line 2');
    const png = await sharp({
      create: { width: 1200, height: 800, channels: 3, background: { r: 200, g: 30, b: 30 } },
    })
      .png()
      .toBuffer();
    const { id } = await makeFile(press, png, {
      kind: 'photo',
      name: 'front.png',
      type: 'image/png',
    });
    expect((await putChunk(id, 0, png)).json.data?.state).toBe('ready');
    expect((await fileModel(id))?.attributes).toMatchObject({ thumbnail: true });
    const thumb = await download(apiPaths.fileThumbnail(id));
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toBe('image/webp');
    const meta = await sharp(thumb.bytes).metadata();
    expect(meta.format).toBe('webp');
    expect(Math.max(meta.width, meta.height)).toBe(320);
    const full = await download(apiPaths.fileContent(id));
    expect(full.headers.get('content-disposition')).toBe("inline; filename*=UTF-8''front.png");

    const set = await s.call('PUT', apiPaths.model('assets', press), {
      token: admin,
      json: { photo: id },
    });
    expect(set.status).toBe(200);
    // Deleting the photo clears the asset's reference to it.
    expect((await s.call('DELETE', apiPaths.model('files', id), { token: admin })).status).toBe(
      200,
    );
    const asset = (await snapshotOf(admin)).find((m) => m.id === press);
    expect(asset?.attributes.photo).toBeNull();
  });

  it('makes no thumbnail of bytes that only say they are an image', async () => {
    const press = await assetNamed('Press line 2');
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
    );
    const { id } = await makeFile(press, svg, { kind: 'photo', name: 'x.png', type: 'image/png' });
    expect((await putChunk(id, 0, svg)).json.data?.state).toBe('ready');
    expect((await fileModel(id))?.attributes).toMatchObject({ state: 'ready', thumbnail: false });
    expect((await download(apiPaths.fileThumbnail(id))).status).toBe(404);
  });

  it('a checksum alone never opens the bytes of a file on an asset the caller does not see', async () => {
    const hiddenBytes = randomBytes(700);
    const hidden = await makeFile(await assetNamed('CNC mill M12'), hiddenBytes);
    await putChunk(hidden.id, 0, hiddenBytes);
    // The technician edits Press line 1 and names the hidden file's checksum and size.
    const guess = await makeFile(await assetNamed('Press line 1', tech), hiddenBytes, {}, tech);
    expect(guess.answer.status).toBe(201);
    expect(dataOf<UploadState>(await stateOf(guess.id, tech))).toMatchObject({
      state: 'uploading',
      received: 0,
    });
    expect((await download(apiPaths.fileContent(guess.id), tech)).status).toBe(409);
    // Without the bytes the upload cannot end.
    expect((await putChunk(guess.id, 0, randomBytes(700), tech)).status).toBe(422);
  });

  it('a file whose bytes the account already holds is ready without an upload', async () => {
    const press = await assetNamed('Press line 1');
    const bytes = randomBytes(2048);
    const first = await makeFile(press, bytes);
    await putChunk(first.id, 0, bytes);
    const again = await makeFile(press, bytes, { name: 'copy.pdf' });
    expect(dataOf<UploadState>(await stateOf(again.id)).state).toBe('ready');
    expect(sha((await download(apiPaths.fileContent(again.id))).bytes)).toBe(sha(bytes));
  });
});

describe('file rules', () => {
  it('a download is named without bidi and control characters, whatever the stored name has', async () => {
    const press = await assetNamed('Press line 1');
    // Each would make a name show as something else in the download bar, or cut it.
    const hidden = [
      '\u200E',
      '\u200F',
      '\u202A',
      '\u202B',
      '\u202C',
      '\u202D',
      '\u202E',
      '\u2066',
      '\u2067',
      '\u2068',
      '\u2069',
      '\u061C',
      '\u0007',
      '\n',
      '\r',
      '\u007F',
      '\u0085',
      '\u009B',
    ];
    const png = await sharp({
      create: { width: 8, height: 8, channels: 3, background: { r: 9, g: 9, b: 9 } },
    })
      .png()
      .toBuffer();
    const name = `inv${hidden.join('')}oice\u202Egnp.exe.png`;
    // NUL is refused on the way in (Postgres stores none); a download would drop it too.
    const nul = await makeFile(press, png, { kind: 'photo', name: 'a\u0000b.png' });
    expect(nul.answer.status).toBe(422);
    expect(nul.answer.json).toMatchObject({ errors: { name: [NUL_TEXT_MESSAGE] } });
    const { id, answer } = await makeFile(press, png, { kind: 'photo', name, type: 'image/png' });
    expect(answer.status).toBe(201);
    // Stored as given: the name a user typed is theirs; only what a download is saved as changes.
    expect(dataOf<SyncedModel>(answer).attributes.name).toBe(name);
    expect((await putChunk(id, 0, png)).status).toBe(200);
    const content = await download(apiPaths.fileContent(id));
    expect(content.headers.get('content-disposition')).toBe(
      `inline; filename*=UTF-8''${encodeURIComponent('invoicegnp.exe.png')}`,
    );
    const thumbnail = await download(apiPaths.fileThumbnail(id));
    expect(thumbnail.status).toBe(200);
    expect(thumbnail.headers.get('content-disposition')).toBe(
      `inline; filename*=UTF-8''${encodeURIComponent('invoicegnp.exe.png.webp')}`,
    );
  });

  it('checks kind, type, size and keeps a file as it was uploaded', async () => {
    const press = await assetNamed('Press line 1');
    const pdfAsPhoto = await makeFile(press, randomBytes(10), { kind: 'photo' });
    expect(pdfAsPhoto.answer.status).toBe(422);
    expect(pdfAsPhoto.answer.json).toMatchObject({ errors: { type: [FILE_WRONG_TYPE.photo] } });
    const script = await makeFile(press, randomBytes(10), { type: 'text/html' });
    expect(script.answer.json).toMatchObject({ errors: { type: [FILE_WRONG_TYPE.document] } });
    const bigPhoto = await makeFile(press, randomBytes(10), {
      kind: 'photo',
      type: 'image/jpeg',
      size: 21 * 1024 * 1024,
    });
    expect(bigPhoto.answer.json).toMatchObject({ errors: { size: [FILE_TOO_LARGE.photo] } });
    const empty = await makeFile(press, randomBytes(10), { size: 0 });
    expect(empty.answer.json).toMatchObject({ errors: { size: [FILE_REQUIRED] } });

    const bytes = randomBytes(10);
    const { id } = await makeFile(press, bytes);
    const renamed = await s.call('PUT', apiPaths.model('files', id), {
      token: admin,
      json: { name: 'Wiring diagram.pdf' },
    });
    expect(renamed.status).toBe(200);
    const changed = await s.call('PUT', apiPaths.model('files', id), {
      token: admin,
      json: { sha256: sha(randomBytes(10)) },
    });
    expect(changed.status).toBe(422);
    expect(changed.json).toMatchObject({ errors: { sha256: [FILE_FIXED] } });
    // A client cannot say it is uploaded.
    await s.call('PUT', apiPaths.model('files', id), { token: admin, json: { state: 'ready' } });
    expect((await fileModel(id))?.attributes.state).toBe('uploading');
    // A document is not a photo.
    const asPhoto = await s.call('PUT', apiPaths.model('assets', press), {
      token: admin,
      json: { photo: id },
    });
    expect(asPhoto.json).toMatchObject({ errors: { photo: [PHOTO_NOT_OF_ASSET] } });
  });
});

describe('access to files', () => {
  it('who does not see the asset, or is in another account, finds no file on any route', async () => {
    // The technician sees four machines and edits the first; "Robot cell R1" is not among them.
    const hidden = await assetNamed('CNC mill M12');
    const bytes = randomBytes(64);
    const { id } = await makeFile(hidden, bytes);
    await putChunk(id, 0, bytes);
    for (const token of [tech, south]) {
      expect((await stateOf(id, token)).status).toBe(404);
      expect((await putChunk(id, 0, bytes, token)).status).toBe(404);
      expect((await download(apiPaths.fileContent(id), token)).status).toBe(404);
      expect((await download(apiPaths.fileThumbnail(id), token)).status).toBe(404);
      expect((await s.call('DELETE', apiPaths.model('files', id), { token })).status).toBe(404);
    }
    expect((await download(apiPaths.fileContent(id), '')).status).toBe(401);
    expect(sha((await download(apiPaths.fileContent(id))).bytes)).toBe(sha(bytes));
  });

  it('upload progress reaches only who sees the file’s asset', async () => {
    const watcher = await session(DEMO_USERS.tech);
    const client = await connect(watcher.creds);
    const got = collect(client);
    await client.subscribeAsync(topics.uploadProgress(watcher.user.account));
    const hidden = await makeFile(await assetNamed('CNC mill M12'), randomBytes(100));
    const seen = await makeFile(await assetNamed('Press line 1'), randomBytes(100));
    // Half of each: published while the technician's connection reads its access, so again
    // until the one it sees arrives.
    for (let i = 0; i < 50 && got.length === 0; i++) {
      await putChunk(hidden.id, i * 2, randomBytes(2));
      await putChunk(seen.id, i * 2, randomBytes(2));
      await until(() => got.length > 0, 100).catch(() => undefined);
    }
    expect(got.length).toBeGreaterThan(0);
    const ids = got.map((g) => (g.payload as { id: string }).id);
    expect(ids.every((id) => id === seen.id)).toBe(true);
    expect(Object.keys(got[0]?.payload as object).sort()).toEqual(['id', 'message', 'progress']);
  });

  it('who sees an asset without editing it reads its files but cannot upload or add any', async () => {
    // The technician edits "Press line 1" and only sees "Press line 2".
    const seenOnly = await assetNamed('Press line 2', tech);
    const edited = await assetNamed('Press line 1', tech);
    const bytes = randomBytes(64);
    const { id } = await makeFile(seenOnly, bytes);
    expect((await putChunk(id, 0, bytes, tech)).status).toBe(403);
    await putChunk(id, 0, bytes);
    expect(sha((await download(apiPaths.fileContent(id), tech)).bytes)).toBe(sha(bytes));
    expect((await makeFile(seenOnly, bytes, {}, tech)).answer.status).toBe(403);

    const own = await makeFile(edited, bytes, {}, tech);
    expect(own.answer.status).toBe(201);
    expect(dataOf<UploadState>(await stateOf(own.id, tech)).state).toBe('ready');
  });
});

describe('freeing the file store', () => {
  it('deletes the bytes of deleted files and parts of abandoned uploads, after a grace period', async () => {
    const press = await assetNamed('Press line 1');
    const kept = randomBytes(300);
    const gone = randomBytes(400);
    const keptFile = await makeFile(press, kept);
    await putChunk(keptFile.id, 0, kept);
    const goneFile = await makeFile(press, gone);
    await putChunk(goneFile.id, 0, gone);
    const abandoned = await makeFile(press, randomBytes(500));
    await putChunk(abandoned.id, 0, randomBytes(100));
    for (const id of [goneFile.id, abandoned.id]) {
      expect((await s.call('DELETE', apiPaths.model('files', id), { token: admin })).status).toBe(
        200,
      );
    }
    const store = new DiskBlobStore(path.join(s.dataDir, 'files'));
    const account = (await s.demoAccountIds()).root;
    const clock = new ManualClock(Date.now());
    const pruner = new FilePruner(s.db, clock, createLogger('error'), store);
    // Within the grace period nothing goes.
    expect(await pruner.pruneNow()).toEqual({ blobs: 0, parts: 0 });
    expect(await store.size(account, sha(gone))).toBe(gone.length);
    clock.advance(UNUSED_FILE_GRACE_MS + 1000);
    const pruned = await pruner.pruneNow();
    expect(pruned.blobs).toBeGreaterThanOrEqual(1);
    expect(pruned.parts).toBe(1);
    expect(await store.size(account, sha(gone))).toBeUndefined();
    expect(await store.partSize(account, abandoned.id)).toBe(0);
    expect(sha((await download(apiPaths.fileContent(keptFile.id))).bytes)).toBe(sha(kept));
  });
});
