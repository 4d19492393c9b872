import type { ModelDoc } from '../store/docs';
import type { IndexedDbEnv } from '../store/indexeddb';

/*
 * Plain IndexedDB reads of the store's models database, beside RxDB (DESIGN.md §6: the first
 * rows of a list from disk, whatever the account's size). The database is the one RxDB's Dexie
 * storage keeps (`rxdb-dexie-<store>--<version>--models`, table `docs`); its list indexes are
 * `[_deleted+type+sort_key]` and `[_deleted+parent_key+sort_key]` (store/lean-models.ts: they end
 * before the key, and IndexedDB orders equal entries by the key), `_deleted` stored as '0' / '1'.
 * Reading them needs neither RxDB nor Dexie to be open: a list's first window comes while the
 * rest of the store is still starting. Nothing writes through this connection.
 */

/** The table RxDB's Dexie storage keeps documents in. */
const DOCS = 'docs';

/** The two list indexes: a type in order, a parent's children in order. */
export const LIST_INDEXES = {
  type: '[_deleted+type+sort_key]',
  parent: '[_deleted+parent_key+sort_key]',
} as const;
export type ListIndex = keyof typeof LIST_INDEXES;

/** A range of a list index: every live doc whose type (or parent key) is `prefix`. */
export interface ListRange {
  readonly index: ListIndex;
  readonly prefix: string;
}

/** A doc as stored (RxDB's fields beside ours; `_deleted` as '0' or '1'). */
export type StoredDoc = ModelDoc & { readonly _deleted?: unknown };

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });
}

export class ModelReader {
  private closed = false;

  private constructor(
    private readonly db: IDBDatabase,
    private readonly env: IndexedDbEnv,
  ) {
    // A delete (sign-out, account switch) or an upgrade of the database by RxDB: let it go on.
    db.onversionchange = () => this.close();
  }

  /**
   * Opens the models database if it exists (a store opened before). Never creates it: that is
   * RxDB's, with its tables and indexes. Null when there is none yet. (No `databases()` list
   * first: that costs a round trip; an open of a missing name asks for an upgrade instead, and
   * aborting that upgrade leaves no database behind.)
   */
  static async open(env: IndexedDbEnv, name: string): Promise<ModelReader | null> {
    const opening = env.indexedDB.open(name);
    let created = false;
    opening.onupgradeneeded = () => {
      // There is none: opening would make an empty database. Abort, and it is not made.
      created = true;
      opening.transaction?.abort();
    };
    try {
      const db = await request(opening);
      if (created || !db.objectStoreNames.contains(DOCS)) {
        db.close();
        return null;
      }
      const indexes = db.transaction(DOCS, 'readonly').objectStore(DOCS).indexNames;
      if (!Object.values(LIST_INDEXES).every((i) => indexes.contains(i))) {
        db.close();
        return null;
      }
      return new ModelReader(db, env);
    } catch {
      return null;
    }
  }

  get isOpen(): boolean {
    return !this.closed;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.db.close();
  }

  private index(range: ListRange): IDBIndex {
    return this.db.transaction(DOCS, 'readonly').objectStore(DOCS).index(LIST_INDEXES[range.index]);
  }

  /** Every live doc of a range; with `afterSort`, those whose sort key is above it. */
  private bounds(range: ListRange, afterSort?: string): IDBKeyRange {
    // Arrays sort after every string: ['0', prefix, []] is above every ['0', prefix, sort].
    const upper = ['0', range.prefix, []];
    return afterSort === undefined
      ? this.env.IDBKeyRange.bound(['0', range.prefix], upper)
      : this.env.IDBKeyRange.bound(['0', range.prefix, afterSort], upper, true);
  }

  /** Live docs of a range in list order, after a position, at most `limit`. */
  async range(
    range: ListRange,
    limit: number,
    after?: readonly [sort: string, key: string],
  ): Promise<StoredDoc[]> {
    const index = this.index(range);
    if (after === undefined) {
      return (await request(index.getAll(this.bounds(range), limit))) as StoredDoc[];
    }
    // The rest of the position's own sort key (keys above the position's), then the sort keys
    // above it: the index holds no key, its entries of one sort key are in key order.
    const [sort, key] = after;
    const same = await this.sameSortAfter(index, [range.prefix, sort], key, limit);
    if (same.length >= limit) return same;
    const rest = await request(index.getAll(this.bounds(range, sort), limit - same.length));
    return [...same, ...(rest as StoredDoc[])];
  }

  /** The docs at one (prefix, sort key) whose key is above `key`, at most `limit`, in key order. */
  private sameSortAfter(
    index: IDBIndex,
    [prefix, sort]: readonly [string, string],
    key: string,
    limit: number,
  ): Promise<StoredDoc[]> {
    const at = ['0', prefix, sort];
    const found: StoredDoc[] = [];
    return new Promise((resolve, reject) => {
      const opening = index.openCursor(this.env.IDBKeyRange.only(at));
      let placed = false;
      opening.onerror = () => reject(opening.error ?? new Error('IndexedDB request failed'));
      opening.onsuccess = () => {
        try {
          const cursor = opening.result;
          if (cursor === null) {
            resolve(found);
            return;
          }
          // The docs table's primary key is the model key, a string.
          const stored = cursor.primaryKey as string;
          if (!placed) {
            placed = true;
            // The first entry at this sort key whose key is the position's or above.
            if (stored < key) {
              cursor.continuePrimaryKey(at, key);
              return;
            }
          }
          if (stored > key) found.push(cursor.value as StoredDoc);
          if (found.length >= limit) resolve(found);
          else cursor.continue();
        } catch (err) {
          reject(err instanceof Error ? err : new Error(String(err)));
        }
      };
    });
  }

  /** How many live docs a range holds (hidden ones too: see QueryHub). */
  count(range: ListRange): Promise<number> {
    return request(this.index(range).count(this.bounds(range)));
  }

  /** Docs by key (deleted and missing ones are left out), in one transaction. */
  async get(keys: readonly string[]): Promise<Map<string, StoredDoc>> {
    const found = new Map<string, StoredDoc>();
    if (keys.length === 0) return found;
    const store = this.db.transaction(DOCS, 'readonly').objectStore(DOCS);
    const docs = await Promise.all(keys.map((k) => request(store.get(k)) as Promise<unknown>));
    docs.forEach((doc, i) => {
      const d = doc as StoredDoc | undefined;
      if (d !== undefined && d._deleted !== '1') found.set(keys[i] as string, d);
    });
    return found;
  }
}
