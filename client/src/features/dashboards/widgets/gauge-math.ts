/*
 * A gauge's bounds and where a value sits on them (pure, unit-tested): the widget's own bounds,
 * else the stream's visualisation range (vis_min / vis_max), else 0 to 100; a bound that would
 * not lie below the other is replaced so the dial always spans something.
 */

export function gaugeBounds(
  options: { readonly min: number | null; readonly max: number | null },
  stream: { readonly vis_min: number | null; readonly vis_max: number | null },
): { min: number; max: number } {
  const min = options.min ?? stream.vis_min ?? 0;
  let max = options.max ?? stream.vis_max ?? 100;
  if (!(max > min)) max = min + (Math.abs(min) || 100);
  return { min, max };
}

/** The share (0 to 1) of the dial a value fills; outside the bounds it stops at an end. */
export function gaugeAngle(value: number, min: number, max: number): number {
  if (!Number.isFinite(value) || max <= min) return 0;
  return Math.min(1, Math.max(0, (value - min) / (max - min)));
}
