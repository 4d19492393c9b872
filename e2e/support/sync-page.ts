import type { BrowserContext, Page } from 'playwright-core';
import type { ModelInput, ModelType } from '@plant/shared-schema';
import type {
  LocalModel,
  ModelQuery,
  PendingWrite,
  QueryResult,
  Result,
  SyncStatus,
} from '../../sync-worker/src/api';
import { seenKey, type TestSession, type Watched } from '../page/contract';
import { readTable } from './idb';

/** `waitForFunction` checks on a fixed interval (ms), not on animation frames (its default). */
const POLL = { polling: 25 } as const;

function dataOrThrow<T>(result: Result<T>): T {
  if ('error' in result) throw new Error(`${result.error.kind}: ${result.error.message}`);
  return result.data;
}

/**
 * The page model of the e2e test page (e2e/page): one browser tab running the real sync worker,
 * driven through the same `SyncWorkerApi` the client uses.
 */
export class SyncPage {
  private constructor(
    readonly page: Page,
    private readonly url: string,
  ) {}

  /** Opens a new tab of `context` on the test page and waits for its worker API. */
  static async open(context: BrowserContext, url: string): Promise<SyncPage> {
    const page = await context.newPage();
    const tab = new SyncPage(page, url);
    await tab.load(() => page.goto(url));
    return tab;
  }

  private async load(navigate: () => Promise<unknown>): Promise<void> {
    await navigate();
    await this.page.waitForFunction(() => 'plant' in window, undefined, POLL);
  }

  /** Reloads the tab: a new page and a new worker on the same profile (same IndexedDB). */
  reload(): Promise<void> {
    return this.load(() => this.page.reload());
  }

  close(): Promise<void> {
    return this.page.close();
  }

  async start(session: TestSession): Promise<SyncStatus> {
    return dataOrThrow(await this.page.evaluate((s) => window.plant.start(s), session));
  }

  status(): Promise<SyncStatus | undefined> {
    return this.page.evaluate(() => window.plant.status);
  }

  async waitUntilBootstrapped(): Promise<void> {
    await this.page.waitForFunction(
      () => window.plant.status?.bootstrap.name === 'done',
      undefined,
      POLL,
    );
  }

  /** Connected to the broker and subscribed to the account's updates. */
  async waitUntilLive(): Promise<void> {
    await this.page.waitForFunction(
      () => {
        const c = window.plant.status?.connection;
        return c?.name === 'connected' && c.subscribed;
      },
      undefined,
      POLL,
    );
  }

  async waitUntilLeader(): Promise<void> {
    await this.page.waitForFunction(() => window.plant.status?.leader === true, undefined, POLL);
  }

  async waitForPendingWrites(count: number): Promise<void> {
    await this.page.waitForFunction((n) => window.plant.status?.pendingWrites === n, count, POLL);
  }

  /** Starts a live query under `name` (data.subscribe with a proxied callback). */
  watch(name: string, query: ModelQuery): Promise<void> {
    return this.page.evaluate(([n, q]) => window.plant.watch(n, q), [name, query] as const);
  }

  async watched(name: string): Promise<Watched> {
    const found = await this.page.evaluate((n) => window.plant.watched[n], name);
    if (found === undefined) throw new Error(`nothing watched as ${name}`);
    return found;
  }

  /** The live query's latest result, once it has delivered one. */
  async result(name: string): Promise<QueryResult> {
    const latest = await this.page.waitForFunction(
      (n) => window.plant.watched[n]?.latest,
      name,
      POLL,
    );
    return (await latest.jsonValue()) as QueryResult;
  }

  /** Waits until the live query `name` has delivered model `id` named `value`; answers when. */
  async waitUntilSeen(name: string, id: string, value: unknown): Promise<number> {
    const key = seenKey(id, value);
    const at = await this.page.waitForFunction(
      ([n, k]) => window.plant.watched[n]?.firstSeen[k],
      [name, key] as const,
      POLL,
    );
    return (await at.jsonValue()) ?? 0;
  }

  async create<T extends ModelType>(
    type: T,
    attributes: ModelInput<T>,
  ): Promise<{ id: string; mutationId: string }> {
    return dataOrThrow(
      await this.page.evaluate(
        ([t, a]): Promise<Result<{ id: string; mutationId: string }>> =>
          window.plant.api.writes.create(t, a),
        [type, attributes] as const,
      ),
    );
  }

  async update<T extends ModelType>(
    type: T,
    id: string,
    attributes: Partial<ModelInput<T>>,
  ): Promise<void> {
    dataOrThrow(
      await this.page.evaluate(
        // Playwright's serialisation loses the generic: the caller's type checked `attributes`.
        ([t, i, a]): Promise<Result<{ mutationId: string }>> =>
          window.plant.api.writes.update(t, i, a as Partial<ModelInput<typeof t>>),
        [type, id, attributes] as const,
      ),
    );
  }

  writes(): Promise<readonly PendingWrite[]> {
    return this.page.evaluate(() => window.plant.api.writes.list());
  }

  get<T extends ModelType>(type: T, id: string): Promise<LocalModel<T> | null> {
    return this.page.evaluate(
      ([t, i]) => window.plant.api.data.get(t, i) as Promise<LocalModel<T> | null>,
      [type, id] as const,
    );
  }

  signOut(): Promise<void> {
    return this.page.evaluate(() => window.plant.api.session.signOut());
  }

  /** Every IndexedDB database of this page's origin. */
  databases(): Promise<string[]> {
    return this.page.evaluate(async () =>
      (await indexedDB.databases()).flatMap((d) => (d.name === undefined ? [] : [d.name])),
    );
  }

  /**
   * Every live model doc as IndexedDB holds it, read straight from the models databases of the
   * user's stores (RxDB's Dexie storage: `rxdb-dexie-<store>--<version>--models`, table `docs`),
   * not through the worker: what is written to disk, whatever the worker shows.
   */
  async storedModels(userPart: string): Promise<{ type: string; id: string; server: unknown }[]> {
    const rows = await readTable(
      this.page,
      { part: `-plant-${userPart}-`, end: '--models' },
      'docs',
    );
    return rows.flatMap((raw) => {
      const doc = raw as { type: string; id: string; server: unknown; _deleted?: unknown };
      return doc._deleted === '1' || doc._deleted === true
        ? []
        : [{ type: doc.type, id: doc.id, server: doc.server }];
    });
  }

  toString(): string {
    return `SyncPage(${this.url})`;
  }
}
