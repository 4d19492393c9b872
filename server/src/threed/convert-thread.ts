import { Worker } from 'node:worker_threads';
import { THREED_LIMITS, THREED_TEXTS } from '@plant/shared-schema';
import type { ConvertOutcome } from './convert';
import { causeOf } from './zip-unpack';

/*
 * Runs one model's conversion (convert.ts) on a thread of its own (convert-worker.mjs), never in
 * a request and never on the event loop: its heap is bounded (`heapMb`: past it the thread ends
 * with ERR_WORKER_OUT_OF_MEMORY and the model fails with the memory text), its time too (the
 * thread is ended at `timeMs`), and whatever else ends the thread fails that model only.
 */

export interface ThreadLimits {
  readonly timeMs: number;
  readonly heapMb: number;
  readonly triangles: number;
}

/** How long a thread may take to load its modules before its model's time starts. */
const START_MS = 120_000;

export const DEFAULT_THREAD_LIMITS: ThreadLimits = {
  timeMs: THREED_LIMITS.timeMs,
  heapMb: THREED_LIMITS.heapMb,
  triangles: THREED_LIMITS.triangles,
};

export function convertOnThread(
  dir: string,
  progress: (share: number) => void,
  limits: ThreadLimits = DEFAULT_THREAD_LIMITS,
): { readonly outcome: Promise<ConvertOutcome>; readonly stop: () => Promise<void> } {
  const worker = new Worker(new URL('./convert-worker.mjs', import.meta.url), {
    workerData: { dir, triangles: limits.triangles },
    execArgv: [],
    resourceLimits: { maxOldGenerationSizeMb: limits.heapMb },
  });
  let settled = false;
  const outcome = new Promise<ConvertOutcome>((resolve) => {
    const end = (result: ConvertOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
      void worker.terminate();
    };
    const slow = () => end({ refused: THREED_TEXTS.tooSlow });
    // The model's time counts from the thread's `ready` (its modules loaded): a thread is never
    // ended while it loads its modules, where an end half-way leaves the process's native
    // libraries and loader hooks to the next thread; starting is bounded on its own.
    let timer = setTimeout(slow, Math.max(limits.timeMs, START_MS));
    worker.on('message', (message: { ready: true } | { progress: number } | ConvertOutcome) => {
      if ('ready' in message) {
        clearTimeout(timer);
        timer = setTimeout(slow, limits.timeMs);
      } else if ('progress' in message) progress(message.progress);
      else end(message);
    });
    worker.on('error', (err: Error & { code?: string }) =>
      end(
        err.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? { refused: THREED_TEXTS.tooMuchMemory }
          : { refused: THREED_TEXTS.loadFailed, cause: causeOf(err) },
      ),
    );
    worker.on('exit', (code) =>
      end({ refused: THREED_TEXTS.loadFailed, cause: `the thread ended (code ${code})` }),
    );
  });
  return {
    outcome,
    stop: async () => {
      await worker.terminate();
    },
  };
}
