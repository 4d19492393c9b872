import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ClientRequest, IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build, preview, type Plugin, type ProxyOptions } from 'vite';
import { contentSecurityPolicy } from '../../server/src/http/csp';
import { zodJitless } from '../../vite-zod-jitless';
import { CSP_REPORT_PATH, recordCspReport } from './csp';
import { Parking } from './parking';

/**
 * Builds a page with Vite the way the client is built: production bundles, and the worker as an
 * ES module (`worker.format: 'es'`), as the page starts it with `{ type: 'module' }`; Vite's
 * default 'iife' builds today but fails once the worker splits code (a dynamic import). A build rather than the dev server: the tests run the worker as it ships, the
 * benchmarks time minified code, and the dev server would optimise the worker's dependencies only
 * when the worker first loads, in the middle of the first test.
 */
export async function buildPage(
  root: string,
  options: { readonly minify?: boolean } = {},
): Promise<string> {
  const outDir = await fs.mkdtemp(path.join(os.tmpdir(), 'plant-page-'));
  await build({
    configFile: false,
    root,
    logLevel: 'warn',
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2023',
      minify: options.minify ?? false,
      reportCompressedSize: false,
    },
    // As the client is built (vite.config.ts): the page is served under the app's CSP.
    plugins: [zodJitless()],
    worker: { format: 'es', plugins: () => [zodJitless()] },
  });
  return outDir;
}

/**
 * Builds the real client (the root vite.config.ts: React app, worker, service worker) into a
 * temp folder, as `npm start` ships it.
 */
export async function buildClient(): Promise<string> {
  const outDir = await fs.mkdtemp(path.join(os.tmpdir(), 'plant-client-'));
  // vitest sets NODE_ENV=test, which Vite would build into the bundle (development React, lingui's
  // uncompiled messages): the tests run the production build, as users do.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      configFile: fileURLToPath(new URL('../../vite.config.ts', import.meta.url)),
      mode: 'production',
      logLevel: 'warn',
      build: {
        outDir,
        emptyOutDir: true,
        reportCompressedSize: false,
        sourcemap: false,
        // BENCH_NO_MINIFY=1: the functions' own names in a bench's CPU profiles (bench CONTEXT).
        ...(process.env.BENCH_NO_MINIFY === '1' ? { minify: false } : {}),
      },
    });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  return outDir;
}

export interface WebServer {
  /** `http://127.0.0.1:<port>`: the page, and the API behind it on the same origin. */
  readonly url: string;
  /** Stops serving for good (a test may take the page's server away before the end). */
  close(): Promise<void>;
  /**
   * Done with it: the worker's next file that serves the same page takes it over (below), unless
   * it was closed. Nothing of this file's stays: the next file gives its own API and policy.
   */
  release(): Promise<void>;
}

/**
 * An unreachable server must look unreachable to the browser. Vite's proxy answers a failed
 * upstream connection with an empty 502, which the worker takes for a server error (5 of those
 * fail a batch for good) rather than for being offline. So the browser's connection is destroyed
 * instead, as when the server's host is gone: fetch rejects, the WebSocket closes.
 */
function passFailuresOn(proxy: Parameters<NonNullable<ProxyOptions['configure']>>[0]): void {
  proxy.on('error', (_err: Error, _req: IncomingMessage, res: ServerResponse | Socket) => {
    res.destroy();
  });
  proxy.on('proxyReq', (req: ClientRequest) => {
    req.on('error', () => undefined);
  });
}

/** Takes the browser's CSP reports (csp.ts): before the proxy, so they never reach the server. */
const cspReports: Plugin = {
  name: 'e2e:csp-reports',
  configurePreviewServer(server) {
    server.middlewares.use(CSP_REPORT_PATH, (req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        recordCspReport(body);
        res.statusCode = 204;
        res.end();
      });
    });
  },
};

/** A page server between files: its page, and what `serve` changes for the next file. */
interface Pooled {
  readonly dist: string;
  readonly url: string;
  /** The proxies' live options (Vite hands them to `configure`): `target` is read per request. */
  readonly proxies: { target?: unknown }[];
  /** The policy its pages are served under now, and whether it stopped for good. */
  readonly state: { csp: string; closed: boolean };
  close(): Promise<void>;
}

/**
 * Page servers handed back by the worker's earlier files (issue 29, parking.ts): the next file
 * serves the same built page from the same origin, so a warm browser (browser.ts) finds the
 * page's scripts in its HTTP cache and V8's code cache across files, not only across the tests
 * of one file.
 */
const parked = new Parking<Pooled>();

function policy(mapTilesUrl: string | undefined): string {
  return `${contentSecurityPolicy(mapTilesUrl)}; report-uri ${CSP_REPORT_PATH}`;
}

/**
 * Serves a built page on a free loopback port with `/api`, `/staticconf` (HTTP) and `/mqtt`
 * (WebSocket) proxied to `api` (the real server, or a TCP fault proxy in front of it): the page,
 * the worker and the server share one origin, as in production. A page server an earlier file
 * of the worker released for the same page is taken over, with `api` and its policy.
 */
export async function serveWithApi(
  dist: string,
  api: string,
  /** The server's MAP_TILES_URL, when it has one: the policy lets the map fetch its tiles. */
  mapTilesUrl?: string,
): Promise<WebServer> {
  const pooled = parked.take((p) => p.dist === dist) ?? (await startPageServer(dist));
  for (const options of pooled.proxies) options.target = api;
  pooled.state.csp = policy(mapTilesUrl);
  let released = false;
  return {
    url: pooled.url,
    close: () => pooled.close(),
    release: () => {
      if (released || pooled.state.closed) return Promise.resolve();
      released = true;
      return parked.park(pooled);
    },
  };
}

async function startPageServer(dist: string): Promise<Pooled> {
  const proxies: { target?: unknown }[] = [];
  const http: ProxyOptions = {
    configure: (proxy, options) => {
      passFailuresOn(proxy);
      proxies.push(options);
    },
  };
  const state = { csp: policy(undefined), closed: false };
  // The policy of the file served now, on every answer (Vite's `headers` are fixed at start).
  const headers: Plugin = {
    name: 'e2e:page-headers',
    configurePreviewServer(server) {
      server.middlewares.use((req, res, next) => {
        // The server's page policy (server/src/http/csp.ts), so the app is tested as it ships.
        res.setHeader('Content-Security-Policy', state.csp);
        res.setHeader('X-Frame-Options', 'DENY');
        // Hashed files as the server sends them (server/src/routes/origin.ts): kept, never asked
        // again. Vite's preview says `no-cache`, and every load revalidated its ~80 scripts
        // through this process: 400 ms of the dashboard's offline reload (bench CONTEXT), and a
        // load's worth of requests no user's browser makes.
        if (req.url?.startsWith('/assets/') === true) {
          res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
        }
        next();
      });
    },
  };
  const server = await preview({
    configFile: false,
    root: dist,
    logLevel: 'silent',
    build: { outDir: dist },
    plugins: [cspReports, headers],
    preview: {
      host: '127.0.0.1',
      port: 0,
      strictPort: true,
      open: false,
      proxy: {
        '/api': { ...http },
        '/staticconf': { ...http },
        '/mqtt': { ...http, ws: true },
      },
    },
  });
  const address = server.httpServer.address();
  if (address === null || typeof address === 'string') throw new Error('preview has no port');
  // A parked server does not keep the worker's process alive.
  server.httpServer.unref();
  let closing: Promise<void> | undefined;
  return {
    dist,
    url: `http://127.0.0.1:${address.port}`,
    proxies,
    state,
    close() {
      state.closed = true;
      return (closing ??= server.close());
    },
  };
}
