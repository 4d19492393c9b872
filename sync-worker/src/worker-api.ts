import * as Comlink from 'comlink';
import type {
  DataArea,
  FilesArea,
  HelpArea,
  HttpArea,
  ManyWatch,
  Result,
  SessionArea,
  SessionOptions,
  StatusArea,
  SyncStatus,
  TerminalArea,
  SyncWorkerApi,
  Unsubscribe,
  ValuesArea,
  WritesArea,
} from './api';
import { STOPPED_STATUS, SyncEngine, type EngineOptions } from './engine';
import { alwaysLeader, webLocksLeader, type LeaderLock } from './leader';
import type { Logger } from './log';
import { QueryHub } from './query/query-hub';
import { HelpIndex } from './help/help-index';
import { watchMany } from './values/watch-many';
import { userDexiePrefix, userValuesPrefix, valuesDatabaseName } from './store/database-name';
import {
  deleteDatabase,
  globalIndexedDb,
  listDatabases,
  type IndexedDbEnv,
} from './store/indexeddb';
import { LocalStore, modelsDatabaseName } from './store/store';
import { FilesDatabase, filesDatabaseName, userFilesPrefix } from './files/file-db';
import { Replica } from './sync/replica';
import { ApiClient, progressTransport } from './transport/http';

export interface WorkerApiOptions {
  readonly log: Logger;
  readonly env?: IndexedDbEnv;
  /** Default: Web Locks when the browser has them, else always the leader. */
  readonly leader?: LeaderLock;
  /** Passed to every engine (tests shorten timings). */
  readonly engine?: Partial<EngineOptions>;
}

const NOT_STARTED = { error: { kind: 'not-started', message: 'Sync has not started.' } } as const;
const NOT_CONFIGURED = {
  error: { kind: 'not-started', message: 'The server address is not configured.' },
} as const;

function defaultLeader(): LeaderLock {
  const locks = (globalThis as { navigator?: { locks?: LockManager } }).navigator?.locks;
  return locks === undefined ? alwaysLeader : webLocksLeader(locks);
}

/** Wraps a worker-side unsubscribe so that the page can call it through Comlink. */
function remote(unsubscribe: () => void): Unsubscribe {
  return Comlink.proxy(unsubscribe);
}

/**
 * The worker's side of `SyncWorkerApi`: one engine at a time (one user, one account), replaced
 * on an account switch. Subscriptions outlive an engine: they are re-attached to the next one.
 */
/** At most this long a start waits for the lists' first rows read from disk. */
const READ_AHEAD_WAIT_MS = 250;

export function createWorkerApi(options: WorkerApiOptions): SyncWorkerApi {
  const env = options.env ?? globalIndexedDb();
  const leader = options.leader ?? defaultLeader();
  let engine: SyncEngine | undefined;
  let session: SessionOptions | undefined;
  /**
   * The live queries of the session starting or running: made when a start is asked for, before
   * the store opens, so that a list's first rows come straight from disk (the page subscribes
   * while the session starts). The engine takes it over.
   */
  let queries: QueryHub | undefined;
  const openQueries = (userId: string, accountId: string): QueryHub => {
    queries?.close();
    queries = new QueryHub({
      env,
      databaseName: modelsDatabaseName(userId, accountId),
      log: options.log,
    });
    return queries;
  };
  const statusListeners = new Set<(status: SyncStatus) => void>();
  const detach: (() => void)[] = [];
  const stopped = STOPPED_STATUS;

  /*
   * Session operations run one after another: a second switch (a scan link's and the start-up
   * check's, say) must not stop an engine the first is still starting, which would leave one
   * running unstopped beside the next.
   */
  let sessionOps: Promise<unknown> = Promise.resolve();
  const serially = <T>(op: () => Promise<T>): Promise<T> => {
    const next = sessionOps.then(op, op);
    sessionOps = next.catch(() => undefined);
    return next;
  };

  const start = async (next: SessionOptions, hub: QueryHub): Promise<Result<SyncStatus>> => {
    await stop();
    // A list's first rows from disk before the store opens (its work shares this thread).
    await hub.readsAhead(READ_AHEAD_WAIT_MS);
    try {
      engine = await SyncEngine.start({
        ...options.engine,
        ...next,
        log: options.log,
        env,
        leader,
        queries: hub,
      });
    } catch (err) {
      if (queries === hub) queries = undefined;
      options.log.error('sync could not start', { error: String(err) });
      return { error: { kind: 'not-started', message: String(err) } };
    }
    session = next;
    const current = engine;
    detach.push(current.onStatus((s) => statusListeners.forEach((l) => l(s))));
    detach.push(current.onEvent((e) => eventListeners.forEach((l) => l(e))));
    return { data: current.status };
  };

  const stop = async () => {
    for (const d of detach.splice(0)) d();
    const running = engine;
    engine = undefined;
    if (running !== undefined) await running.stop();
    statusListeners.forEach((l) => l(stopped));
  };

  const eventListeners = new Set<Parameters<StatusArea['events']>[0]>();

  const sessionArea: SessionArea = {
    start: (next) => {
      const hub = openQueries(next.userId, next.accountId);
      return serially(() => start(next, hub));
    },
    stop: () =>
      serially(async () => {
        await stop();
        queries?.close();
        queries = undefined;
      }),
    switchAccount: (accountId, token) => serially(() => switchAccount(accountId, token)),
    signOut: (userId) => serially(() => signOut(userId)),
    setToken(token) {
      engine?.setToken(token);
      if (session !== undefined) session = { ...session, token };
    },
    setVisible(visible) {
      engine?.setVisible(visible);
    },
  };

  async function switchAccount(accountId: string, token: string): Promise<Result<SyncStatus>> {
    const previous = session;
    if (previous === undefined) return NOT_STARTED;
    if (previous.accountId === accountId) return { data: engine?.status ?? stopped };
    await stop();
    // Spec 000 §4: the old account's cached data goes; its unsent writes stay with it.
    const old = await LocalStore.open({
      userId: previous.userId,
      accountId: previous.accountId,
      env,
      multiInstance: false,
    });
    await new Replica(old).clearModels();
    await old.close();
    await deleteDatabase(env.indexedDB, valuesDatabaseName(previous.userId, previous.accountId));
    // Its kept files go too; its uploads still waiting stay, like its unsent writes.
    const files = new FilesDatabase(filesDatabaseName(previous.userId, previous.accountId), env);
    await files.kept.clear();
    files.close();
    return start({ ...previous, accountId, token }, openQueries(previous.userId, accountId));
  }

  /** Stops, then deletes every database of the session's user (or of `userId` without one). */
  async function signOut(userId?: string): Promise<void> {
    const whose = session?.userId ?? userId;
    await stop();
    queries?.close();
    queries = undefined;
    session = undefined;
    if (whose === undefined) return;
    const prefixes = [userDexiePrefix(whose), userValuesPrefix(whose), userFilesPrefix(whose)];
    const names = await listDatabases(env.indexedDB, () => []);
    for (const name of names.filter((n) => prefixes.some((p) => n.startsWith(p)))) {
      await deleteDatabase(env.indexedDB, name);
    }
  }

  const dataArea: DataArea = {
    subscribe(query, callback) {
      if (queries === undefined) return Promise.resolve(remote(() => undefined));
      return Promise.resolve(remote(queries.subscribe(query, callback)));
    },
    async get(type, id) {
      return (await engine?.get(type, id)) ?? null;
    },
    watch(type, id, callback) {
      if (queries === undefined) return Promise.resolve(remote(() => undefined));
      return Promise.resolve(remote(queries.watch(type, id, callback)));
    },
    async read(type, id) {
      return engine === undefined ? NOT_STARTED : engine.read(type, id);
    },
  };

  const writesArea: WritesArea = {
    async create(type, attributes, id) {
      return engine === undefined ? NOT_STARTED : engine.create(type, attributes, id);
    },
    async update(type, id, attributes) {
      return engine === undefined ? NOT_STARTED : engine.update(type, id, attributes);
    },
    async remove(type, id) {
      return engine === undefined ? NOT_STARTED : engine.remove(type, id);
    },
    async list() {
      return engine === undefined ? [] : engine.pendingWrites();
    },
    async retry(mutationId) {
      if (engine === undefined) return NOT_STARTED;
      const found = await engine.replica.retry(mutationId);
      return found
        ? { data: undefined }
        : { error: { kind: 'not-found', message: 'No such write.' } };
    },
    async discard(mutationId) {
      if (engine === undefined) return NOT_STARTED;
      const found = await engine.replica.discard(mutationId);
      return found
        ? { data: undefined }
        : { error: { kind: 'not-found', message: 'No such write.' } };
    },
  };

  const statusArea: StatusArea = {
    subscribe(callback) {
      statusListeners.add(callback);
      callback(engine?.status ?? stopped);
      return Promise.resolve(remote(() => statusListeners.delete(callback)));
    },
    events(callback) {
      eventListeners.add(callback);
      return Promise.resolve(remote(() => eventListeners.delete(callback)));
    },
  };

  /*
   * Value watches belong to the engine they were made on: an account switch or sign-out ends
   * them, and the page watches again (its hooks re-subscribe when the session changes).
   */
  const valuesArea: ValuesArea = {
    watchAsset(assetId, callback) {
      if (engine === undefined) return Promise.resolve(remote(() => undefined));
      return Promise.resolve(remote(engine.values.watchAsset(assetId, callback)));
    },
    watchHistory(query, callback) {
      if (engine === undefined) return Promise.resolve(remote(() => undefined));
      return Promise.resolve(remote(engine.values.watchHistory(query, callback)));
    },
    watchMany(watches, callback) {
      const running = engine;
      const hub = queries;
      if (running === undefined || hub === undefined) {
        return Promise.resolve(Comlink.proxy({ stop: () => undefined }));
      }
      const open = (watch: ManyWatch, onValue: (value: unknown) => void): (() => void) => {
        switch (watch.kind) {
          case 'history':
            return running.values.watchHistory(watch.query, onValue);
          case 'asset':
            return running.values.watchAsset(watch.asset, onValue);
          case 'model':
            return hub.watch(watch.type, watch.id, onValue);
        }
      };
      return Promise.resolve(Comlink.proxy(watchMany(watches, open, callback)));
    },
    async cacheSize() {
      if (engine === undefined) return { bytes: 0, chunks: 0, maxBytes: 0 };
      return engine.values.cache.size();
    },
  };

  const terminalArea: TerminalArea = {
    watch(gatewayId, callback) {
      if (engine === undefined) return Promise.resolve(remote(() => undefined));
      return Promise.resolve(remote(engine.terminal.watch(gatewayId, callback)));
    },
    send(gatewayId, line) {
      return Promise.resolve(
        engine === undefined ? NOT_STARTED : engine.terminal.send(gatewayId, line),
      );
    },
  };

  const filesArea: FilesArea = {
    async add(assetId, kind, file, name, replaces, id) {
      return engine === undefined
        ? NOT_STARTED
        : engine.files.add(assetId, kind, file, name, replaces, id);
    },
    async read(id, variant) {
      return engine === undefined ? NOT_STARTED : engine.files.read(id, variant);
    },
    async keep(assetId) {
      return engine === undefined ? NOT_STARTED : engine.files.keep(assetId);
    },
    async usage() {
      if (engine === undefined) return { bytes: 0, files: 0, byAsset: {}, waitingBytes: 0 };
      return engine.files.usage();
    },
    async free(assetId) {
      await engine?.files.free(assetId);
    },
    watchUploads(callback) {
      if (engine === undefined) return Promise.resolve(remote(() => undefined));
      return Promise.resolve(remote(engine.files.watch(callback)));
    },
  };

  let origin: { origin: string; appUrl: string } | undefined;
  const httpArea: HttpArea = {
    configure(next) {
      origin = { origin: next.origin, appUrl: next.appUrl };
      engine?.setAppUrl(next.appUrl);
      if (session !== undefined) session = { ...session, appUrl: next.appUrl };
    },
    async call(method, path, body, callOptions = {}) {
      /*
       * A call made while a session starts or switches (the page renders the stored session at
       * once, before the worker has opened it) belongs to that session: it waits for the
       * operation and goes out with its token. Made at once, it went out with no token and
       * came back 401 (the account switcher opened right after a reload said the accounts
       * could not be loaded; a scan link asked to sign in again).
       */
      if (callOptions.token === undefined) await sessionOps;
      const call = {
        ...(body === undefined ? {} : { body }),
        quiet: callOptions.quiet === true,
        text: callOptions.text === true,
        binary: callOptions.binary === true,
        raw: callOptions.raw === true,
      };
      const running = engine;
      if (running !== undefined && callOptions.token === undefined) {
        const answer = await running.api.call(method, path, call);
        return answer.ok ? { data: answer.data } : { error: answer.error };
      }
      const where = origin ?? session;
      if (where === undefined) return NOT_CONFIGURED;
      // Signed out, or another token than the session's: a client of its own for this call.
      const client = new ApiClient({
        origin: where.origin,
        appUrl: () => where.appUrl,
        token: () => callOptions.token ?? null,
        log: options.log,
      });
      const answer = await client.call(method, path, call);
      return answer.ok ? { data: answer.data } : { error: answer.error };
    },
    async upload(path, file, onProgress) {
      await sessionOps;
      const running = engine;
      if (running === undefined) return NOT_STARTED;
      const answer = await running.api.call('POST', path, {
        bytes: file,
        quiet: true,
        transport: progressTransport((fraction) => onProgress?.(fraction)),
      });
      return answer.ok ? { data: answer.data } : { error: answer.error };
    },
  };

  /** The help centre's offline search: one index per live-query hub (session and account). */
  let help: { readonly hub: QueryHub; readonly index: HelpIndex } | undefined;
  const helpIndex = (): HelpIndex | undefined => {
    const hub = queries;
    if (hub === undefined) return undefined;
    if (help?.hub !== hub) {
      help?.index.close();
      help = { hub, index: new HelpIndex(hub) };
    }
    return help.index;
  };
  const helpArea: HelpArea = {
    async search(query, lang) {
      return (await helpIndex()?.search(query, lang)) ?? [];
    },
    async articleId(number) {
      return (await helpIndex()?.articleId(number)) ?? null;
    },
    watchList(lang, author, callback) {
      const index = helpIndex();
      if (index === undefined) return Promise.resolve(remote(() => undefined));
      return Promise.resolve(remote(index.watchList(lang, author, callback)));
    },
  };

  return {
    session: sessionArea,
    data: dataArea,
    writes: writesArea,
    status: statusArea,
    http: httpArea,
    values: valuesArea,
    terminal: terminalArea,
    files: filesArea,
    help: helpArea,
  };
}
