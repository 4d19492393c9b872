import type { ModelType } from '@plant/shared-schema';
import type { FacetCount, LocalModel, ModelQuery, ModelQueryOf, QueryResult } from '../api';
import type { Logger } from '../log';
import { toLocalModel } from '../queries';
import { modelKey, type ModelDoc } from '../store/docs';
import type { IndexedDbEnv } from '../store/indexeddb';
import { containsOf, FacetCounts, indexOrder, orderOf, type Order } from './list-options';
import { ModelReader, type ListRange, type StoredDoc } from './model-reader';
import { SortedKeys } from './sorted-keys';

/*
 * Live queries without rescans (DESIGN.md §6). A list's query is a window (offset, limit) over a
 * view: the keys of the models it matches, in list order, held in memory and kept by the store's
 * change events (RxDB's, which every tab's writes raise): a change costs a binary search per
 * model it touches, and a window compares only its own rows. A view is read once, in the
 * background, through the list index; until then a window comes straight from that index
 * (`ModelReader`), so the first rows of a list do not wait for the view, for RxDB or for the
 * rest of the store to open.
 */

export const QUERY_DEFAULT_LIMIT = 100;
export const QUERY_MAX_LIMIT = 1000;

/** Docs per read while a view is built (bounded memory, few requests). */
const BUILD_CHUNK = 2000;
/** A view nobody watches is kept this long (a list's window moves: unsubscribe, subscribe). */
const IDLE_VIEW_MS = 30_000;

/** One change of a doc as the store's events tell it: its new state, null when it was removed. */
export interface DocChange {
  readonly key: string;
  readonly doc: ModelDoc | null;
}

/** Where the hub hears of changes: RxDB's event bulks of the models collection. */
export interface ChangeSource {
  subscribe(listener: (changes: readonly DocChange[]) => void): () => void;
}

export interface QueryHubOptions {
  readonly env: IndexedDbEnv;
  /** The models database's IndexedDB name (RxDB's Dexie storage). */
  readonly databaseName: string;
  readonly log: Logger;
}

type Matcher = (doc: ModelDoc) => boolean;

interface LiveQuery {
  readonly offset: number;
  readonly limit: number;
  readonly callback: (result: QueryResult) => void;
  keys: readonly string[];
  items: readonly LocalModel[];
  total: number;
  complete: boolean;
  emitted: boolean;
  /** The facet's version last sent (-1: none sent). */
  facetVersion: number;
  /** Bumped with every refresh: an answer of an older one is dropped. */
  version: number;
  closed: boolean;
}

class View {
  readonly keys = new SortedKeys();
  readonly queries = new Set<LiveQuery>();
  /** The models of the rows some window shows, by key. */
  readonly models = new Map<string, LocalModel>();
  state: 'waiting' | 'building' | 'ready' = 'waiting';
  /** Changes heard while building, applied after the read (in order, the newest wins). */
  pending: DocChange[] = [];
  idleSince = 0;

  constructor(
    readonly id: string,
    readonly range: ListRange,
    readonly matches: Matcher,
    /**
     * The view only narrows its range by visibility and keeps the index's order: a count of the
     * range is close, and a window can be read from the index.
     */
    readonly plain: boolean,
    /** What the keys are sorted by: the index's sort key, or a query's own order. */
    readonly order: Order = indexOrder,
    /** The values of the query's facet attribute over the view's models. */
    readonly facet?: FacetCounts,
  ) {}
}

function matcherOf(query: ModelQuery): { matches: Matcher; plain: boolean } {
  const parentKey =
    query.parent === undefined ? undefined : modelKey(query.parent.type, query.parent.id);
  const inRange: Matcher = (doc) =>
    doc.type === query.type &&
    doc.attributes !== null &&
    (parentKey === undefined || doc.parent_key === parentKey);
  const holds = query.contains === undefined ? undefined : containsOf(query.contains);
  const narrowed: Matcher = holds === undefined ? inRange : (doc) => inRange(doc) && holds(doc);
  const text = query.search?.text.trim().toLowerCase() ?? '';
  const fields = query.search?.fields ?? [];
  if (text === '' || fields.length === 0) {
    return { matches: narrowed, plain: holds === undefined };
  }
  return {
    plain: false,
    matches: (doc) =>
      narrowed(doc) &&
      fields.some((f) => {
        const value = doc.attributes?.[f];
        return typeof value === 'string' && value.toLowerCase().includes(text);
      }),
  };
}

function rangeOf(query: ModelQuery): ListRange {
  return query.parent === undefined
    ? { index: 'type', prefix: query.type }
    : { index: 'parent', prefix: modelKey(query.parent.type, query.parent.id) };
}

function viewId(query: ModelQuery): string {
  const text = query.search?.text.trim().toLowerCase() ?? '';
  const fields = text === '' ? [] : (query.search?.fields ?? []);
  return JSON.stringify([
    query.type,
    query.parent?.type ?? null,
    query.parent?.id ?? null,
    fields.length === 0 ? '' : text,
    fields,
    query.contains === undefined ? null : [query.contains.field, query.contains.value],
    query.sort === undefined ? null : [query.sort.field, query.sort.direction],
    query.facet ?? null,
  ]);
}

function isReady(view: View): boolean {
  return view.state === 'ready';
}

function sameItems(a: readonly LocalModel[], b: readonly LocalModel[]): boolean {
  return a.length === b.length && a.every((m, i) => m === b[i]);
}

/** One watch of one model: its callback and what it was last told. */
interface Watcher {
  readonly callback: (model: LocalModel | null) => void;
  last: LocalModel | null | undefined;
}

export class QueryHub {
  private readonly views = new Map<string, View>();
  private readonly watchers = new Map<string, Set<Watcher>>();
  private reader: ModelReader | null = null;
  private opening: Promise<ModelReader | null> | undefined;
  private unsubscribe: (() => void) | undefined;
  private attached = false;
  private closed = false;
  private loading = true;
  private readonly sweeper: ReturnType<typeof setInterval>;
  /** The reads ahead under way (a start lets them answer before the store opens). */
  private readonly readingAhead = new Set<Promise<void>>();
  /** Watched keys to read, asked in this task (`readWatched`). */
  private readQueue: { key: string; heard: number; only: Watcher | undefined }[] = [];
  /** Per watched key, how many changes were heard: a read started before one is stale. */
  private readonly heard = new Map<string, number>();

  constructor(private readonly options: QueryHubOptions) {
    // The store may exist from an earlier visit: its lists can be read before RxDB opens it.
    void this.openReader();
    this.sweeper = setInterval(() => this.dropIdleViews(), IDLE_VIEW_MS / 3);
  }

  private openReader(): Promise<ModelReader | null> {
    if (this.reader?.isOpen === true) return Promise.resolve(this.reader);
    this.opening ??= ModelReader.open(this.options.env, this.options.databaseName)
      .then((reader) => {
        this.opening = undefined;
        if (this.closed) reader?.close();
        else this.reader = reader;
        return this.closed ? null : reader;
      })
      .catch((err: unknown) => {
        this.opening = undefined;
        this.options.log.warn('the list reader could not open the store', { error: String(err) });
        return null;
      });
    return this.opening;
  }

  /**
   * The store is open and its changes flow: every view is read now (not before, so that no
   * change between the read and the subscription can be missed) and kept from here on.
   */
  async attach(source: ChangeSource): Promise<void> {
    if (this.closed || this.attached) return;
    this.attached = true;
    this.unsubscribe = source.subscribe((changes) => this.changed(changes));
    await this.openReader();
    for (const view of this.views.values()) void this.build(view);
    for (const key of this.watchers.keys()) this.readWatched(key);
  }

  /**
   * Resolves when the lists' reads ahead asked for so far have answered (at most `ms`): the
   * store's opening (RxDB's work on this same thread) then does not hold up the first rows.
   */
  async readsAhead(ms: number): Promise<void> {
    // Subscriptions posted right after the start are taken first.
    await new Promise((resolve) => setTimeout(resolve, 0));
    if (this.readingAhead.size === 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      Promise.allSettled([...this.readingAhead]),
      new Promise((resolve) => (timer = setTimeout(resolve, ms))),
    ]);
    clearTimeout(timer);
  }

  /** The account's first load runs (totals are not final) or has ended. */
  setLoading(loading: boolean): void {
    if (this.loading === loading) return;
    this.loading = loading;
    for (const view of this.views.values()) this.refreshAll(view);
  }

  /** The plain lists being watched (type, parent): what a bootstrap loads first. */
  wanted(): { type: string; parent?: { type: string; id: string } }[] {
    const out: { type: string; parent?: { type: string; id: string } }[] = [];
    for (const view of this.views.values()) {
      if (!view.plain || view.queries.size === 0) continue;
      const [type, parentType, parentId] = JSON.parse(view.id) as [string, string | null, string];
      out.push(
        parentType === null ? { type } : { type, parent: { type: parentType, id: parentId } },
      );
    }
    return out;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.sweeper);
    this.unsubscribe?.();
    this.reader?.close();
    for (const view of this.views.values()) for (const q of view.queries) q.closed = true;
    this.views.clear();
    this.watchers.clear();
  }

  // ---- queries ---------------------------------------------------------------------------------

  /** A live query: the first result as soon as it can be read, then each changed one. */
  subscribe<T extends ModelType>(
    typed: ModelQueryOf<T> | ModelQuery<T>,
    typedCallback: (result: QueryResult<T>) => void,
  ): () => void {
    // Views hold any type's models; `toLocalModel` typed each by its own `type`.
    const query = typed as ModelQuery;
    const callback = typedCallback as (result: QueryResult) => void;
    if (this.closed) return () => undefined;
    const id = viewId(query);
    let view = this.views.get(id);
    if (view === undefined) {
      const { matches, plain } = matcherOf(query);
      view = new View(
        id,
        rangeOf(query),
        matches,
        plain && query.sort === undefined && query.facet === undefined,
        orderOf(query.sort),
        query.facet === undefined ? undefined : new FacetCounts(query.facet),
      );
      this.views.set(id, view);
      if (this.attached) void this.build(view);
    }
    const live: LiveQuery = {
      offset: Math.max(0, Math.floor(query.offset ?? 0)),
      limit: Math.min(QUERY_MAX_LIMIT, Math.max(1, Math.floor(query.limit ?? QUERY_DEFAULT_LIMIT))),
      callback,
      keys: [],
      items: [],
      total: 0,
      complete: false,
      emitted: false,
      facetVersion: -1,
      version: 0,
      closed: false,
    };
    view.queries.add(live);
    if (view.state === 'ready') void this.refresh(view, live);
    else this.readAhead(view, live);
    const target = view;
    return () => {
      live.closed = true;
      target.queries.delete(live);
      if (target.queries.size === 0) target.idleSince = Date.now();
    };
  }

  /**
   * A window before its view is read: straight from the list index (the hidden docs of the range
   * are skipped; the total is the range's count, marked not complete).
   */
  private readAhead(view: View, live: LiveQuery): void {
    if (!view.plain || live.offset + live.limit > BUILD_CHUNK) return;
    const version = ++live.version;
    // The view may have been read meanwhile (its answer is exact): a read ahead is then late.
    const late = () => live.closed || live.version !== version || isReady(view);
    const reading = (async () => {
      const reader = await this.openReader();
      if (reader === null || late()) return;
      // The rows first, the count after: Chromium walks the whole range to count it (about
      // 240 ms at 50,000), and a read issued behind it waits for it.
      // Hidden docs (a pending delete) are few: read a little more, and on if they were many.
      const wanted = live.offset + live.limit;
      const visible: StoredDoc[] = [];
      let after: [string, string] | undefined;
      for (;;) {
        const ask = wanted - visible.length + 8;
        const docs = await reader.range(view.range, ask, after);
        if (late()) return;
        visible.push(...docs.filter(view.matches));
        const last = docs[docs.length - 1];
        if (visible.length >= wanted || last === undefined || docs.length < ask) break;
        after = [last.sort_key, last.key];
      }
      const shown = visible.slice(live.offset, wanted);
      const keys = shown.map((d) => d.key);
      const items = shown.flatMap((d) => toLocalModel(d) ?? []);
      this.emit(live, keys, items, live.offset + items.length, false);
      // Not waited for by a start (`readsAhead`): the rows are out.
      void reader
        .count(view.range)
        .then((count) => {
          if (!late())
            this.emit(live, keys, items, Math.max(count, keys.length + live.offset), false);
        })
        .catch(() => undefined);
    })().catch((err: unknown) => {
      this.options.log.warn('a list could not be read ahead', { error: String(err) });
    });
    this.readingAhead.add(reading);
    void reading.finally(() => this.readingAhead.delete(reading));
  }

  /** Reads a view whole through its index, then applies what changed meanwhile. */
  private async build(view: View): Promise<void> {
    if (view.state !== 'waiting') return;
    view.state = 'building';
    view.pending = [];
    try {
      const reader = await this.openReader();
      if (reader === null) throw new Error('the models database is not there');
      const entries: [string, string][] = [];
      view.facet?.clear();
      let after: [string, string] | undefined;
      for (;;) {
        const docs = await reader.range(view.range, BUILD_CHUNK, after);
        if (this.closed) return;
        for (const doc of docs) {
          if (!view.matches(doc)) continue;
          entries.push([doc.key, view.order(doc)]);
          view.facet?.set(doc.key, doc);
        }
        const last = docs[docs.length - 1];
        if (last === undefined || docs.length < BUILD_CHUNK) break;
        after = [last.sort_key, last.key];
      }
      // The index gives its own order; another one is sorted here (sort text, then key).
      if (view.order !== indexOrder) {
        entries.sort(([ka, sa], [kb, sb]) =>
          sa < sb ? -1 : sa > sb ? 1 : ka < kb ? -1 : ka > kb ? 1 : 0,
        );
      }
      view.keys.reset(entries);
      view.models.clear();
      const pending = view.pending;
      view.pending = [];
      view.state = 'ready';
      this.applyTo(view, pending);
      this.refreshAll(view);
    } catch (err) {
      if (this.closed) return;
      this.options.log.warn('a list view could not be read', { error: String(err) });
      view.state = 'waiting';
    }
  }

  /** A bulk of store changes: each view and watch takes what concerns it. */
  private changed(changes: readonly DocChange[]): void {
    if (this.closed || changes.length === 0) return;
    for (const view of this.views.values()) {
      if (view.state === 'waiting') continue;
      if (view.state === 'building') {
        view.pending.push(...changes);
        continue;
      }
      if (this.applyTo(view, changes)) this.refreshAll(view, changes);
    }
    for (const change of changes) {
      const watching = this.watchers.get(change.key);
      if (watching === undefined) continue;
      this.heard.set(change.key, (this.heard.get(change.key) ?? 0) + 1);
      const model = change.doc === null ? null : toLocalModel(change.doc);
      for (const w of watching) this.tell(w, model);
    }
  }

  /** Applies changes to a view's keys and its rows' models; answers whether anything changed. */
  private applyTo(view: View, changes: readonly DocChange[]): boolean {
    const moves = new Map<string, string | null>();
    let touched = false;
    for (const { key, doc } of changes) {
      const matches = doc !== null && view.matches(doc);
      if (!matches && !view.keys.has(key) && !moves.has(key)) continue;
      moves.set(key, matches ? view.order(doc) : null);
      if (matches) {
        if (view.models.has(key)) view.models.set(key, toLocalModel(doc) as LocalModel);
        view.facet?.set(key, doc);
      } else {
        view.models.delete(key);
        view.facet?.delete(key);
      }
      touched = true;
    }
    if (!touched) return false;
    view.keys.apply(moves);
    return true;
  }

  private refreshAll(view: View, changes?: readonly DocChange[]): void {
    const fresh = new Map<string, ModelDoc>();
    for (const c of changes ?? []) if (c.doc !== null) fresh.set(c.key, c.doc);
    for (const live of view.queries) void this.refresh(view, live, fresh);
    // Only the rows some window shows keep their models.
    if (view.models.size > 2 * QUERY_MAX_LIMIT) {
      const shown = new Set<string>();
      for (const live of view.queries) for (const k of live.keys) shown.add(k);
      for (const k of view.models.keys()) if (!shown.has(k)) view.models.delete(k);
    }
  }

  /** Emits a query's window if it changed: its rows' models from memory, the rest read. */
  private async refresh(
    view: View,
    live: LiveQuery,
    fresh: ReadonlyMap<string, ModelDoc> = new Map(),
  ): Promise<void> {
    if (view.state !== 'ready' || live.closed) return;
    const version = ++live.version;
    const keys = view.keys.slice(live.offset, live.limit);
    const missing: string[] = [];
    for (const key of keys) {
      if (view.models.has(key)) continue;
      const doc = fresh.get(key);
      const model = doc === undefined ? null : toLocalModel(doc);
      if (model !== null) view.models.set(key, model);
      else missing.push(key);
    }
    if (missing.length > 0) {
      const reader = await this.openReader();
      if (reader === null) return;
      try {
        const docs = await reader.get(missing);
        if (live.closed || live.version !== version) return;
        for (const [key, doc] of docs) {
          // A change heard while reading is newer than what was read.
          if (view.models.has(key)) continue;
          const model = toLocalModel(doc);
          if (model !== null) view.models.set(key, model);
        }
      } catch (err) {
        this.options.log.warn('list rows could not be read', { error: String(err) });
        return;
      }
      if (live.closed || live.version !== version) return;
    }
    // A key whose doc went while it was read has left the view by now (a newer refresh runs).
    const items = keys.flatMap((k) => view.models.get(k) ?? []);
    this.emit(live, keys, items, view.keys.size, !this.loading, view.facet);
  }

  private emit(
    live: LiveQuery,
    keys: readonly string[],
    items: readonly LocalModel[],
    total: number,
    complete: boolean,
    facet?: FacetCounts,
  ): void {
    const facetVersion = facet?.version ?? -1;
    if (
      live.emitted &&
      live.total === total &&
      live.complete === complete &&
      live.facetVersion === facetVersion &&
      sameItems(live.items, items)
    ) {
      return;
    }
    live.keys = keys;
    live.items = items;
    live.total = total;
    live.complete = complete;
    live.facetVersion = facetVersion;
    live.emitted = true;
    const values: readonly FacetCount[] | undefined = facet?.values();
    live.callback({
      total,
      offset: live.offset,
      items,
      complete,
      ...(values === undefined ? {} : { facet: values }),
    });
  }

  private dropIdleViews(): void {
    const now = Date.now();
    for (const [id, view] of this.views) {
      if (view.queries.size === 0 && now - view.idleSince > IDLE_VIEW_MS) this.views.delete(id);
    }
  }

  // ---- one model ---------------------------------------------------------------------------------

  /** One model, live: null while it does not exist or is hidden. */
  watch<T extends ModelType>(
    type: T,
    id: string,
    typedCallback: (model: LocalModel<T> | null) => void,
  ): () => void {
    const callback = typedCallback as (model: LocalModel | null) => void;
    if (this.closed) return () => undefined;
    const key = modelKey(type, id);
    const watcher: Watcher = { callback, last: undefined };
    let set = this.watchers.get(key);
    if (set === undefined) {
      set = new Set();
      this.watchers.set(key, set);
    }
    set.add(watcher);
    this.readWatched(key, watcher);
    return () => {
      const current = this.watchers.get(key);
      current?.delete(watcher);
      if (current?.size === 0) {
        this.watchers.delete(key);
        this.heard.delete(key);
      }
    };
  }

  /**
   * Reads a watched key for its watchers (or only one, new), with the others asked in the same
   * task: one transaction for all (a dashboard's twelve streams' models).
   */
  private readWatched(key: string, only?: Watcher): void {
    this.readQueue.push({ key, heard: this.heard.get(key) ?? 0, only });
    if (this.readQueue.length === 1) queueMicrotask(() => void this.readQueued());
  }

  private async readQueued(): Promise<void> {
    const asks = this.readQueue;
    this.readQueue = [];
    const reader = await this.openReader();
    if (reader === null) return;
    let docs: Map<string, StoredDoc>;
    try {
      docs = await reader.get([...new Set(asks.map((a) => a.key))]);
    } catch (err) {
      this.options.log.warn('models could not be read', {
        keys: asks.length,
        error: String(err),
      });
      return;
    }
    for (const { key, heard, only } of asks) {
      // A change heard meanwhile is newer than this read.
      if ((this.heard.get(key) ?? 0) !== heard) continue;
      const set = this.watchers.get(key);
      if (set === undefined) continue;
      const doc = docs.get(key);
      const model = doc === undefined ? null : toLocalModel(doc);
      for (const w of only === undefined ? set : set.has(only) ? [only] : []) this.tell(w, model);
    }
  }

  private tell(w: Watcher, model: LocalModel | null): void {
    if (w.last !== undefined && JSON.stringify(w.last) === JSON.stringify(model)) return;
    w.last = model;
    w.callback(model);
  }
}

/** RxDB's event bulks of the models collection as changes (other tabs' writes included). */
export function rxdbChanges(collection: {
  readonly eventBulks$: {
    subscribe(next: (bulk: RxBulkLike) => void): { unsubscribe(): void };
  };
}): ChangeSource {
  return {
    subscribe(listener) {
      const subscription = collection.eventBulks$.subscribe((bulk) => {
        if (bulk.isLocal) return;
        listener(
          bulk.events.map((e) => ({
            key: e.documentId,
            doc:
              e.operation === 'DELETE' || e.documentData._deleted === true
                ? null
                : (e.documentData as StoredDoc),
          })),
        );
      });
      return () => subscription.unsubscribe();
    },
  };
}

interface RxBulkLike {
  readonly isLocal: boolean;
  readonly events: readonly {
    readonly documentId: string;
    readonly operation: 'INSERT' | 'UPDATE' | 'DELETE';
    readonly documentData: ModelDoc & { readonly _deleted?: boolean };
  }[];
}
