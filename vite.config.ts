import { lingui } from '@lingui/vite-plugin';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { appShellChunk } from './vite-app-shell-chunk';
import { earlyWorker } from './vite-early-worker';
import { zodJitless } from './vite-zod-jitless';
import { editorjsImageNoEval } from './vite-editorjs-image-noeval';

const appShell = appShellChunk();

/**
 * The web client's build (client/ -> client/dist, which the server serves). The worker is an ES
 * module (it splits code); lingui's macro runs in the React plugin's babel step; the PWA plugin
 * precaches the app shell so that after one online visit the app opens with no network at all.
 */
export default defineConfig({
  root: 'client',
  plugins: [
    zodJitless(),
    earlyWorker(),
    editorjsImageNoEval(),
    appShell.plugin,
    react({ babel: { plugins: ['@lingui/babel-plugin-lingui-macro'] } }),
    lingui(),
    VitePWA({
      registerType: 'prompt',
      injectRegister: false,
      filename: 'sw.js',
      manifest: {
        name: 'Machine Platform',
        short_name: 'Platform',
        description: 'Assets, gateways and data streams of machine builders, offline first.',
        theme_color: '#1c7ed6',
        background_color: '#ffffff',
        display: 'standalone',
        start_url: '/app/devices/list',
        icons: [{ src: '/icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' }],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,woff2}'],
        navigateFallback: '/index.html',
        // The API, the broker and the origin's calls are never answered from the cache, nor the
        // server's public pages (issue 36: /, /about, /jobs, the sitemap, robots.txt).
        navigateFallbackDenylist: [
          /^\/api\//,
          /^\/mqtt/,
          /^\/staticconf/,
          // Workbox tests the path with its query (?lang=de).
          /^\/(\?|$)/,
          /^\/about(\/|\?|$)/,
          /^\/jobs(\/|\?|$)/,
          /^\/sitemap\.xml/,
          /^\/robots\.txt/,
        ],
        maximumFileSizeToCacheInBytes: 5 * 1024 * 1024,
        // Web push (show, click) lives in client/public/push-sw.js, loaded by the generated worker.
        importScripts: ['/push-sw.js'],
        // The first visit must be enough for offline use (issue 30 item 14): the worker takes
        // control of the page that installed it (and of its sync worker) once the whole app is
        // precached, so a screen whose code was never loaded opens offline without a reload.
        // Updates still wait for the user's "Reload to update" (no skipWaiting).
        clientsClaim: true,
      },
    }),
  ],
  // The sync worker's chunks too (zodJitless: no eval under the CSP).
  worker: { format: 'es', plugins: () => [zodJitless()] },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Written for the team (client_errors stacks), not referenced from the code; the server
    // does not serve them (server/src/routes/origin.ts).
    sourcemap: 'hidden',
    target: 'es2023',
    chunkSizeWarningLimit: 1024,
    // .vite/manifest.json: each chunk's static imports, from which e2e/bundle-budget.test.ts
    // sums every route's first-visit JavaScript. The server does not serve it (origin.ts).
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Every module the entry imports statically (the start: React, the router, Mantine's
          // core, the route tree) in one chunk. Each visit loads all of them anyway; left to the
          // automatic split they were some fifty small files, each compressed on its own, which
          // cost about 20 KB gzip more on every first visit (issue 29 item 6).
          groups: [{ name: 'start', tags: ['$initial'] }, appShell.group],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': 'http://127.0.0.1:3000',
      '/staticconf': 'http://127.0.0.1:3000',
      '/mqtt': { target: 'ws://127.0.0.1:3000', ws: true },
    },
  },
});
