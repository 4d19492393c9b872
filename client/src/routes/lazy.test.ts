import { describe, expect, it, vi } from 'vitest';
import { TIMINGS } from '@plant/shared-schema';
import { ChunkLoadError, isChunkLoadError, withTimeout } from './lazy';

describe('loading a page chunk', () => {
  it('gives up after the spec’s 120 s with a ChunkLoadError', async () => {
    vi.useFakeTimers();
    try {
      expect(TIMINGS.chunkLoadTimeoutMs).toBe(120_000);
      const never = new Promise<never>(() => undefined);
      let outcome: unknown = 'pending';
      void withTimeout(never).then(
        () => {
          outcome = 'loaded';
        },
        (err: unknown) => {
          outcome = err;
        },
      );
      // Still waiting 1 ms before the time-out: a shorter time-out would have given up already.
      await vi.advanceTimersByTimeAsync(119_999);
      expect(outcome).toBe('pending');
      await vi.advanceTimersByTimeAsync(1);
      expect(outcome).toBeInstanceOf(ChunkLoadError);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a module that arrives in time is the answer; a failed import or stylesheet is a chunk error', async () => {
    await expect(withTimeout(Promise.resolve({ Page: 1 }), 1_000)).resolves.toEqual({ Page: 1 });
    const failed = new TypeError(
      'Failed to fetch dynamically imported module: http://x/assets/a.js',
    );
    await expect(withTimeout(Promise.reject(failed), 1_000)).rejects.toBeInstanceOf(ChunkLoadError);
    const other = new Error('render failed');
    await expect(withTimeout(Promise.reject(other), 1_000)).rejects.toBe(other);
    expect(isChunkLoadError(new Error('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(other)).toBe(false);
    // Vite's preload helper, when a page's stylesheet does not arrive.
    const css = new Error('Unable to preload CSS for /assets/devices-list-a1b2c3.css');
    await expect(withTimeout(Promise.reject(css), 1_000)).rejects.toBeInstanceOf(ChunkLoadError);
  });
});
