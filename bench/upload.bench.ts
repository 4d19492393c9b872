import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { pipeline } from 'node:stream/promises';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import {
  API_BASE,
  apiPaths,
  UPLOAD_CHUNK_BYTES,
  uuidv7,
  type SyncedModel,
} from '@plant/shared-schema';
import { DEMO_USERS } from '../server/src/seed/demo';
import { dataOf, startTestServer } from '../server/src/testing/harness';
import { median } from './lib';

const MB = 1024 * 1024;
const SIZE = Number(process.env.BENCH_UPLOAD_MB ?? 50) * MB;
const ROUNDS = Number(process.env.BENCH_UPLOAD_ROUNDS ?? 3);

/**
 * Issue 16: a 50 MB document through the chunked upload (a file model, then 4 MB chunks, each a
 * request with its token, access and offset checked, appended to the part; the last one hashes
 * the whole against its SHA-256, stores the blob and marks the model ready, logged and published)
 * vs one plain PUT of the same bytes to a bare Hono route that streams them to a file, on the
 * same machine in the same run. The price of resumability and the checks, as a ratio.
 */
export async function benchUpload(): Promise<string[]> {
  const bytes = randomBytes(SIZE);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'plant-bench-upload-'));
  const bare = new Hono();
  let n = 0;
  bare.put('/upload', async (c) => {
    const body = c.req.raw.body;
    if (body === null) return c.json({ ok: false }, 400);
    await pipeline(
      Readable.fromWeb(body as NodeReadableStream<Uint8Array>),
      createWriteStream(path.join(dir, `plain-${n++}`)),
    );
    return c.json({ ok: true });
  });
  const plain = await new Promise<{ url: string; close: () => void }>((resolve) => {
    const server = serve({ fetch: bare.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
      resolve({ url: `http://127.0.0.1:${info.port}`, close: () => server.close() }),
    );
  });
  const s = await startTestServer();
  try {
    const token = await s.signIn(DEMO_USERS.admin);
    const snapshot = dataOf<{ models: SyncedModel[] }>(
      await s.call('GET', apiPaths.snapshot(undefined, 2000), { token }),
    ).models;
    const asset = snapshot.find((m) => m.type === 'asset');
    if (asset === undefined) throw new Error('no asset to upload to');

    const chunked = async (): Promise<number> => {
      // A new file each round, so no round finds the bytes stored already: the first of the
      // same bytes is kept once, later ones would be ready at once.
      const round = Buffer.concat([bytes.subarray(0, SIZE - 8), randomBytes(8)]);
      const id = uuidv7();
      const started = performance.now();
      const made = await s.call('POST', apiPaths.collection('files'), {
        token,
        json: {
          id,
          asset_id: asset.id,
          kind: 'document',
          name: 'bench.zip',
          type: 'application/zip',
          size: round.length,
          sha256: createHash('sha256').update(round).digest('hex'),
        },
      });
      if (made.status !== 201) throw new Error(`file not made: ${made.text}`);
      for (let offset = 0; offset < round.length; offset += UPLOAD_CHUNK_BYTES) {
        const res = await fetch(`${s.url}${API_BASE}/${apiPaths.fileUpload(id, offset)}`, {
          method: 'PUT',
          headers: { Authorization: `Bearer ${token}` },
          body: round.subarray(offset, Math.min(offset + UPLOAD_CHUNK_BYTES, round.length)),
        });
        if (res.status !== 200) throw new Error(`chunk at ${offset}: ${res.status}`);
        await res.arrayBuffer();
      }
      return performance.now() - started;
    };
    const single = async (): Promise<number> => {
      const started = performance.now();
      const res = await fetch(`${plain.url}/upload`, { method: 'PUT', body: bytes });
      if (res.status !== 200) throw new Error(`plain PUT: ${res.status}`);
      await res.arrayBuffer();
      return performance.now() - started;
    };
    // One of each first: warm-up (JIT, file system cache).
    await chunked();
    await single();
    const ours: number[] = [];
    const base: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      ours.push(await chunked());
      base.push(await single());
    }
    const o = median(ours);
    const b = median(base);
    const mbps = (ms: number) => ((SIZE / MB / ms) * 1000).toFixed(0);
    return [
      `upload ${SIZE / MB} MB, chunked (${UPLOAD_CHUNK_BYTES / MB} MB chunks, checks, SHA-256, ready) vs one plain PUT: ${(o / b).toFixed(2)} (${o.toFixed(0)} ms = ${mbps(o)} MB/s vs ${b.toFixed(0)} ms = ${mbps(b)} MB/s; median of ${ROUNDS})`,
    ];
  } finally {
    plain.close();
    await s.close();
    await fs.rm(dir, { recursive: true, force: true });
  }
}
