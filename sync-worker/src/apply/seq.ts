/**
 * Where an update's seq stands against the store's lastSeq (DESIGN.md invariants 3 and 4):
 * - apply: it is the next one;
 * - duplicate: already applied (or skipped as hidden): drop it;
 * - gap: `missing` updates came before it and never arrived: fetch them (mqttlogs) first.
 */
export type SeqCheck =
  | { readonly kind: 'apply' }
  | { readonly kind: 'duplicate' }
  | { readonly kind: 'gap'; readonly missing: number };

export function checkSeq(lastSeq: number, seq: number): SeqCheck {
  if (seq <= lastSeq) return { kind: 'duplicate' };
  if (seq > lastSeq + 1) return { kind: 'gap', missing: seq - lastSeq - 1 };
  return { kind: 'apply' };
}

/** Where the store is in the account's log: the seq and ts of the last update applied. */
export interface SyncCursor {
  readonly lastSeq: number;
  readonly lastTs: number;
}
