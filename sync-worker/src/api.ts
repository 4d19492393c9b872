/**
 * The whole contract between the page and the sync worker (DESIGN.md §1, STYLE.md "Boundaries").
 * The client does `wrap<SyncWorkerApi>(worker)` and imports nothing else from the worker.
 *
 * Rules of the boundary:
 * - expected failures come back as values (`Result`), never as thrown errors (Comlink keeps only
 *   name, message and stack of those);
 * - callbacks are passed as `Comlink.proxy(cb)`; each subscription answers an unsubscribe
 *   function (itself a proxy): call it, then release the proxy, on unmount;
 * - everything that crosses is plain JSON-like data (query results are small: lists are paged),
 *   and a file's bytes as a Blob (structured clone).
 */
import type { Remote } from 'comlink';
import type {
  AttributeName,
  FileKind,
  Language,
  ModelAttributes,
  ModelInput,
  ModelType,
} from '@plant/shared-schema';
import type { BrokerState } from './transport/broker';
import type { Feedback } from './transport/http';

/** An expected failure: `kind` for the code, `message` for the user (lingui translates it). */
export interface WorkerError {
  readonly kind:
    | 'network'
    | 'http'
    | 'empty'
    | 'unparseable'
    | 'invalid'
    | 'not-started'
    | 'not-found'
    | 'busy'
    | 'unknown-type';
  readonly message: string;
  readonly status?: number;
  readonly fields?: Readonly<Record<string, readonly string[]>>;
}

export type Result<T> = { readonly data: T } | { readonly error: WorkerError };

/** Who is signed in where: the worker's store is per user and account. */
export interface SessionOptions {
  /** The server's origin (`location.origin` in the app). */
  readonly origin: string;
  readonly token: string;
  readonly userId: string;
  readonly accountId: string;
  /** Stable per browser (kept in localStorage by the page): broker credentials are per browser. */
  readonly browserId: string;
  /** The page's address, for requestFailed reports. */
  readonly appUrl: string;
}

/**
 * A model as the UI reads it: the server's state with the pending local changes on top, its
 * attributes typed by the registry (`LocalModel<'asset'>` has `AssetAttributes`). Without an
 * argument: any registry type, told apart by `type`.
 */
export type LocalModel<T extends ModelType = ModelType> = T extends ModelType
  ? {
      readonly type: T;
      readonly id: string;
      readonly parentType: string;
      readonly parentId: string;
      readonly attributes: Readonly<ModelAttributes<T>>;
      /** Local changes of this model not yet confirmed by the server. */
      readonly pending: boolean;
    }
  : never;

/**
 * A live query: one type, optionally under one parent, searched, sorted and paged. Search fields
 * are the type's attribute names. Without an argument: a query of any registry type.
 */
export type ModelQuery<T extends ModelType = ModelType> = T extends ModelType
  ? ModelQueryOf<T>
  : never;

export interface ModelQueryOf<T extends ModelType> {
  readonly type: T;
  readonly parent?: { readonly type: string; readonly id: string };
  /** Case-insensitive substring over the given attributes (spec: search from 3 characters). */
  readonly search?: { readonly text: string; readonly fields: readonly AttributeName<T>[] };
  /** Only the models whose list attribute `field` holds `value` (an asset's tags, issue 16). */
  readonly contains?: { readonly field: AttributeName<T>; readonly value: string };
  /**
   * Default: the registry's sort order. Else by one attribute's value (text case-insensitive),
   * equal values in the registry's order.
   */
  readonly sort?: { readonly field: AttributeName<T>; readonly direction: 'asc' | 'desc' };
  /** Also answer the values this attribute takes over the matching models (`facet`). */
  readonly facet?: AttributeName<T>;
  readonly offset?: number;
  /** Default 100, at most 1000: windows of a long list are asked for as the user scrolls. */
  readonly limit?: number;
}

export interface QueryResult<T extends ModelType = ModelType> {
  /** How many models match (for "12 assets" and the virtual list's height). */
  readonly total: number;
  readonly offset: number;
  readonly items: readonly LocalModel<T>[];
  /**
   * The total is final: the account's first load has ended and the query has counted every
   * model. False while models still stream in (the UI says "loading" instead of a count).
   */
  readonly complete: boolean;
  /** With a query's `facet`: each value the attribute takes, with how many models hold it. */
  readonly facet?: readonly FacetCount[];
}

/** One value of a facet and the number of models that hold it. */
export interface FacetCount {
  readonly value: string;
  readonly count: number;
}

/** Progress of the first load of an account (the UI's progress bar). */
export type BootstrapProgress =
  | { readonly name: 'idle' }
  | { readonly name: 'loading'; readonly progress: number }
  | { readonly name: 'done' }
  | { readonly name: 'error'; readonly message: string };

/** Everything the always-visible sync indicator shows. */
export interface SyncStatus {
  readonly started: boolean;
  /** This tab holds the broker connection, the poller and the outbox drain. */
  readonly leader: boolean;
  readonly connection: BrokerState;
  readonly bootstrap: BootstrapProgress;
  /** Local writes not yet confirmed by the server. */
  readonly pendingWrites: number;
  /** Local writes the server refused or that could not be sent: shown, never dropped silently. */
  readonly failedWrites: number;
  /**
   * Of the pending writes, those in a request to the server now (the rest wait for the next
   * try): a change of it is what a list of the writes' states reads again on.
   */
  readonly sendingWrites: number;
  /** When the local store last caught up with the server (ms), null before the first time. */
  readonly lastSyncedAt: number | null;
  /** The account this sync runs for (null: stopped). */
  readonly accountId: string | null;
  /**
   * How far the server's clock is ahead of this device's (ms), from its answers: "5 minutes ago"
   * counts on the server's clock (Date.now() + clockOffsetMs). 0 until measured.
   */
  readonly clockOffsetMs: number;
}

/** A pending or failed local write, as the UI lists it. */
export interface PendingWrite {
  readonly mutationId: string;
  readonly kind: 'create' | 'update' | 'delete';
  readonly type: string;
  readonly id: string;
  /** The model's name (the write's own, else the local model's), when it has one. */
  readonly name: string | null;
  /** Where the model sits (an acknowledgement's alarm, a stream's asset), when known. */
  readonly parent: { readonly type: string; readonly id: string } | null;
  /**
   * The values it writes, as the user gave them (kept so a refused change is not lost): every
   * attribute for a create, the changed ones for an update, none for a delete.
   */
  readonly values: Readonly<Record<string, unknown>>;
  readonly state: 'pending' | 'sending' | 'confirmed' | 'failed';
  readonly attempts: number;
  readonly error: string | null;
  readonly createdAt: number;
}

/** One-off things the UI shows or acts on. */
export type SyncEvent =
  | { readonly name: 'feedback'; readonly feedback: Feedback }
  | { readonly name: 'permission-checks'; readonly checks: readonly unknown[] }
  | {
      readonly name: 'write-rejected';
      readonly write: PendingWrite;
      readonly message: string;
      readonly fields?: Readonly<Record<string, readonly string[]>>;
    }
  | {
      readonly name: 'upload-progress';
      readonly id: string;
      readonly message: string;
      readonly progress: number;
    }
  /** The broker credentials were refused (spec 000 §8): the UI signs out and goes home in 1 s. */
  | { readonly name: 'signed-out'; readonly reason: string }
  /** Too many updates missed: the account's models were loaded again. */
  | { readonly name: 'resynced'; readonly reason: string };

export type Unsubscribe = () => void;

export interface SessionArea {
  /** Opens the user's store for the account and starts syncing. */
  start(options: SessionOptions): Promise<Result<SyncStatus>>;
  /** Stops syncing and closes the store (pending writes stay in it). */
  stop(): Promise<void>;
  /**
   * Account switch (spec 000 §4): stop, clear the old account's cached models (its pending writes
   * are kept for when it is active again), then start for the new account.
   */
  switchAccount(accountId: string, token: string): Promise<Result<SyncStatus>>;
  /**
   * Sign-out: stops and deletes every local database of this user. `userId`: whose databases,
   * when no session runs (a norole user refused at sign-in).
   */
  signOut(userId?: string): Promise<void>;
  /** A new access token for the same user (it rides on every request). */
  setToken(token: string): void;
  /** The page tells whether it is visible: the 60 s missed-update poll runs only then. */
  setVisible(visible: boolean): void;
}

export interface DataArea {
  /** A live query: `callback` gets the first result and then every changed one. */
  subscribe<T extends ModelType>(
    query: ModelQueryOf<T>,
    callback: (result: QueryResult<T>) => void,
  ): Promise<Unsubscribe>;
  /** One model from the local store, or null. */
  get<T extends ModelType>(type: T, id: string): Promise<LocalModel<T> | null>;
  /** Watches one model: null while it does not exist (or was deleted). */
  watch<T extends ModelType>(
    type: T,
    id: string,
    callback: (model: LocalModel<T> | null) => void,
  ): Promise<Unsubscribe>;
  /**
   * Refreshes one model and its children from the server (graph/{type}/{id}) into the store.
   * Errors: 'Invalid id or type given.', and 'The component already has a running request!' when
   * the same read is running; the same read within 1 s answers the first one's result.
   */
  read(type: string, id: string): Promise<Result<LocalModel>>;
}

export interface WritesArea {
  /**
   * Creates a model locally at once and queues it; the id is made here (UUIDv7) if not given.
   * The attributes are the type's (checked by its schema here and on the server).
   */
  create<T extends ModelType>(
    type: T,
    attributes: ModelInput<T>,
    id?: string,
  ): Promise<Result<{ id: string; mutationId: string }>>;
  /** Changes some attributes locally at once and queues the change. */
  update<T extends ModelType>(
    type: T,
    id: string,
    attributes: Partial<ModelInput<T>>,
  ): Promise<Result<{ mutationId: string }>>;
  remove(type: ModelType, id: string): Promise<Result<{ mutationId: string }>>;
  /** Every local write not yet confirmed, oldest first. */
  list(): Promise<readonly PendingWrite[]>;
  /** Sends a failed write again. */
  retry(mutationId: string): Promise<Result<void>>;
  /** Gives up a failed write: it is removed and the model shows the server's state. */
  discard(mutationId: string): Promise<Result<void>>;
}

export interface StatusArea {
  /** The sync status now and on every change. */
  subscribe(callback: (status: SyncStatus) => void): Promise<Unsubscribe>;
  /** One-off events (feedback, rejected writes, upload progress, forced sign-out). */
  events(callback: (event: SyncEvent) => void): Promise<Unsubscribe>;
}

/** Options of a call made through the worker's API client. */
export interface CallOptions {
  /**
   * The bearer token for this call: for calls before a session runs (the current user right
   * after sign-in) or with another token than the session's. Default: the session's token.
   */
  readonly token?: string;
  /** No feedback event for a failure: the caller shows it its own way (a form's errors). */
  readonly quiet?: boolean;
  /** The answer is text (GET style's stylesheet), not an envelope: `data` is the string. */
  readonly text?: boolean;
  /** The answer is bytes (a report's PDF): `data` is a Blob. */
  readonly binary?: boolean;
  /**
   * The answer as it came, whatever its status (the API reference's "Try it"): `data` is
   * `{ status, body }` (the parsed JSON, or the text when it is none), and nothing else happens:
   * no envelope effects, no feedback, no requestFailed report. No answer at all is still an error.
   */
  readonly raw?: boolean;
}

export interface HttpArea {
  /**
   * Where the server is, for calls made while no session runs (sign-in, register, password
   * reset, the current-user check at start), and the page's address for requestFailed reports
   * (without query or hash: those may carry a reset token). The page calls it at start and on
   * every navigation.
   */
  configure(options: { readonly origin: string; readonly appUrl: string }): void;
  /**
   * Every call that is not a synced model read: auth headers, the envelope, requestFailed
   * reports and `_events` are handled here (DESIGN.md invariant 1). Without a running session
   * the call goes out with `options.token` (or none); its envelope events are not applied.
   */
  call(
    method: string,
    path: string,
    body?: unknown,
    options?: CallOptions,
  ): Promise<Result<unknown>>;
  /**
   * POSTs a file's bytes as one request (an image of the account's design), telling
   * `onProgress` how much has gone out (0 to 1; pass it through Comlink's `proxy`). The answer
   * as `call`'s, failures quiet: the caller shows them at its field.
   */
  upload(
    path: string,
    file: Blob,
    onProgress?: (fraction: number) => void,
  ): Promise<Result<unknown>>;
}

/** A point of a stream: `[ts (ms), value]` (booleans as 0/1, texts as strings). */
export type Point = readonly [number, number | string];

/** The latest values of one asset's streams, live. */
export interface AssetValues {
  readonly asset: string;
  /** Per stream id, its newest point known here (cache, server, live). */
  readonly latest: Readonly<Record<string, Point>>;
  /** The server could not be reached for the newest values: what shows may be old. */
  readonly offline: boolean;
}

/** A history read: some streams over a range, each brought to about `points` points. */
export interface HistoryQuery {
  readonly streams: readonly string[];
  /** A fixed range, or the last `last` ms up to now (moving with time). */
  readonly range: { readonly from: number; readonly to: number } | { readonly last: number };
  /** About how many points per stream (M4: each bucket's first, min, max and last). */
  readonly points: number;
}

export interface HistorySeries {
  readonly stream: string;
  readonly ts: readonly number[];
  readonly values: readonly (number | string)[];
  /** Fewer points than the cache holds for the range (M4). */
  readonly downsampled: boolean;
  /**
   * The parts of the range the cache holds for this stream (read from the server at any
   * resolution, or live values since), sorted: what a chart offline can say it shows.
   */
  readonly held: readonly { readonly from: number; readonly to: number }[];
}

export interface HistoryResult {
  readonly from: number;
  readonly to: number;
  readonly series: readonly HistorySeries[];
  /** Parts of the range are being read from the server. */
  readonly loading: boolean;
  /** Parts of the range could not be read from the server: what shows is what is cached. */
  readonly offline: boolean;
}

export interface ValuesArea {
  /**
   * The latest values of an asset's streams: from the cache at once, then the server's, then
   * every live value (at most once per animation frame). Opening an asset also caches the last
   * 24 h of its streams, for offline use.
   */
  watchAsset(assetId: string, callback: (values: AssetValues) => void): Promise<Unsubscribe>;
  /**
   * Streams' history: the cache first, then the gaps read from the server when it can be
   * reached (again after an offline period, without a reload), then live values as they come.
   */
  watchHistory(
    query: HistoryQuery,
    callback: (result: HistoryResult) => void,
  ): Promise<Unsubscribe>;
  /**
   * Several watches in one call (a dashboard's widgets): streams' history, assets' latest values
   * and models, as `watchHistory`, `watchAsset` and `data.watch` answer them. Their answers come
   * in batches, each with its watch's index: the first ones wait a moment for the others (the
   * page draws them at once), later ones go together when they come close. The handle stops
   * some (by index) or all of them; release it once all are stopped.
   */
  watchMany(
    watches: readonly ManyWatch[],
    callback: (answers: readonly ManyAnswer[]) => void,
  ): Promise<ManyWatches>;
  /** How much the values cache holds (bytes as counted for its bound). */
  cacheSize(): Promise<{ bytes: number; chunks: number; maxBytes: number }>;
}

/** One watch of `values.watchMany`. */
export type ManyWatch =
  | { readonly kind: 'history'; readonly query: HistoryQuery }
  | { readonly kind: 'asset'; readonly asset: string }
  | { readonly kind: 'model'; readonly type: ModelType; readonly id: string };

/** A watch's answer: what its own call would have given (a model: null while it is missing). */
export interface ManyAnswer {
  readonly index: number;
  readonly value: HistoryResult | AssetValues | LocalModel | null;
}

/** The watches of one `watchMany` call: `stop()` ends them all, `stop([i])` the i-th. */
export interface ManyWatches {
  stop(indexes?: readonly number[]): void;
}

/** A gateway terminal's answer (spec 000 §2): who ran what, and what came back. */
export interface TerminalMessage {
  readonly id: string;
  readonly gateway: string;
  readonly line: string;
  readonly user: string;
  readonly at: number;
  readonly ok: boolean;
  readonly output: string;
}

export interface TerminalArea {
  /** Every answer of the gateway's terminal from now on (any user's, with the internal tag). */
  watch(gatewayId: string, callback: (message: TerminalMessage) => void): Promise<Unsubscribe>;
  /**
   * Sends a command line to the gateway's agent over the broker (kept and sent once the
   * connection is back); its answer comes to the watchers with the id answered here.
   */
  send(gatewayId: string, line: string): Promise<Result<{ id: string }>>;
}

/** An upload as the page shows it (spec 000 §9: percent, 0 decimals). */
export interface UploadView {
  readonly id: string;
  /** 0 to 1. */
  readonly progress: number;
  /**
   * waiting: its bytes are here, not yet all on the server (offline, or the file's write not
   * sent yet); uploading: chunks are moving (here or, for another user's file, elsewhere);
   * failed: refused for good, with the reason.
   */
  readonly state: 'waiting' | 'uploading' | 'failed';
  readonly error: string | null;
  /**
   * Its bytes wait in this browser (this user's upload, not yet all on the server, or failed):
   * a sign-out deletes them. False for another user's upload seen moving over the broker.
   */
  readonly here: boolean;
}

/** How much is kept for offline use, in all and per asset. */
export interface FilesUsage {
  readonly bytes: number;
  readonly files: number;
  readonly byAsset: Readonly<Record<string, number>>;
  /** Bytes of uploads waiting here for the server (never freed: they are not on the server). */
  readonly waitingBytes: number;
}

/**
 * Whose file: an asset's (its id), a template's 3D model's, a help article's or a ticket's image,
 * a release's artifact, a theme's logo or login image.
 */
export type FileOwner =
  | string
  | { readonly template: string }
  | { readonly article: string }
  | { readonly ticket: string }
  | { readonly release: string }
  | { readonly theme: string }
  /** A filled-in form's photo or signature: a file of the entry and of the entry's asset. */
  | { readonly entry: string; readonly asset: string };

/** Files of assets (DESIGN.md §9): added offline too, uploaded in chunks, kept for offline use. */
export interface FilesArea {
  /**
   * Adds a photo or document to an asset: checked against the kind's limits (the answer's error
   * names the field), shown at once, uploaded in chunks when the network allows, resumed after
   * a cut or a reload. Answers the new file's id.
   */
  add(
    /** The asset's id, or the template whose 3D model the file is part of (DESIGN.md §13). */
    owner: FileOwner,
    kind: FileKind,
    file: Blob,
    name: string,
    /** A file this one replaces (an asset's former photo): deleted once this one is stored. */
    replaces?: string,
    /** The new file's id, when the caller named it already (a form entry's answer names it). */
    id?: string,
  ): Promise<Result<{ id: string; mutationId: string }>>;
  /** A file's bytes (or its thumbnail): kept here, waiting to upload, or read from the server. */
  read(id: string, variant: 'content' | 'thumbnail'): Promise<Result<Blob>>;
  /** Keeps every file of an opened asset for offline use. */
  keep(assetId: string): Promise<Result<{ files: number; bytes: number }>>;
  /** How much is kept for offline use. */
  usage(): Promise<FilesUsage>;
  /** Frees what is kept (of one asset, or all); uploads still waiting stay. */
  free(assetId?: string): Promise<void>;
  /** Every upload known here, now and on every change (progress, waiting, failed). */
  watchUploads(
    callback: (uploads: Readonly<Record<string, UploadView>>) => void,
  ): Promise<Unsubscribe>;
}

/** One article the offline search found (help/help-index.ts). */
export interface HelpHit {
  readonly articleId: string;
  readonly number: number | null;
  readonly lang: Language;
  readonly title: string;
  readonly snippet: string;
}

/** One article of the help centre's list as a reader in a language meets it (no content). */
export interface HelpListEntry {
  readonly id: string;
  readonly number: number | null;
  readonly tags: readonly string[];
  readonly categories: readonly string[];
  /** A write of it waits in the outbox. */
  readonly pending: boolean;
  /** The text shown: its title and language (null: none in any language yet). */
  readonly title: string | null;
  readonly lang: Language | null;
  readonly fallback: boolean;
  /** Shown by an authors' draft (not published in any language). */
  readonly draft: boolean;
}

/** The help centre's search over the store (issue 33 item 4): MiniSearch, offline. */
export interface HelpArea {
  /**
   * Every article of the help centre as a reader in `lang` meets it (authors: drafts too), by
   * number, live: the worker reads the store's lists in windows, however many articles there are.
   */
  watchList(
    lang: Language,
    author: boolean,
    callback: (entries: readonly HelpListEntry[]) => void,
  ): Promise<Unsubscribe>;
  search(query: string, lang: Language): Promise<readonly HelpHit[]>;
  /**
   * The id of the article with this number in the store (null: none here): an article's page
   * opens by number and then reads that article alone, however many the help centre has.
   */
  articleId(number: number): Promise<string | null>;
}

export interface SyncWorkerApi {
  readonly session: SessionArea;
  readonly data: DataArea;
  readonly writes: WritesArea;
  readonly status: StatusArea;
  readonly http: HttpArea;
  readonly values: ValuesArea;
  readonly terminal: TerminalArea;
  readonly files: FilesArea;
  readonly help: HelpArea;
}

/**
 * What `Comlink.wrap` gives the page for this contract. `Remote<SyncWorkerApi>` would type each
 * area as a Promise (areas are plain objects, not proxies), although `api.session.start(…)` works:
 * Comlink resolves the whole path in the worker. So: Remote per area.
 */
export type RemoteSyncWorker = { readonly [K in keyof SyncWorkerApi]: Remote<SyncWorkerApi[K]> };

/**
 * A subscription's unsubscribe as the page holds it: a remote function. Call it, await it, then
 * release it (`unsubscribe[Comlink.releaseProxy]()`).
 */
export type RemoteUnsubscribe = Remote<Unsubscribe>;
