/** U+2068 FIRST STRONG ISOLATE: what follows takes its direction from its own first letter. */
export const FIRST_STRONG_ISOLATE = '\u2068';
/** U+2069 POP DIRECTIONAL ISOLATE: ends the isolate. */
export const POP_DIRECTIONAL_ISOLATE = '\u2069';

/**
 * A user-given name (an asset's, an alarm's, a user's, …) made safe to put inside other text:
 * wrapped in U+2068 … U+2069, so bidirectional controls in the name (U+202E RIGHT-TO-LEFT
 * OVERRIDE, an unclosed U+2067, …) and its own direction act inside the name only and cannot
 * reorder the text around it. The name itself stays as the user wrote it (stored verbatim).
 * For plain strings that mix a name with other text: titles, aria-labels, notifications,
 * confirm texts; in React, render names with the client's `<Name>` (a <bdi>).
 */
export function isolate(name: string): string {
  return `${FIRST_STRONG_ISOLATE}${name}${POP_DIRECTIONAL_ISOLATE}`;
}
