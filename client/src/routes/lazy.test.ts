import { describe, expect, it, vi } from 'vitest';
import { TIMINGS } from '@plant/shared-schema';
import { ChunkLoadError, isChunkLoadError, withTimeout } from './lazy';

describe('loading a page chunk', () => {
  it('gives up after the spec’s 120 s with a ChunkLoadError', async () => {
    vi.useFakeTimers();
    try {
      const never = new Promise<never>(() => undefined);
      const loading = withTimeout(never);
      const outcome = loading.then(
        () => 'loaded',
        (err: unknown) => err,
      );
      await vi.advanceTimersByTimeAsync(TIMINGS.chunkLoadTimeoutMs - 1);
      await vi.advanceTimersByTimeAsync(1);
      const error = await outcome;
      expect(error).toBeInstanceOf(ChunkLoadError);
      expect(TIMINGS.chunkLoadTimeoutMs).toBe(120_000);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a module that arrives in time is the answer; a browser’s failed import is a chunk error', async () => {
    await expect(withTimeout(Promise.resolve({ Page: 1 }), 1_000)).resolves.toEqual({ Page: 1 });
    const failed = new TypeError(
      'Failed to fetch dynamically imported module: http://x/assets/a.js',
    );
    await expect(withTimeout(Promise.reject(failed), 1_000)).rejects.toBeInstanceOf(ChunkLoadError);
    const other = new Error('render failed');
    await expect(withTimeout(Promise.reject(other), 1_000)).rejects.toBe(other);
    expect(isChunkLoadError(new Error('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(other)).toBe(false);
  });
});
