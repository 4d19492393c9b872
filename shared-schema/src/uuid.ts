/**
 * The 12-bit counter last used in each recent millisecond (RFC 9562 §6.2, method 1: a counter in
 * rand_a). Ids made in one millisecond sort in the order they were made, also under a test's
 * frozen clock and when a frozen and a running clock take turns. A few recent milliseconds are
 * enough: a millisecond not seen lately starts a new random counter.
 */
const counters = new Map<number, number>();
const RECENT_MILLISECONDS = 256;

function counterFor(ms: number, random: number): number {
  const last = counters.get(ms);
  // A new millisecond starts in the lower half, leaving room for 2,048 more ids in it.
  const next = last === undefined || last >= 0xfff ? random & 0x7ff : last + 1;
  counters.delete(ms);
  counters.set(ms, next);
  if (counters.size > RECENT_MILLISECONDS) {
    const oldest = counters.keys().next().value;
    if (oldest !== undefined) counters.delete(oldest);
  }
  return next;
}

/**
 * UUIDv7 (RFC 9562): 48 bits of Unix milliseconds, a 12-bit counter, then random bits. Ids made
 * this way sort by creation time (within a millisecond too, in one process) and can be made
 * offline on the client without asking the server.
 */
export function uuidv7(now: number = Date.now()): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  let ms = now;
  for (let i = 5; i >= 0; i--) {
    bytes[i] = ms % 256;
    ms = Math.floor(ms / 256);
  }
  const counter = counterFor(now, ((bytes[6] ?? 0) << 8) | (bytes[7] ?? 0));
  bytes[6] = 0x70 | (counter >> 8);
  bytes[7] = counter & 0xff;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export const UUID_V7_PATTERN =
  /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
