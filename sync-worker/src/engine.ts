import {
  deferred,
  apiPaths,
  envelopeSchema,
  fieldErrorsOf,
  graphAnswerSchema,
  modelByType,
  parentOf,
  TIMINGS,
  uuidv7,
  isModelType,
  type ModelInput,
  type ModelType,
  type ModelUpdate,
  type UpdateMessage,
} from '@plant/shared-schema';
import type {
  LocalModel,
  PendingWrite,
  Result,
  SessionOptions,
  SyncEvent,
  SyncStatus,
} from './api';
import { alwaysLeader, type LeaderLock } from './leader';
import type { Logger } from './log';
import { OutboxSender, type SenderTimings } from './outbox/sender';
import { MissedUpdatePoller, type MissedUpdateTimings } from './poller/missed-updates';
import { toLocalModel } from './queries';
import { QueryHub, rxdbChanges } from './query/query-hub';
import { valuesDatabaseName } from './store/database-name';
import { META_ID, modelKey, type OutboxDoc } from './store/docs';
import { globalIndexedDb, type IndexedDbEnv } from './store/indexeddb';
import { LocalStore, modelsDatabaseName } from './store/store';
import { bootstrap, SNAPSHOT_PAGE } from './sync/bootstrap';
import { Replica } from './sync/replica';
import { BrokerConnection, type BrokerTimings } from './transport/broker';
import { ApiClient } from './transport/http';
import { TerminalHub } from './terminal/terminal-hub';
import { ValuesCache } from './values/cache';
import { ValuesHub } from './values/values-hub';
import { FilesDatabase, filesDatabaseName } from './files/file-db';
import { FilesHub, type FilesTimings } from './files/files-hub';

export interface EngineOptions extends SessionOptions {
  readonly log: Logger;
  /** Default: the worker's IndexedDB. Node tests pass fake-indexeddb. */
  readonly env?: IndexedDbEnv;
  readonly multiInstance?: boolean;
  /** Default: `ws(s)://<origin host>/mqtt`. */
  readonly mqttUrl?: string;
  readonly leader?: LeaderLock;
  readonly fetch?: typeof fetch;
  readonly snapshotPage?: number;
  /**
   * The live queries of this session, made before the store opens so that a list's first rows
   * come from disk at once (worker-api.ts). Default: the engine makes its own.
   */
  readonly queries?: QueryHub;
  /** The values cache's bound in bytes (default DEFAULT_CACHE_BYTES). */
  readonly valuesCacheBytes?: number;
  readonly timings?: {
    readonly broker?: Partial<BrokerTimings>;
    readonly poller?: Partial<MissedUpdateTimings>;
    readonly sender?: Partial<SenderTimings>;
    readonly files?: Partial<FilesTimings>;
    /** How long a server call waits for its answer to begin (http.ts ANSWER_WITHIN_MS). */
    readonly answerWithinMs?: number;
    /** Wait before trying a failed bootstrap again. */
    readonly bootstrapRetryMs?: number;
  };
}

const graphAnswer = /* @__PURE__ */ deferred(() => envelopeSchema(graphAnswerSchema));

/** The status when nothing runs. */
export const STOPPED_STATUS: SyncStatus = {
  started: false,
  leader: false,
  connection: { name: 'stopped' },
  bootstrap: { name: 'idle' },
  pendingWrites: 0,
  sendingWrites: 0,
  failedWrites: 0,
  lastSyncedAt: null,
  accountId: null,
  clockOffsetMs: 0,
};
const READ_GUARD_MS = TIMINGS.identicalRequestGuardMs;

/**
 * One user's sync for one account: the local store, and (while this tab leads) the broker
 * connection, the missed-update poller and the outbox drain, wired as DESIGN.md §2 says.
 */
export class SyncEngine {
  readonly api: ApiClient;
  /** Machine values: live subscriptions, the values cache and the page's watches. */
  readonly values: ValuesHub;
  /** The gateway terminal's commands and answers (spec 000 §2). */
  readonly terminal: TerminalHub;
  /** Files of assets: uploads in chunks, bytes kept for offline use (DESIGN.md §9). */
  readonly files: FilesHub;
  /** Live queries and one-model watches over the local store. */
  readonly queries: QueryHub;
  private broker: BrokerConnection | undefined;
  private poller: MissedUpdatePoller | undefined;
  private sender: OutboxSender | undefined;
  private releaseLeader: () => void = () => undefined;
  private ready = false;
  private stopped = false;
  private visible = true;
  private token: string;
  private current: SyncStatus;
  private readonly statusListeners = new Set<(status: SyncStatus) => void>();
  private readonly eventListeners = new Set<(event: SyncEvent) => void>();
  private readonly inbox: UpdateMessage[] = [];
  private flushing: Promise<void> | undefined;
  private readonly runningReads = new Set<string>();
  private readonly recentReads = new Map<string, { at: number; result: Result<LocalModel> }>();
  private readonly cleanups: (() => void)[] = [];
  private bootstrapTimer: ReturnType<typeof setTimeout> | undefined;
  private appUrl: string;

  private constructor(
    private readonly options: EngineOptions,
    readonly replica: Replica,
    valuesCache: ValuesCache,
    queries: QueryHub,
    private readonly filesDb: FilesDatabase,
  ) {
    this.queries = queries;
    this.token = options.token;
    this.appUrl = options.appUrl;
    this.current = { ...STOPPED_STATUS, started: true, accountId: options.accountId };
    this.api = new ApiClient({
      origin: options.origin,
      token: () => this.token,
      appUrl: () => this.appUrl,
      log: options.log,
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
      ...(options.timings?.answerWithinMs === undefined
        ? {}
        : { answerWithinMs: options.timings.answerWithinMs }),
    });
    this.values = new ValuesHub({
      api: this.api,
      log: options.log,
      cache: valuesCache,
      channel: `plant-values-${replica.store.name}`,
      assetStreams: (asset) => this.assetStreams(asset),
      streamAsset: async (stream) => (await this.get('datastream', stream))?.attributes.asset_id,
    });
    this.terminal = new TerminalHub(
      options.accountId,
      `plant-terminal-${replica.store.name}`,
      options.log,
    );
    this.files = new FilesHub({
      api: this.api,
      log: options.log,
      db: filesDb,
      create: (attributes, id) => this.create('file', attributes, id),
      model: (id) => this.get('file', id),
      remove: (id) => this.remove('file', id),
      filesOf: (asset) => this.assetFiles(asset),
      createWrite: async (id) =>
        (await this.replica.outbox()).find(
          (m) => m.type === 'file' && m.id === id && m.kind === 'create',
        ),
      channel: `plant-files-${replica.store.name}`,
      ...(options.timings?.files === undefined ? {} : { timings: options.timings.files }),
    });
  }

  /** The files of an asset in the local store. */
  private async assetFiles(asset: string): Promise<LocalModel<'file'>[]> {
    const docs = await this.replica.store.db.models
      .find({ selector: { parent_key: modelKey('asset', asset) } })
      .exec();
    return docs
      .filter((d) => d.type === 'file')
      .map((d) => toLocalModel(d.toJSON()))
      .filter((m): m is LocalModel<'file'> => m !== null && m.type === 'file');
  }

  /** The ids of an asset's data streams in the local store (through its groups). */
  private async assetStreams(asset: string): Promise<string[]> {
    const { models } = this.replica.store.db;
    const groups = await models.find({ selector: { parent_key: modelKey('asset', asset) } }).exec();
    const keys = groups.filter((g) => g.type === 'datastreamgroup').map((g) => g.key);
    if (keys.length === 0) return [];
    const streams = await models.find({ selector: { parent_key: { $in: keys } } }).exec();
    return streams.filter((d) => d.type === 'datastream' && d.attributes !== null).map((d) => d.id);
  }

  static async start(options: EngineOptions): Promise<SyncEngine> {
    const env = options.env ?? globalIndexedDb();
    const queries =
      options.queries ??
      new QueryHub({
        env,
        databaseName: modelsDatabaseName(options.userId, options.accountId),
        log: options.log,
      });
    let store: LocalStore;
    try {
      store = await LocalStore.open({
        userId: options.userId,
        accountId: options.accountId,
        env,
        ...(options.multiInstance === undefined ? {} : { multiInstance: options.multiInstance }),
        onCollections: (db) => void queries.attach(rxdbChanges(db.models)),
      });
    } catch (err) {
      queries.close();
      throw err;
    }
    let cache: ValuesCache;
    try {
      cache = await ValuesCache.open(
        valuesDatabaseName(options.userId, options.accountId),
        env,
        options.valuesCacheBytes,
      );
    } catch (err) {
      queries.close();
      await store.close();
      throw err;
    }
    const filesDb = new FilesDatabase(filesDatabaseName(options.userId, options.accountId), env);
    const engine = new SyncEngine(options, new Replica(store), cache, queries, filesDb);
    engine.wire();
    return engine;
  }

  private wire(): void {
    const { log } = this.options;
    this.cleanups.push(
      this.api.listen({
        events: (updates) => this.receive(updates),
        permissionChecks: (checks) => this.emit({ name: 'permission-checks', checks }),
        feedback: (feedback) => this.emit({ name: 'feedback', feedback }),
        clock: (offsetMs) => this.setStatus({ clockOffsetMs: offsetMs }),
        answered: () => {
          if (this.broker !== undefined && this.broker.state.name !== 'connected')
            this.poller?.trigger('answer while the broker is down');
        },
      }),
    );
    // Counts for the status, from every tab's writes (RxDB shares changes between tabs).
    const outbox = this.replica.store.db.outbox.find().$.subscribe((docs) => {
      const failed = docs.filter((d) => d.state === 'failed').length;
      const sending = docs.filter((d) => d.state === 'sending').length;
      this.setStatus({
        pendingWrites: docs.length - failed,
        failedWrites: failed,
        sendingWrites: sending,
      });
      if (docs.some((d) => d.state === 'pending')) this.sender?.schedule();
    });
    this.cleanups.push(() => outbox.unsubscribe());
    // A follower tab shows what the leader does to the shared store: loaded or not, and when it
    // last caught up (the leader moves meta's last_seq with every update it applies).
    let followedSeq: number | undefined;
    const meta = this.replica.store.db.meta.findOne(META_ID).$.subscribe((doc) => {
      if (doc === null || this.current.leader) return;
      const seqMoved = followedSeq !== undefined && doc.last_seq !== followedSeq;
      followedSeq = doc.last_seq;
      this.setStatus({
        connection: { name: 'follower' },
        bootstrap: doc.bootstrap === 'done' ? { name: 'done' } : { name: 'loading', progress: 0 },
        ...(seqMoved || (doc.bootstrap === 'done' && this.current.lastSyncedAt === null)
          ? { lastSyncedAt: Date.now() }
          : {}),
      });
    });
    this.cleanups.push(() => meta.unsubscribe());
    const lock = this.options.leader ?? alwaysLeader;
    this.releaseLeader = lock.acquire(`plant-sync-${this.replica.store.name}`, () => {
      if (this.stopped) return;
      log.info('this tab leads the sync');
      this.setStatus({ leader: true });
      this.lead();
    });
  }

  /** The leader's part: bootstrap if needed, then broker, poller and outbox. */
  private lead(): void {
    const { options } = this;
    const timings = options.timings ?? {};
    this.poller = new MissedUpdatePoller({
      api: this.api,
      log: options.log,
      lastTs: async () => (await this.replica.meta()).last_ts,
      apply: async (messages) => {
        const result = await this.replica.receive(messages);
        await this.replica.settleConfirmed();
        this.synced(result.refresh);
        await this.forgetWhatLeftTheStore(messages);
      },
      resync: (reason) => this.resync(reason),
      visible: () => this.visible,
      ...(timings.poller === undefined ? {} : { timings: timings.poller }),
    });
    this.sender = new OutboxSender(
      this.replica,
      this.api,
      options.log,
      {
        applied: async (events) => {
          await this.receiveNow(events);
          this.files.nudge();
        },
        rejected: (entry, message, fields) => {
          // A file's refused write: its upload says so.
          if (entry.type === 'file') this.files.nudge();
          // Named as the user knows the model (its stored name: the refused one may be a rename).
          void this.describe(entry, true)
            .catch(() => pendingWriteOf(entry, { name: ownName(entry), parent: null }))
            .then((write) =>
              this.emit({
                name: 'write-rejected',
                write,
                message,
                ...(fields === undefined ? {} : { fields }),
              }),
            );
        },
        unauthorized: () => this.emit({ name: 'signed-out', reason: 'unauthorized' }),
      },
      timings.sender,
    );
    const origin = new URL(options.origin);
    this.broker = new BrokerConnection({
      url:
        options.mqttUrl ?? `${origin.protocol === 'https:' ? 'wss:' : 'ws:'}//${origin.host}/mqtt`,
      accountId: options.accountId,
      browserId: options.browserId,
      api: this.api,
      log: options.log,
      events: {
        state: (connection) => this.setStatus({ connection }),
        update: (message) => this.receive([message]),
        upload: (progress) => {
          this.files.received(progress);
          this.emit({ name: 'upload-progress', ...progress });
        },
        values: (message) => this.values.received(message),
        terminal: (message) => this.terminal.received(message),
        connected: () => {
          this.sender?.nudge();
          this.files.nudge();
        },
        subscribed: () => {
          this.poller?.trigger('broker subscribed');
          this.values.connected();
        },
        refused: (error) => this.emit({ name: 'signed-out', reason: error.message }),
        accessChanged: () => void this.accessChanged(),
      },
      ...(timings.broker === undefined ? {} : { timings: timings.broker }),
    });
    this.values.lead(this.broker);
    this.terminal.lead(this.broker);
    this.files.lead();
    this.broker.start();
    void this.runBootstrap();
  }

  private async runBootstrap(): Promise<void> {
    if (this.stopped) return;
    this.ready = false;
    this.setStatus({ bootstrap: { name: 'loading', progress: 0 } });
    const outcome = await bootstrap(
      this.replica,
      this.api,
      this.options.log,
      (progress) => this.setStatus({ bootstrap: { name: 'loading', progress } }),
      this.options.snapshotPage ?? SNAPSHOT_PAGE,
      () => this.queries.wanted(),
    ).catch((err: unknown) => ({
      ok: false as const,
      error: { kind: 'network' as const, status: 0, message: String(err) },
    }));
    if (this.stopped) return;
    if (!outcome.ok) {
      this.options.log.warn('bootstrap failed, trying again', { ...outcome.error });
      this.setStatus({ bootstrap: { name: 'error', message: outcome.error.message } });
      this.bootstrapTimer = setTimeout(
        () => void this.runBootstrap(),
        this.options.timings?.bootstrapRetryMs ?? 5_000,
      );
      return;
    }
    this.ready = true;
    this.setStatus({ bootstrap: { name: 'done' }, lastSyncedAt: Date.now() });
    // A resync may have left files out (deleted meanwhile, an asset no longer seen).
    await this.files
      .keepOnly(new Set(await this.replica.idsOfType('file')))
      .catch((err: unknown) =>
        this.options.log.warn('kept files not checked', { error: String(err) }),
      );
    if (this.stopped) return;
    this.poller?.start();
    this.sender?.start();
    this.poller?.trigger('bootstrapped');
  }

  /**
   * What the user may see changed (a role's assets or fields, DESIGN.md §10): the account is
   * loaded again, so what is no longer visible leaves the store and what became visible comes;
   * cached values of streams no longer in the store go too. Unsent writes stay in the outbox.
   */
  private accessing: Promise<void> = Promise.resolve();

  private accessChanged(): Promise<void> {
    const next = this.accessing.then(async () => {
      if (this.stopped) return;
      await this.resync('access changed');
      if (this.stopped) return;
      const streams = await this.replica.idsOfType('datastream');
      await this.values.cache.keepOnly(new Set(streams));
      await this.files.keepOnly(new Set(await this.replica.idsOfType('file')));
    });
    this.accessing = next.catch((err: unknown) =>
      this.options.log.warn('access change not applied', { error: String(err) }),
    );
    return this.accessing;
  }

  /** Too many missed (or the log no longer reaches back): load the account again. */
  private async resync(reason: string): Promise<void> {
    this.options.log.info('resync', { reason });
    this.ready = false;
    await this.replica.clearModels();
    await this.runBootstrap();
    this.emit({ name: 'resynced', reason });
  }

  /** Broker messages and `_events`: buffered, applied in one store write per tick, in order. */
  private receive(messages: readonly UpdateMessage[]): void {
    this.inbox.push(...messages);
    this.flushing ??= Promise.resolve().then(() => this.flush());
  }

  private async receiveNow(events: readonly ModelUpdate[]): Promise<void> {
    this.receive(events);
    await this.flushing;
  }

  private async flush(): Promise<void> {
    try {
      while (this.inbox.length > 0) {
        const batch = this.inbox.splice(0);
        if (!this.ready) continue; // the bootstrap's replay brings them
        const result = await this.replica.receive(batch);
        this.options.log.debug('received', {
          seqs: batch.map((m) => m.seq),
          lastSeq: result.lastSeq,
          gap: result.gap?.seq,
        });
        if (result.gap !== undefined) this.poller?.trigger(`gap before ${result.gap.seq}`);
        else this.synced(result.refresh);
        await this.forgetWhatLeftTheStore(batch);
      }
    } catch (err) {
      this.options.log.error('applying updates failed', { error: String(err) });
    } finally {
      this.flushing = undefined;
    }
  }

  /**
   * A stream that left the store (deleted, or moved to an asset the user does not see) takes its
   * cached values with it, a file its kept bytes.
   */
  private async forgetWhatLeftTheStore(messages: readonly UpdateMessage[]): Promise<void> {
    const deleted = messages.filter(
      (m): m is ModelUpdate & { action: 'item_deleted' } => m.action === 'item_deleted',
    );
    if (deleted.some((m) => m.type === 'datastream')) {
      const streams = await this.replica.idsOfType('datastream');
      await this.values.cache.keepOnly(new Set(streams));
    }
    // A file that left the store (deleted, or its asset no longer seen) takes its kept bytes.
    if (deleted.some((m) => m.type === 'file')) {
      await this.files.keepOnly(new Set(await this.replica.idsOfType('file')));
    }
  }

  private synced(refresh: readonly string[]): void {
    this.setStatus({ lastSyncedAt: Date.now() });
    for (const key of refresh) {
      const separator = key.indexOf(':');
      void this.read(key.slice(0, separator), key.slice(separator + 1));
    }
  }

  // ---- the API's areas -------------------------------------------------------------------------

  get status(): SyncStatus {
    return this.current;
  }

  onStatus(listener: (status: SyncStatus) => void): () => void {
    this.statusListeners.add(listener);
    listener(this.current);
    return () => this.statusListeners.delete(listener);
  }

  onEvent(listener: (event: SyncEvent) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  setToken(token: string): void {
    this.token = token;
  }

  /** The page's address now (requestFailed reports name it): the page tells on navigation. */
  setAppUrl(appUrl: string): void {
    this.appUrl = appUrl;
  }

  setVisible(visible: boolean): void {
    const becameVisible = visible && !this.visible;
    this.visible = visible;
    if (becameVisible) this.poller?.trigger('visible again');
  }

  /** Every local write not yet confirmed, oldest first, each named and placed by its model. */
  async pendingWrites(): Promise<PendingWrite[]> {
    const outbox = await this.replica.outbox();
    return Promise.all(outbox.map((entry) => this.describe(entry, false)));
  }

  /**
   * An outbox entry named and placed by its model: by the write's own name, or (`stored`) by the
   * name the local model has, the write's only when there is none.
   */
  private async describe(entry: OutboxDoc, stored: boolean): Promise<PendingWrite> {
    const local = isModelType(entry.type) ? await this.get(entry.type, entry.id) : null;
    const attributes = (
      stored
        ? { ...entry.attributes, ...local?.attributes }
        : { ...local?.attributes, ...entry.attributes }
    ) as Readonly<Record<string, unknown>>;
    const name = attributes['name'];
    const def = modelByType(entry.type);
    // A model placed by its attributes (a template's scene sits under the template).
    const placed =
      def === undefined || (def.parentField === undefined && def.altParents === undefined)
        ? null
        : parentOf(def, attributes, '');
    const parentId = local?.parentId ?? (placed?.id === '' ? null : (placed?.id ?? null));
    return pendingWriteOf(entry, {
      name: typeof name === 'string' ? name : null,
      parent:
        def === undefined || typeof parentId !== 'string'
          ? null
          : { type: local?.parentType ?? placed?.type ?? def.parentType, id: parentId },
    });
  }

  async get<T extends ModelType>(type: T, id: string): Promise<LocalModel<T> | null> {
    const doc = await this.replica.store.db.models.findOne(modelKey(type, id)).exec();
    // The doc at `<type>:<id>` is of that type (see toLocalModel).
    return doc === null ? null : (toLocalModel(doc.toJSON()) as LocalModel<T> | null);
  }

  /** graph/{type}/{id} into the store (spec 000 §5's guards). */
  async read(type: string, id: string): Promise<Result<LocalModel>> {
    if (!isModelType(type) || id.trim() === '') {
      return { error: { kind: 'unknown-type', message: 'Invalid id or type given.' } };
    }
    const key = modelKey(type, id);
    if (this.runningReads.has(key)) {
      return {
        error: { kind: 'busy', message: 'The component already has a running request!' },
      };
    }
    const recent = this.recentReads.get(key);
    if (recent !== undefined && Date.now() - recent.at < READ_GUARD_MS) return recent.result;
    this.runningReads.add(key);
    try {
      const answer = await this.api.get(apiPaths.graph(type, id), { schema: graphAnswer });
      let result: Result<LocalModel>;
      if (!answer.ok) {
        result = { error: answer.error };
      } else {
        const { model, children } = answer.data.data;
        await this.replica.putModels([model, ...children]);
        const local = await this.get(type, id);
        result =
          local === null
            ? { error: { kind: 'not-found', message: 'Model not found.' } }
            : { data: local };
      }
      this.recentReads.set(key, { at: Date.now(), result });
      return result;
    } finally {
      this.runningReads.delete(key);
    }
  }

  create<T extends ModelType>(
    type: T,
    attributes: ModelInput<T>,
    id: string = uuidv7(),
  ): Promise<Result<{ id: string; mutationId: string }>> {
    return this.mutate('create', type, id, attributes).then((r) =>
      'error' in r ? r : { data: { id, mutationId: r.data.mutationId } },
    );
  }

  update<T extends ModelType>(type: T, id: string, attributes: Partial<ModelInput<T>>) {
    return this.mutate('update', type, id, attributes);
  }

  remove(type: ModelType, id: string) {
    return this.mutate('delete', type, id, {});
  }

  private async mutate(
    kind: 'create' | 'update' | 'delete',
    type: string,
    id: string,
    attributes: object,
  ): Promise<Result<{ mutationId: string }>> {
    const def = modelByType(type);
    if (def === undefined) {
      return { error: { kind: 'unknown-type', message: 'Invalid id or type given.' } };
    }
    // The same schema the server applies: a write it would refuse is not queued.
    const schema = kind === 'create' ? def.attributes : def.attributes.partial();
    const parsed =
      kind === 'delete' ? { success: true as const, data: {} } : schema.safeParse(attributes);
    if (!parsed.success) {
      const fields = fieldErrorsOf(parsed.error);
      const message = Object.values(fields)[0]?.[0] ?? 'The given data was invalid.';
      return { error: { kind: 'invalid', message, fields } };
    }
    const known = Object.fromEntries(
      Object.entries(parsed.data).filter(([k]) => kind === 'create' || k in attributes),
    );
    const entry = await this.replica.mutate({
      kind,
      type,
      id,
      collection: def.collection,
      attributes: known,
    });
    this.sender?.schedule();
    return { data: { mutationId: entry.mutation_id } };
  }

  /** Resolves once the outbox has nothing to send and no missed-update round runs (tests). */
  async idle(): Promise<void> {
    await this.flushing;
    await this.poller?.settled();
    await this.sender?.settled();
    await this.files.settled();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.bootstrapTimer);
    for (const cleanup of this.cleanups.splice(0)) cleanup();
    this.values.stop();
    this.terminal.stop();
    this.files.stop();
    await this.files.settled();
    await this.broker?.stop();
    await this.poller?.stop();
    await this.sender?.stop();
    await this.flushing;
    this.releaseLeader();
    this.setStatus({ started: false, leader: false, connection: { name: 'stopped' } });
    this.queries.close();
    await this.replica.store.close();
    this.filesDb.close();
  }

  private setStatus(patch: Partial<SyncStatus>): void {
    this.current = { ...this.current, ...patch };
    if (patch.bootstrap !== undefined) this.queries.setLoading(patch.bootstrap.name !== 'done');
    for (const listener of this.statusListeners) listener(this.current);
  }

  private emit(event: SyncEvent): void {
    for (const listener of this.eventListeners) listener(event);
  }
}

/** A write's own name attribute (a create's, or a rename's), if it carries one. */
function ownName(entry: OutboxDoc): string | null {
  const name = entry.attributes['name'];
  return typeof name === 'string' ? name : null;
}

/** An outbox entry as the UI lists it. */
function pendingWriteOf(
  entry: OutboxDoc,
  model: Pick<PendingWrite, 'name' | 'parent'>,
): PendingWrite {
  return {
    mutationId: entry.mutation_id,
    kind: entry.kind,
    type: entry.type,
    id: entry.id,
    ...model,
    values: entry.kind === 'delete' ? {} : entry.attributes,
    state: entry.state,
    attempts: entry.attempts,
    error: entry.last_error,
    createdAt: entry.created_at,
  };
}
