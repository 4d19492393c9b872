import { INSPECTION_LIMITS } from '@plant/shared-schema';

/*
 * The inspection's window (issue 37 item 5): a span on each side of the moment (±5, 15, 30 or
 * 60 min) and a shift that moves the whole window earlier or later while keeping the moment
 * inside it (an inspection is about its moment). Stored as the model's `before_ms` and
 * `after_ms`; these functions go between the two. Pure, unit-tested.
 */

/** The spans offered, in minutes on each side of the moment. */
export const SPANS_MIN = [5, 15, 30, 60] as const;

/** The window as the page shows it: a span on each side, moved by a shift (ms, + is later). */
export interface WindowShape {
  readonly spanMs: number;
  readonly shiftMs: number;
}

/** The stored sides as span and shift. */
export function shapeOf(sides: {
  readonly before_ms: number;
  readonly after_ms: number;
}): WindowShape {
  return {
    spanMs: (sides.before_ms + sides.after_ms) / 2,
    shiftMs: (sides.after_ms - sides.before_ms) / 2,
  };
}

/**
 * A span and shift as the sides to store: the shift kept within the span (the moment stays in
 * the window) and each side within the model's bound, whole milliseconds.
 */
export function sidesOf(shape: WindowShape): { before_ms: number; after_ms: number } {
  const span = Math.min(INSPECTION_LIMITS.maxSideMs / 2, Math.max(0, Math.round(shape.spanMs)));
  const shift = Math.max(-span, Math.min(span, Math.round(shape.shiftMs)));
  return { before_ms: span - shift, after_ms: span + shift };
}

/** Another span, the shift kept in proportion to it (a window shifted half-way stays so). */
export function withSpan(
  shape: WindowShape,
  spanMs: number,
): { before_ms: number; after_ms: number } {
  const ratio = shape.spanMs > 0 ? shape.shiftMs / shape.spanMs : 0;
  return sidesOf({ spanMs, shiftMs: ratio * spanMs });
}

/** The window moved by half its span earlier (-1) or later (+1), within the span. */
export function shifted(
  shape: WindowShape,
  direction: -1 | 1,
): { before_ms: number; after_ms: number } {
  return sidesOf({ spanMs: shape.spanMs, shiftMs: shape.shiftMs + (direction * shape.spanMs) / 2 });
}

/** Whether the window can move further that way (the moment would leave it). */
export function canShift(shape: WindowShape, direction: -1 | 1): boolean {
  return direction * shape.shiftMs < shape.spanMs - 0.5;
}

/** The preset span the window shows, if any (a window set otherwise, by the API, shows none). */
export function presetOf(shape: WindowShape): (typeof SPANS_MIN)[number] | null {
  return SPANS_MIN.find((m) => Math.abs(m * 60_000 - shape.spanMs) < 1) ?? null;
}
