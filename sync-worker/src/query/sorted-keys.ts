/**
 * The keys of the models a list shows, in list order: by sort key, then by store key, exactly as
 * the store's `[_deleted+type+sort_key]` index orders them (ties by key; IndexedDB compares strings by
 * UTF-16 code units, like `<` here). A change costs a binary search and a move of the array's
 * tail, a large run of changes one merge: never a scan of the models themselves.
 */
/** Past this many changes at once, one merge is cheaper than a move of the tail per change. */
const MERGE_FROM = 64;

export class SortedKeys {
  /** Keys in list order. */
  private keys: string[] = [];
  /** Each key's sort key. */
  private readonly sortOf = new Map<string, string>();

  get size(): number {
    return this.keys.length;
  }

  has(key: string): boolean {
    return this.sortOf.has(key);
  }

  /** The keys from `offset`, at most `limit` of them. */
  slice(offset: number, limit: number): string[] {
    return this.keys.slice(offset, offset + limit);
  }

  /** Where a (sort key, key) pair is or would be. */
  private position(sort: string, key: string): number {
    let low = 0;
    let high = this.keys.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const midKey = this.keys[mid] as string;
      const midSort = this.sortOf.get(midKey) as string;
      if (midSort < sort || (midSort === sort && midKey < key)) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  /** The index of `key` in list order, or -1. */
  indexOf(key: string): number {
    const sort = this.sortOf.get(key);
    if (sort === undefined) return -1;
    return this.position(sort, key);
  }

  /**
   * Applies changes: a sort key puts (or moves) the key there, null takes it out. Answers the
   * lowest list index the changes touched (Infinity: nothing changed), so that windows above it
   * know they did not move.
   */
  apply(changes: ReadonlyMap<string, string | null>): number {
    if (changes.size > MERGE_FROM) return this.merge(changes);
    let lowest = Infinity;
    for (const [key, sort] of changes) {
      const before = this.sortOf.get(key);
      if (before === sort) continue;
      if (before !== undefined) {
        const at = this.position(before, key);
        this.keys.splice(at, 1);
        this.sortOf.delete(key);
        lowest = Math.min(lowest, at);
      }
      if (sort !== null) {
        const at = this.position(sort, key);
        this.keys.splice(at, 0, key);
        this.sortOf.set(key, sort);
        lowest = Math.min(lowest, at);
      }
    }
    return lowest;
  }

  /** Many changes at once: the untouched keys stay in order and the new ones merge in. */
  private merge(changes: ReadonlyMap<string, string | null>): number {
    const added: string[] = [];
    let touched = false;
    for (const [key, sort] of changes) {
      const before = this.sortOf.get(key);
      if (before === sort) continue;
      touched = true;
      if (before !== undefined) this.sortOf.delete(key);
      if (sort !== null) added.push(key);
    }
    if (!touched) return Infinity;
    const kept = this.keys.filter((k) => this.sortOf.has(k));
    let lowest = Infinity;
    for (let i = 0; i < this.keys.length; i++) {
      if (kept[i] !== this.keys[i]) {
        lowest = i;
        break;
      }
    }
    for (const key of added) this.sortOf.set(key, changes.get(key) as string);
    const before = (a: string, b: string) => {
      const sa = this.sortOf.get(a) as string;
      const sb = this.sortOf.get(b) as string;
      return sa < sb || (sa === sb && a < b);
    };
    added.sort((a, b) => (before(a, b) ? -1 : 1));
    const out: string[] = new Array<string>(kept.length + added.length);
    let i = 0;
    let j = 0;
    let n = 0;
    while (i < kept.length || j < added.length) {
      const k = kept[i];
      const a = added[j];
      if (a === undefined || (k !== undefined && before(k, a))) {
        out[n++] = k as string;
        i++;
      } else {
        if (n < lowest) lowest = n;
        out[n++] = a;
        j++;
      }
    }
    if (lowest === Infinity && out.length !== this.keys.length) lowest = out.length;
    this.keys = out;
    return lowest;
  }

  /** Replaces everything with keys already in list order (a full read through the index). */
  reset(entries: readonly (readonly [key: string, sort: string])[]): void {
    this.keys = entries.map(([key]) => key);
    this.sortOf.clear();
    for (const [key, sort] of entries) this.sortOf.set(key, sort);
  }
}
