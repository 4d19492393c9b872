/** A UTF-16 surrogate without its other half, as `String.prototype.toWellFormed` finds one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * The text with each lone surrogate made U+FFFD, as its UTF-8 in any text column reads back.
 * JSON.stringify writes a lone surrogate as a `\ud800` escape, which Postgres's JSON refuses.
 */
export function wellFormedText(text: string): string {
  return text.replace(LONE_SURROGATE, '\ufffd');
}
