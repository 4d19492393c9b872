import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { loadConfig } from '../server/src/config';
import { startServer } from '../server/src/server';

const ROUNDS = 300;

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Time to the first byte of an answer (its status line and headers), in ms; the body drained. */
function firstByte(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const req = http.get(url, { headers, agent: false }, (res) => {
      const ms = performance.now() - start;
      res.resume();
      res.on('end', () => resolve(ms));
    });
    req.on('error', reject);
  });
}

/**
 * Issue 36: the public landing page (rendered per request: the host's theme, the visitor's
 * language, the top account's jobs), its bytes as HTML with its CSS, gzipped (target under 50 KB),
 * and its time to first byte against the same bytes as a static file served by the same server
 * (target at most 2). Medians over 300 requests each, taken in turns.
 */
export async function benchPublicPages(): Promise<string[]> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'plant-bench-public-'));
  const client = path.join(dir, 'client');
  await fs.mkdir(client);
  // A client directory for the static baseline (the server serves files from there).
  await fs.writeFile(path.join(client, 'index.html'), '<!doctype html><title>app</title>');
  const server = await startServer({
    config: loadConfig({
      DATA_DIR: path.join(dir, 'data'),
      PORT: '0',
      LOG_LEVEL: 'silent',
      SEED: 'demo',
      CLIENT_DIR: client,
    }),
  });
  try {
    const headers = { 'Accept-Language': 'de-DE,de;q=0.9', 'Accept-Encoding': 'identity' };
    const landing = await fetch(new URL('/', server.url), { headers });
    const html = await landing.text();
    if (!landing.ok || !html.includes('<html lang="de">')) throw new Error('no landing page');
    await fs.writeFile(path.join(client, 'landing-static.html'), html);
    const gzipped = gzipSync(html).byteLength;
    const ours: number[] = [];
    const statics: number[] = [];
    const page = new URL('/', server.url).toString();
    const file = new URL('/landing-static.html', server.url).toString();
    for (let i = 0; i < 20; i++) {
      await firstByte(page, headers);
      await firstByte(file, headers);
    }
    for (let i = 0; i < ROUNDS; i++) {
      ours.push(await firstByte(page, headers));
      statics.push(await firstByte(file, headers));
    }
    const a = median(ours);
    const b = median(statics);
    return [
      `public landing bytes: ${(gzipped / 1024).toFixed(1)} KB gzip (HTML with its CSS, target under 50 KB; ${(html.length / 1024).toFixed(1)} KB raw)`,
      `public landing first byte: ${(a / b).toFixed(2)} (ours/baseline time, target at most 2) ` +
        `${a.toFixed(2)} ms rendered vs ${b.toFixed(2)} ms the same bytes as a static file, median of ${ROUNDS} each`,
    ];
  } finally {
    await server.stop();
    await fs.rm(dir, { recursive: true, force: true });
  }
}
