import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, apiPaths, FILE_WRONG_TYPE } from '@plant/shared-schema';
import { DEMO_USERS } from '../../../server/src/seed/demo';
import { AssetAccessRepository } from '../../../server/src/repositories/asset-access.repository';
import { roleId } from '../../../server/src/testing/access';
import type { SyncEngine } from '../engine';
import { startTcpProxy, type TcpProxy } from '../testing/tcp-proxy';
import { FAST, SyncFixture, until, type Session } from '../testing/sync-fixture';
import type { UploadView } from '../api';

/*
 * Files in the worker (DESIGN.md §9) against the real server through a TCP proxy: a file added
 * offline shows at once, waits across a restart, and is uploaded once when the network is back;
 * an upload cut in the middle goes on where the server's part ends; what was read is kept for
 * offline use until the user frees it.
 */
let f: SyncFixture;
let proxy: TcpProxy;
let admin: Session;

beforeAll(async () => {
  f = await SyncFixture.start();
  proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(f.server.url).port) });
  admin = await f.session(DEMO_USERS.admin);
});
afterAll(async () => {
  await f.close();
  await proxy.close();
});

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const throughProxy = (chunkBytes?: number) =>
  f.engine(admin, {
    origin: proxy.url('http'),
    timings: {
      ...FAST,
      files: { ...FAST.files, ...(chunkBytes === undefined ? {} : { chunkBytes }) },
    },
  });

function offline(on: boolean) {
  proxy.refuse(on);
  if (on) proxy.resetAll();
}

async function ready(engine: SyncEngine) {
  await until('bootstrap and broker', () => {
    const c = engine.status.connection;
    return engine.status.bootstrap.name === 'done' && c.name === 'connected' && c.subscribed;
  });
}

async function newAsset(engine: SyncEngine, name: string): Promise<string> {
  const made = await engine.create('asset', { name });
  if ('error' in made) throw new Error(made.error.message);
  await until('asset on the server', async () =>
    (await f.serverState(admin.accountId)).has(`asset:${made.data.id}`),
  );
  return made.data.id;
}

/** The file's model on the server, if any. */
async function serverFile(id: string) {
  return (await f.serverState(admin.accountId)).get(`file:${id}`) as
    { state: string; sha256: string } | undefined;
}

/** The server's bytes of a file, read as a client would. */
async function serverBytes(id: string): Promise<Uint8Array> {
  const res = await fetch(`${f.server.url}${API_BASE}/${apiPaths.fileContent(id)}`, {
    headers: { Authorization: `Bearer ${admin.token}` },
  });
  expect(res.status).toBe(200);
  return new Uint8Array(await res.arrayBuffer());
}

describe('uploads', () => {
  it('a file added offline shows at once, waits through a restart, and reaches the server once', async () => {
    let engine = await throughProxy();
    await ready(engine);
    const asset = await newAsset(engine, 'Files offline');
    offline(true);
    const bytes = randomBytes(300_000);
    const added = await engine.files.add(
      asset,
      'document',
      new Blob([bytes], { type: 'application/pdf' }),
      'Wiring.pdf',
    );
    if ('error' in added) throw new Error(added.error.message);
    const { id } = added.data;
    const local = await engine.get('file', id);
    expect(local?.attributes).toMatchObject({
      name: 'Wiring.pdf',
      size: bytes.length,
      sha256: sha(bytes),
      state: 'uploading',
    });
    // Readable here before the server has a byte of it.
    const here = await engine.files.read(id, 'content');
    if ('error' in here) throw new Error(here.error.message);
    expect(sha(new Uint8Array(await here.data.arrayBuffer()))).toBe(sha(bytes));

    // A reload while offline: the bytes and the write wait in IndexedDB.
    await f.stopEngine(engine);
    engine = await throughProxy();
    const views: Record<string, UploadView>[] = [];
    engine.files.watch((v) => views.push({ ...v }));
    await until('the waiting upload is listed', () => views.at(-1)?.[id]?.state === 'waiting');
    expect(await serverFile(id)).toBeUndefined();

    offline(false);
    await until('uploaded', async () => (await serverFile(id))?.state === 'ready', 20_000);
    expect(sha(await serverBytes(id))).toBe(sha(bytes));
    const files = [...(await f.serverState(admin.accountId)).entries()].filter(
      ([k, v]) => k.startsWith('file:') && (v as { name: string }).name === 'Wiring.pdf',
    );
    expect(files).toHaveLength(1);
    await until('the upload leaves the list', () => views.at(-1)?.[id] === undefined);
    await until('the model says ready here too', async () => {
      return (await engine.get('file', id))?.attributes.state === 'ready';
    });
    // Kept for offline use: the bytes stay readable with the network gone.
    offline(true);
    const kept = await engine.files.read(id, 'content');
    if ('error' in kept) throw new Error(kept.error.message);
    expect(kept.data.size).toBe(bytes.length);
    expect((await engine.files.usage()).byAsset[asset]).toBe(bytes.length);
    offline(false);
    await f.stopEngine(engine);
  });

  it('an upload cut in the middle goes on where the server part ends, with the same bytes', async () => {
    const engine = await throughProxy(64 * 1024);
    await ready(engine);
    const asset = await newAsset(engine, 'Files cut');
    const bytes = randomBytes(1_000_000);
    const progress: number[] = [];
    engine.files.watch((v) => {
      const p = Object.values(v)[0]?.progress;
      if (p !== undefined) progress.push(p);
    });
    const before = proxy.stats;
    proxy.resetAfterUpstreamBytes(450_000);
    const added = await engine.files.add(
      asset,
      'document',
      new Blob([bytes], { type: 'application/zip' }),
      'Backup.zip',
    );
    if ('error' in added) throw new Error(added.error.message);
    await until(
      'uploaded',
      async () => (await serverFile(added.data.id))?.state === 'ready',
      20_000,
    );
    const after = proxy.stats;
    expect(after.resets).toBeGreaterThan(before.resets);
    expect(sha(await serverBytes(added.data.id))).toBe(sha(bytes));
    // Resumed, not started again (that would send the 450 kB before the cut twice): the file
    // once, the chunk the cut broke, and the requests around them.
    expect(after.bytesUp - before.bytesUp).toBeLessThan(bytes.length + 3 * 64 * 1024);
    expect(progress.length).toBeGreaterThan(3);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
    await f.stopEngine(engine);
  });

  it('refuses a file past its kind limits before anything is queued', async () => {
    const engine = await throughProxy();
    await ready(engine);
    const asset = await newAsset(engine, 'Files refused');
    const added = await engine.files.add(
      asset,
      'photo',
      new Blob([randomBytes(10)], { type: 'application/pdf' }),
      'notaphoto.pdf',
    );
    expect('error' in added && added.error.fields).toEqual({ type: [FILE_WRONG_TYPE.photo] });
    expect((await engine.replica.outbox()).filter((m) => m.type === 'file')).toHaveLength(0);
    expect((await engine.files.usage()).waitingBytes).toBe(0);
    await f.stopEngine(engine);
  });
});

describe('kept for offline use', () => {
  it('keeps the files of an opened asset, counts them, and frees them when asked', async () => {
    const writer = await throughProxy();
    await ready(writer);
    const asset = await newAsset(writer, 'Files kept');
    const bytes = randomBytes(5000);
    const added = await writer.files.add(
      asset,
      'document',
      new Blob([bytes], { type: 'text/plain' }),
      'notes.txt',
    );
    if ('error' in added) throw new Error(added.error.message);
    await until('uploaded', async () => (await serverFile(added.data.id))?.state === 'ready');
    await f.stopEngine(writer);

    // Another browser of the same user: nothing of it here until the asset is opened.
    const other = await f.session(DEMO_USERS.admin);
    const reader = await f.engine(other, {
      env: { ...f.env, indexedDB: new (await import('fake-indexeddb')).IDBFactory() },
    });
    await ready(reader);
    await until('the file model synced', async () => {
      return (await reader.get('file', added.data.id))?.attributes.state === 'ready';
    });
    expect((await reader.files.usage()).bytes).toBe(0);
    const kept = await reader.files.keep(asset);
    expect(kept).toEqual({ data: { files: 1, bytes: bytes.length } });
    expect((await reader.files.usage()).byAsset[asset]).toBe(bytes.length);
    await reader.files.free(asset);
    expect((await reader.files.usage()).bytes).toBe(0);
    await f.stopEngine(reader);
  });
});

describe('what leaves the store', () => {
  it('a deleted file takes its kept bytes with it', async () => {
    const engine = await throughProxy();
    await ready(engine);
    const asset = await newAsset(engine, 'Files deleted');
    const bytes = randomBytes(2000);
    const added = await engine.files.add(
      asset,
      'document',
      new Blob([bytes], { type: 'text/plain' }),
      'old.txt',
    );
    if ('error' in added) throw new Error(added.error.message);
    await until('uploaded', async () => (await serverFile(added.data.id))?.state === 'ready');
    await until('kept', async () => (await engine.files.usage()).byAsset[asset] === bytes.length);
    // Deleted elsewhere: the update reaches this engine, and the kept bytes go.
    const deleted = await f.server.call('DELETE', apiPaths.model('files', added.data.id), {
      token: admin.token,
    });
    expect(deleted.status).toBe(200);
    await until(
      'the kept bytes go',
      async () => (await engine.files.usage()).byAsset[asset] === undefined,
    );
    const read = await engine.files.read(added.data.id, 'content');
    expect('error' in read).toBe(true);
    await f.stopEngine(engine);
  });
});

describe('uploads whose file was refused', () => {
  it('wait while refused, go once the file is sent again and taken, and go away with their file', async () => {
    const tech = await f.session(DEMO_USERS.tech);
    const engine = await f.engine(tech, { origin: proxy.url('http') });
    await ready(engine);
    // The technician sees Press line 2 but may not change it: the file is refused.
    const press2 = (
      await engine.replica.store.db.models.find({ selector: { type: 'asset' } }).exec()
    )
      .map((d) => d.toJSON())
      .find((d) => (d.attributes as { name?: string } | null)?.name === 'Press line 2');
    if (press2 === undefined) throw new Error('no Press line 2');
    const bytes = randomBytes(3000);
    const added = await engine.files.add(
      press2.id,
      'document',
      new Blob([bytes], { type: 'text/plain' }),
      'refused.txt',
    );
    if ('error' in added) throw new Error(added.error.message);
    const views: Record<string, UploadView>[] = [];
    engine.files.watch((v) => views.push({ ...v }));
    await until('the upload is failed', () => views.at(-1)?.[added.data.id]?.state === 'failed');

    // An admin gives the role edit rights; the user sends the write again: the bytes follow.
    const grants = new AssetAccessRepository(f.server.db);
    await grants.grant(
      tech.accountId,
      await roleId(f.server.db, tech.accountId, 'technician'),
      press2.id,
      true,
    );
    const write = (await engine.replica.outbox()).find((m) => m.id === added.data.id);
    if (write === undefined) throw new Error('no write');
    expect(await engine.replica.retry(write.mutation_id)).toBe(true);
    await until('uploaded', async () => (await serverFile(added.data.id))?.state === 'ready');
    expect(sha(await serverBytes(added.data.id))).toBe(sha(bytes));
    await grants.grant(
      tech.accountId,
      await roleId(f.server.db, tech.accountId, 'technician'),
      press2.id,
      false,
    );

    // Refused for good and given up: its bytes go too.
    const again = await engine.files.add(
      press2.id,
      'document',
      new Blob([randomBytes(4000)], { type: 'text/plain' }),
      'given-up.txt',
    );
    if ('error' in again) throw new Error(again.error.message);
    await until('failed again', () => views.at(-1)?.[again.data.id]?.state === 'failed');
    const refused = (await engine.replica.outbox()).find((m) => m.id === again.data.id);
    if (refused === undefined) throw new Error('no write');
    expect(await engine.replica.discard(refused.mutation_id)).toBe(true);
    engine.files.nudge();
    await until('its bytes go', () => views.at(-1)?.[again.data.id] === undefined);
    expect((await engine.files.usage()).waitingBytes).toBe(0);
    await f.stopEngine(engine);
  });
});
