import type { RxCollection } from 'rxdb';

/**
 * The part of a Dexie table that RxDB's Dexie storage reads documents by id with.
 * `where(':id')` is the table's primary key.
 */
interface DexieTableLike {
  bulkGet(keys: readonly unknown[]): Promise<unknown[]>;
  where(index: ':id'): {
    between(
      lower: string,
      upper: string,
      includeLower: boolean,
      includeUpper: boolean,
    ): { limit(n: number): { toArray(): Promise<unknown[]> } };
  };
  schema: { primKey: { keyPath: unknown } };
}

const PATCHED = Symbol('plant-range-reads');

/**
 * Makes RxDB's Dexie storage read documents by id in ranges (DESIGN.md §6: "every RxDB write
 * reads first"). The storage reads every document of a write, and of `findByIds`, with Dexie's
 * `bulkGet`: one IndexedDB `get` request per id, hits and misses alike. In Chromium each request
 * is a round trip to the browser process, and those gets took a third of a bootstrap's time
 * (headless Chromium here, 50,000 inserts into an empty store: 7.4 s with the gets, 4.7 s
 * without).
 *
 * Here `bulkGet` of the collection's table answers the same (one entry per key, in order,
 * `undefined` when missing, deleted documents included) from `getAll` over key ranges: keys are
 * `"<type>:<id>"`, so a run of updates or a snapshot page falls into a few ranges. Each range asks
 * for at most twice its key count (plus a little), so a range that holds many documents the
 * write does not touch costs a bounded read; keys beyond what it returned are read one by one
 * as before. It runs inside the storage's own transaction (Dexie's zone), so the write's
 * conflict check sees exactly what it saw before.
 *
 * It replaces `bulkGet` on the table object of RxDB's Dexie storage (`internals.dexieTable`, RxDB
 * 17.6): re-check with an RxDB upgrade (store-writes.test.ts compares it with Dexie's own).
 * No-op when the storage is not Dexie's (a test's wrapper that hides the table).
 */
export async function useRangeReads(collection: RxCollection): Promise<void> {
  const internals: unknown = await (collection.storageInstance.internals as unknown);
  const table = (internals as { dexieTable?: unknown } | undefined)?.dexieTable;
  if (!isDexieTable(table)) return;
  const patched = table as DexieTableLike & { [PATCHED]?: true };
  if (patched[PATCHED] === true) return;
  const keyPath = table.schema.primKey.keyPath;
  if (typeof keyPath !== 'string') return;
  const original = table.bulkGet.bind(table);
  patched.bulkGet = (keys) =>
    keys.every((k) => typeof k === 'string')
      ? rangeBulkGet(table, original, keyPath, keys)
      : original(keys);
  patched[PATCHED] = true;
}

function isDexieTable(value: unknown): value is DexieTableLike {
  const t = value as Partial<DexieTableLike> | undefined;
  return (
    typeof t?.bulkGet === 'function' &&
    typeof t.where === 'function' &&
    typeof t.schema?.primKey === 'object'
  );
}

/** Sorted unique keys split where the part before the first ':' changes. */
export function keyGroups(keys: readonly string[]): string[][] {
  const sorted = [...new Set(keys)].sort();
  const groups: string[][] = [];
  let prefix: string | undefined;
  for (const key of sorted) {
    const p = key.slice(0, key.indexOf(':') + 1);
    if (p !== prefix || groups.length === 0) groups.push([]);
    prefix = p;
    groups[groups.length - 1]?.push(key);
  }
  return groups;
}

async function rangeBulkGet(
  table: DexieTableLike,
  original: (keys: readonly unknown[]) => Promise<unknown[]>,
  keyPath: string,
  keys: readonly string[],
): Promise<unknown[]> {
  if (keys.length === 0) return [];
  const found = new Map<string, unknown>();
  const rest: string[] = [];
  await Promise.all(
    keyGroups(keys).map(async (group) => {
      const first = group[0] as string;
      const last = group[group.length - 1] as string;
      const limit = 2 * group.length + 16;
      const docs = await table.where(':id').between(first, last, true, true).limit(limit).toArray();
      for (const doc of docs) {
        found.set((doc as Record<string, string>)[keyPath] as string, doc);
      }
      if (docs.length < limit) return;
      // The range held more than asked for: what lies beyond the last one read, key by key.
      const reached = (docs[docs.length - 1] as Record<string, string>)[keyPath] as string;
      for (const key of group) if (key > reached) rest.push(key);
    }),
  );
  if (rest.length > 0) {
    const more = await original(rest);
    rest.forEach((key, i) => {
      if (more[i] !== undefined) found.set(key, more[i]);
    });
  }
  return keys.map((key) => found.get(key));
}
