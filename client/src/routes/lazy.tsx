import { lazy, type ComponentType, type ReactNode } from 'react';
import { TIMINGS } from '@plant/shared-schema';

/** A page's code that did not arrive (spec 000 §4/§8: ChunkLoadError, time-out 120 s). */
export class ChunkLoadError extends Error {
  override readonly name = 'ChunkLoadError';
}

/**
 * Whether an error is a failed page load: ours, the browser's for a missing module, or Vite's
 * for a page's stylesheet that did not arrive ("Unable to preload CSS for /assets/x.css").
 */
export function isChunkLoadError(error: unknown): boolean {
  if (error instanceof ChunkLoadError) return true;
  const message = error instanceof Error ? error.message : String(error);
  return /dynamically imported module|Importing a module script failed|error loading dynamically|Unable to preload CSS/i.test(
    message,
  );
}

/** Rejects with a ChunkLoadError when `load` has not finished within `ms`. */
export function withTimeout<T>(
  load: Promise<T>,
  ms: number = TIMINGS.chunkLoadTimeoutMs,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new ChunkLoadError(`Page load timed out after ${ms} ms`)),
      ms,
    );
    load.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(
          isChunkLoadError(err)
            ? new ChunkLoadError(String(err))
            : err instanceof Error
              ? err
              : new Error(String(err)),
        );
      },
    );
  });
}

/**
 * A route's page as its own chunk, loaded on first visit with the 120 s time-out. A failed load
 * reaches the route's error screen, which offers a reload (RouteError).
 */
export function lazyPage<M extends Record<string, unknown>, K extends keyof M>(
  load: () => Promise<M>,
  name: K,
): () => ReactNode {
  const Lazy = lazy(async () => {
    const module = await withTimeout(load());
    return { default: module[name] as ComponentType };
  });
  return function LazyPage() {
    return <Lazy />;
  };
}
