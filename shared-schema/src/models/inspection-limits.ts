/*
 * The event inspection's bounds and window (issue 37 item 5), in a module without zod: the alarm
 * screens' "Event inspection" button reads them without pulling the inspection's schemas into
 * their chunk (shared-schema CONTEXT "Gotchas": zod calls are not dropped by tree shaking).
 */

/** The bounds of an inspection and its notes. */
export const INSPECTION_LIMITS = {
  /** How far before or after its moment an inspection looks, at most (each side). */
  maxSideMs: 12 * 3_600_000,
  /** A note's characters. */
  maxNote: 2_000,
  /** Notes per inspection: a client cannot fill the store without end. */
  maxNotes: 500,
} as const;

/** The window a new inspection looks at on each side of its moment (the issue's ±30 min). */
export const DEFAULT_INSPECTION_SIDE_MS = 30 * 60_000;

/** An inspection's window in epoch ms: from `at - before_ms` to `at + after_ms`. */
export function inspectionWindow(inspection: {
  readonly at: number;
  readonly before_ms: number;
  readonly after_ms: number;
}): { readonly from: number; readonly to: number } {
  return { from: inspection.at - inspection.before_ms, to: inspection.at + inspection.after_ms };
}
