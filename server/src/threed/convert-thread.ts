import { Worker } from 'node:worker_threads';
import { THREED_LIMITS, THREED_TEXTS } from '@plant/shared-schema';
import type { ConvertOutcome } from './convert';

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
    const timer = setTimeout(() => end({ refused: THREED_TEXTS.tooSlow }), limits.timeMs);
    worker.on('message', (message: { progress: number } | ConvertOutcome) => {
      if ('progress' in message) progress(message.progress);
      else end(message);
    });
    worker.on('error', (err: Error & { code?: string }) =>
      end({
        refused:
          err.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? THREED_TEXTS.tooMuchMemory
            : THREED_TEXTS.loadFailed,
      }),
    );
    worker.on('exit', () => end({ refused: THREED_TEXTS.loadFailed }));
  });
  return {
    outcome,
    stop: async () => {
      await worker.terminate();
    },
  };
}
