import { createElement, use, useEffect, useState, type ComponentType } from 'react';
import { withTimeout } from '../../../routes/lazy';
import type { WidgetType } from '@plant/shared-schema';

/*
 * The dashboard's chunks (the grid, and the widgets' own: uPlot's chart, MapLibre's map, the
 * rest together), loaded once each. The page asks for all its widgets need as soon as it knows
 * them, side by side (page, then grid, then a chart's chunk and uPlot, one after the other, cost
 * a reload offline a third of a second), and shows the grid once they are here: a lazy
 * component that suspends shows its fallback, and React reveals what suspended at most every
 * 300 ms, so a chart whose chunk came 20 ms late drew 300 ms late.
 */

/** A chunk: its load, kept while it succeeds, and its module once here. */
export class Chunk<T> {
  private static count = 0;
  /** Tells chunks apart in a hook's dependencies. */
  readonly id = Chunk.count++;
  private loading: Promise<T> | undefined;
  /** The module, once loaded (a render reads it without waiting). */
  module: T | undefined;

  constructor(private readonly importer: () => Promise<T>) {}

  /**
   * Starts the load (once; a failed one, or one not done within the pages' 120 s, is tried again
   * on the next ask).
   */
  load(): Promise<T> {
    this.loading ??= withTimeout(this.importer()).then(
      (module) => (this.module = module),
      (err: unknown) => {
        this.loading = undefined;
        throw err;
      },
    );
    return this.loading;
  }
}

export const lineChunk = new Chunk(() => import('./line-widget'));
export const mapChunk = new Chunk(() => import('./map-widget'));
export const basicChunk = new Chunk(() => import('./basic-widgets'));

/** The chunk a widget type's body comes in. */
export function chunkOf(type: WidgetType): Chunk<unknown> {
  return type === 'line' ? lineChunk : type === 'map' ? mapChunk : basicChunk;
}

/**
 * Whether all these chunks are here, asking for those that are not: false until they are (the
 * caller shows its own placeholder: no Suspense fallback, no throttled reveal). A chunk that
 * failed to load throws in the render (the route's error screen offers a reload).
 */
export function useChunks(chunks: readonly Chunk<unknown>[]): boolean {
  const missing = [...new Set(chunks)].filter((c) => c.module === undefined);
  const key = missing.map((c) => c.id).join();
  const [failure, setFailure] = useState<Error | null>(null);
  const [, setArrived] = useState(0);
  useEffect(() => {
    if (key === '') return;
    let live = true;
    Promise.all(missing.map((c) => c.load())).then(
      () => live && setArrived((n) => n + 1),
      (err: unknown) =>
        live && setFailure(err instanceof Error ? err : new Error('chunk load failed')),
    );
    return () => {
      live = false;
    };
    // `missing` is read through its key (a chunk arrived, or a widget of a new type came).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  // Asked for during the render too: the loads start before the page's effects run.
  for (const c of missing) void c.load().catch(() => undefined);
  if (failure !== null) throw failure;
  return missing.length === 0;
}

/**
 * A component of a chunk: rendered at once when the chunk is here (React.lazy suspends on its
 * first render even then), else it suspends on the chunk's load (its Suspense boundary shows the
 * fallback). One component type either way: it is not made anew when the chunk arrives.
 */
export function chunkComponent<T, P extends object>(
  chunk: Chunk<T>,
  pick: (module: T) => ComponentType<P>,
): ComponentType<P> {
  return function ChunkComponent(props: P) {
    const module = chunk.module ?? use(chunk.load());
    return createElement(pick(module), props);
  };
}
