import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { apiPaths, uuidv7, type SyncedModel } from '@plant/shared-schema';
import { dataOf, startTestServer, type TestServer } from '../../../server/src/testing/harness';
import { SyncEngine, type EngineOptions } from '../engine';
import { MemoryLogger } from '../log';
import type { ModelDoc } from '../store/docs';
import type { IndexedDbEnv } from '../store/indexeddb';

/** Short timings so that tests see reconnects, polls and retries in well under a second. */
export const FAST: NonNullable<EngineOptions['timings']> = {
  broker: {
    reconnectMs: 150,
    resubscribeAfterConnectMs: 50,
    subscriptionCheckMs: 50,
    publishRetryMs: 100,
    connectTimeoutMs: 2_000,
  },
  poller: { pollMs: 60_000, debounceMs: 30 },
  sender: { batchWaitMs: 30, minBackoffMs: 100, maxBackoffMs: 400 },
  bootstrapRetryMs: 150,
  files: { retryMs: 100, maxRetryMs: 400 },
};

export interface Session {
  readonly token: string;
  readonly userId: string;
  readonly accountId: string;
}

/** The real server on a loopback port, and engines on fake-indexeddb signed in to it. */
export class SyncFixture {
  /** One IndexedDB per "browser": engines made with the same env share their databases. */
  readonly env: IndexedDbEnv = { indexedDB: new IDBFactory(), IDBKeyRange };
  private readonly engines: SyncEngine[] = [];

  private constructor(readonly server: TestServer) {}

  static async start(options: Parameters<typeof startTestServer>[0] = {}): Promise<SyncFixture> {
    return new SyncFixture(await startTestServer(options));
  }

  async session(email: string): Promise<Session> {
    const token = await this.server.signIn(email);
    const user = dataOf<{ id: string; account: string }>(
      await this.server.call('GET', apiPaths.user(), { token }),
    );
    return { token, userId: user.id, accountId: user.account };
  }

  /** Starts an engine for the session, by default straight to the server. */
  async engine(session: Session, options: Partial<EngineOptions> = {}): Promise<SyncEngine> {
    const log = new MemoryLogger();
    const engine = await SyncEngine.start({
      origin: this.server.url,
      token: session.token,
      userId: session.userId,
      accountId: session.accountId,
      browserId: `browser-${uuidv7()}`,
      appUrl: 'http://test.local/app',
      env: this.env,
      multiInstance: false,
      log,
      timings: FAST,
      ...options,
    });
    this.engines.push(engine);
    return engine;
  }

  async stopEngine(engine: SyncEngine): Promise<void> {
    const i = this.engines.indexOf(engine);
    if (i >= 0) this.engines.splice(i, 1);
    await engine.stop();
  }

  /** The server's models of the account, as the worker should mirror them: key -> attributes. */
  async serverState(accountId: string): Promise<Map<string, unknown>> {
    const rows = await this.server.db
      .selectFrom('models')
      .select(['type', 'id', 'attributes'])
      .where('account_id', '=', accountId)
      .execute();
    return new Map(rows.map((r) => [`${r.type}:${r.id}`, JSON.parse(r.attributes) as unknown]));
  }

  async close(): Promise<void> {
    for (const engine of this.engines.splice(0)) await engine.stop().catch(() => undefined);
    await this.server.close();
  }
}

/** The synced models an engine shows (read models left out): key -> attributes. */
export async function localState(engine: SyncEngine): Promise<Map<string, unknown>> {
  const docs = await engine.replica.store.db.models.find().exec();
  return new Map(
    docs
      .map((d) => d.toJSON() as ModelDoc)
      .filter((d) => d.attributes !== null && !['account', 'user', 'role', 'tag'].includes(d.type))
      .map((d) => [d.key, d.attributes]),
  );
}

/** Waits until `check` holds (polling), failing with `what` after `ms`. */
export async function until(what: string, check: () => boolean | Promise<boolean>, ms = 10_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export type { SyncedModel };
