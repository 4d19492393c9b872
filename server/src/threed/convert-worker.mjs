// The thread one 3D model is processed on (convert.ts), off the server's event loop and in a heap
// of its own: a model that runs out of memory or crashes ends this thread, not the server.
// Started by convert-thread.ts with no loaders of its parent; it registers tsx itself.
//   workerData:          { dir, triangles }
//   messages to parent:  { ready } once its modules are loaded, { progress } ... then { ok } (levels' bytes transferred) | { refused }
import { parentPort, workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { convert } = await import('./convert.ts');
parentPort.postMessage({ ready: true });

const outcome = await convert(workerData.dir, (progress) => parentPort.postMessage({ progress }), {
  triangles: workerData.triangles,
});
const transfer =
  'ok' in outcome
    ? [...new Set([...outcome.ok.levels.map((l) => l.glb.buffer), outcome.ok.thumbnail.buffer])]
    : [];
parentPort.postMessage(outcome, transfer);
