/**
 * A path segment as text: percent escapes decoded, or the segment as it came when it has a
 * malformed escape (`%E0%A4`, a lone `%`), which decodeURIComponent throws on. Addresses are typed
 * and pasted by people: a broken one must not take the screen down.
 */
export function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
