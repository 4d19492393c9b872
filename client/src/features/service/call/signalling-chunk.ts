import type * as SignallingChunk from './signalling';

/**
 * The signalling's chunk (mqtt.js with it), asked for once per page: once loaded it is at hand in
 * a microtask, where each `import()` of a loaded module still waits for a task, and the call's
 * view, rendered at the Answer click, ran first (14 to 50 ms of an answer's path, bench
 * CONTEXT). A failed load is asked for again next time.
 */
let signallingChunk: Promise<typeof SignallingChunk> | undefined;
export function loadSignalling(): Promise<typeof SignallingChunk> {
  const loading = (signallingChunk ??= import('./signalling'));
  loading.catch(() => {
    if (signallingChunk === loading) signallingChunk = undefined;
  });
  return loading;
}
