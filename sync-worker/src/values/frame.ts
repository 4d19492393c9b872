/**
 * Runs a callback at most once per animation frame, however often it is asked for: results go
 * to the page no faster than it can paint them. Dedicated workers have requestAnimationFrame in
 * Chromium; elsewhere (Node tests) a 16 ms timer stands in.
 */
export function frameThrottle(run: () => void): { schedule(): void; cancel(): void } {
  const raf = (globalThis as { requestAnimationFrame?: (cb: () => void) => number })
    .requestAnimationFrame;
  const caf = (globalThis as { cancelAnimationFrame?: (id: number) => void }).cancelAnimationFrame;
  let pending: number | ReturnType<typeof setTimeout> | undefined;
  const fire = () => {
    pending = undefined;
    run();
  };
  return {
    schedule() {
      if (pending !== undefined) return;
      pending = raf !== undefined ? raf(fire) : setTimeout(fire, 16);
    },
    cancel() {
      if (pending === undefined) return;
      if (raf !== undefined && caf !== undefined) caf(pending as number);
      else clearTimeout(pending);
      pending = undefined;
    },
  };
}
