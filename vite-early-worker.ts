import type { Plugin } from 'vite';

/** The sync worker's file in the build (`assets/worker-<hash>.js`; MapLibre's has a prefix). */
const SYNC_WORKER = /^assets\/worker-[\w-]+\.js$/;

/**
 * The built index.html starts the sync worker first (client/public/sync-boot.js, a plain script
 * at the head's start, told the worker's hashed file): its bundle is then compiled on its own
 * thread while the page's entry chunk is fetched and compiled, not after the entry has run. The
 * app adopts that worker (client/src/sync/worker.ts). Only in the build: the dev server's page
 * starts its worker itself. A build whose worker file is not found exactly once fails here.
 */
export function earlyWorker(): Plugin {
  return {
    name: 'plant:early-worker',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const files = Object.keys(ctx.bundle ?? {}).filter((name) => SYNC_WORKER.test(name));
        if (files.length !== 1) {
          throw new Error(`early worker: expected one sync worker file, found ${files.join(', ')}`);
        }
        return [
          {
            tag: 'script',
            attrs: { src: '/sync-boot.js', 'data-worker': `/${files[0] ?? ''}` },
            injectTo: 'head-prepend',
          },
        ];
      },
    },
  };
}
