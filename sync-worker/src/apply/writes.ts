import type { ModelDoc, OutboxDoc } from '../store/docs';

/**
 * What the apply layer asks the store to do. The store runs one list in one queued write, models
 * first, then the outbox, then meta (see store.ts for why that order is safe).
 */
export type LocalWrite =
  | { readonly kind: 'put-model'; readonly doc: ModelDoc }
  | { readonly kind: 'remove-model'; readonly key: string }
  | { readonly kind: 'put-mutation'; readonly mutation: OutboxDoc }
  | { readonly kind: 'remove-mutation'; readonly mutationId: string };

/** What every apply function needs to know besides the documents. */
export interface ApplyContext {
  /** The account of this store: the parent of models whose parent is the account. */
  readonly accountId: string;
}

function targetOf(write: LocalWrite): string {
  switch (write.kind) {
    case 'put-model':
      return `m ${write.doc.key}`;
    case 'remove-model':
      return `m ${write.key}`;
    case 'put-mutation':
      return `o ${write.mutation.mutation_id}`;
    case 'remove-mutation':
      return `o ${write.mutationId}`;
    default: {
      const never: never = write;
      throw new Error(`Unknown write ${JSON.stringify(never)}`);
    }
  }
}

/** The last write per document wins: a batch of updates becomes one bulk write per collection. */
export function compactWrites(writes: readonly LocalWrite[]): LocalWrite[] {
  const last = new Map<string, LocalWrite>();
  for (const write of writes) {
    const target = targetOf(write);
    last.delete(target);
    last.set(target, write);
  }
  return [...last.values()];
}

/** Structural equality of JSON values (attribute key order does not matter). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const keys = Object.keys(ra).filter((k) => ra[k] !== undefined);
  if (keys.length !== Object.keys(rb).filter((k) => rb[k] !== undefined).length) return false;
  return keys.every((k) => sameJson(ra[k], rb[k]));
}
