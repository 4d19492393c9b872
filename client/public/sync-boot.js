/* global document, Worker */
/*
 * Starts the sync worker before the app's own code is compiled (vite-early-worker.ts puts this
 * script first in the built index.html, with the worker's file in `data-worker`). On two cores the
 * worker's bundle then compiles beside the app's instead of after it: an offline reload's first
 * answers from the device come that much sooner. The app adopts this worker
 * (client/src/sync/worker.ts); without it (the dev server) the app starts its own.
 * Plain script, no imports: it runs as it is, while the page is parsed.
 */
(function startSyncWorker() {
  var script = document.currentScript;
  var url = script === null ? null : script.getAttribute('data-worker');
  if (url === null || url === '') return;
  try {
    globalThis.__plantSyncWorker = new Worker(url, { type: 'module', name: 'sync' });
  } catch (err) {
    // The app starts its own worker when there is none here.
    // eslint-disable-next-line no-console -- a plain script has no logger of ours
    console.warn('[sync] early start failed', err);
  }
})();
