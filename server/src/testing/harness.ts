import type { SandboxOptions } from '../sandbox/quickjs-sandbox';
import type { Agent as HttpsAgent } from 'node:https';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { sql } from 'kysely';
import { API_BASE, apiPaths, type SyncedModel } from '@plant/shared-schema';
import { loadConfig } from '../config';
import type { Clock } from '../lib/clock';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, DEMO_USERS } from '../seed/demo';
import { hashPasswordAtCost } from '../lib/secrets';
import { startServer, type RunningServer } from '../server';
import type { Db } from '../db/database';
import { DATABASE_FILE } from '../db/database';
import { DEMO_AGENTS_FILE } from '../seed/demo-agents';
import { testDatabase, type DatabaseCopy, type TestDatabase } from './test-database';
import type { TestLocale } from './local-postgres';
import type { AuthLimits } from '../services/auth.service';
import type { BatchRateLimits } from '../gateways/batch-rate';
import type { PdfRenderer } from '../reports/report-runner';
import type { ThreadLimits } from '../threed/convert-thread';
import type { SceneRenderer } from '../threed/scene-renderer';

/** A clock the test moves by hand (token and reset-link expiry without waiting). */
export class ManualClock implements Clock {
  constructor(private t = Date.parse('2026-11-22T08:00:00Z')) {}
  now(): number {
    return this.t;
  }
  advance(ms: number): void {
    this.t += ms;
  }
}

export interface TestServer extends RunningServer {
  readonly dataDir: string;
  /** The Postgres database it runs on (the `server-postgres` project), else undefined: SQLite. */
  readonly databaseUrl: string | undefined;
  /** Another connection to its database, as a second server process would have. */
  openDatabase(): Db;
  readonly clientId: string;
  /** Calls the real server over HTTP, with a bearer token when given. */
  call(method: string, path: string, options?: CallOptions): Promise<Answer>;
  /** Signs in with the password grant and answers the access token (fails the test if refused). */
  signIn(email: string, password?: string): Promise<string>;
  /** The ids of the demo accounts (DEMO_ACCOUNTS), as seeded. */
  demoAccountIds(): Promise<Record<keyof typeof DEMO_ACCOUNTS, string>>;
  /** Every model the token's user gets in a snapshot of its active account, page by page. */
  snapshot(token: string): Promise<SyncedModel[]>;
  /** Rows per table (but those the server writes of its own accord: OBSERVED_TABLES). */
  rowCounts(): Promise<Record<string, number>>;
  /** A hash of every table's whole content: to check that refused input changed nothing at all. */
  contentHashes(): Promise<Record<string, string>>;
  close(): Promise<void>;
}

export interface CallOptions {
  token?: string;
  json?: unknown;
  /** A raw body, sent as is (malformed JSON, forms). */
  body?: string;
  headers?: Record<string, string>;
  /** Send from this loopback address (127.0.0.2, …), to act as another client machine. */
  from?: string;
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
}

export interface TestServerOptions {
  seed?: 'demo' | 'none';
  clock?: Clock;
  env?: Record<string, string>;
  authLimits?: AuthLimits;
  /** Interval of the broker's re-check of open connections. */
  brokerRecheckMs?: number;
  /** How long a call's record in its request waits (default CALL_RECORD_DELAY_MS). */
  callRecordDelayMs?: number;
  /** Each gateway's share of points per second (ingest's rate). */
  ingestRate?: BatchRateLimits;
  /**
   * Start on this data folder (a server restart: `stop()` the first one, start again with its
   * folder and `env: { PORT }`). The folder is then the caller's: `close()` leaves it.
   */
  dataDir?: string;
  /** Web pushes through this https agent, to loopback endpoints too (a test push service). */
  pushAgent?: HttpsAgent;
  /** false: the server's own alarm dispatcher runs no rounds (the test drives its own). */
  dispatch?: boolean;
  /** On Postgres, a new database with this default collation; SQLite has none. */
  postgresLocale?: TestLocale;
  /** Limits of a pre-processing sandbox of the server's own (a longer time limit, say). */
  sandbox?: SandboxOptions;
  /** What makes reports' PDFs, from the real one (a renderer that fails first, say). */
  reportPdf?: (real: PdfRenderer) => PdfRenderer;
  /** Narrower limits of a 3D model's processing (a heap too small to convert, say). */
  threedLimits?: ThreadLimits;
  /** What draws scenes' renderings, from the real one (one a test holds, say). */
  sceneRenderer?: (real: SceneRenderer) => SceneRenderer;
  /** The demo seed's 3D scene (issue 32 item 8): a fresh seed (not the copy) with it. */
  demoScene?: boolean;
}

/** One HTTP request from a chosen local address (fetch cannot pick its source address). */
function requestFrom(
  localAddress: string,
  url: string,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, localAddress }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const out = new Headers();
        for (const [k, v] of Object.entries(res.headers)) {
          if (typeof v === 'string') out.set(k, v);
        }
        resolve(new Response(Buffer.concat(chunks), { status: res.statusCode ?? 0, headers: out }));
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * A small client of a running server's HTTP API (this process's or a child process's): calls with
 * an optional bearer token, and the password sign-in of the first-party client.
 */
export async function apiClient(baseUrl: string): Promise<{
  call: (method: string, path: string, options?: CallOptions) => Promise<Answer>;
  signIn: (email: string, password?: string) => Promise<string>;
  clientId: string;
}> {
  const call = async (method: string, p: string, o: CallOptions = {}): Promise<Answer> => {
    const url = p.startsWith('/') ? `${baseUrl}${p}` : `${baseUrl}${API_BASE}/${p}`;
    const headers: Record<string, string> = { 'X-Requested-With': 'XMLHttpRequest', ...o.headers };
    if (o.token !== undefined) headers.Authorization = `Bearer ${o.token}`;
    let body: string | undefined = o.body;
    if (o.json !== undefined) {
      body = JSON.stringify(o.json);
      headers['Content-Type'] ??= 'application/json';
    }
    const send = () =>
      o.from === undefined
        ? fetch(url, { method, headers, ...(body === undefined ? {} : { body }) })
        : requestFrom(o.from, url, method, headers, body);
    // A pooled connection the server closed as idle just as it was reused (Node's fetch keeps
    // them 4 s, the server 5 s): the request never reached the server, so it is sent again.
    const res = await send().catch((err: unknown) => {
      const code = (err as { cause?: { code?: unknown } }).cause?.code;
      if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return send();
      throw err;
    });
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, json };
  };

  const conf = (await call('GET', apiPaths.staticconf())).json as { client_id: string };

  const signIn = async (email: string, password = DEMO_PASSWORD) => {
    const res = await call('POST', apiPaths.token(), {
      json: { grant_type: 'password', client_id: conf.client_id, username: email, password },
    });
    const token = (res.json as { access_token?: unknown }).access_token;
    if (res.status !== 200 || typeof token !== 'string') {
      throw new Error(`sign-in of ${email} failed: ${res.status} ${res.text}`);
    }
    return token;
  };
  return { call, signIn, clientId: conf.client_id };
}

/** The settings of a test server on a folder (and a Postgres database): quiet, a free port. */
function testConfig(
  dataDir: string,
  databaseUrl: string | undefined,
  seed: 'demo' | 'none',
  env?: Record<string, string>,
) {
  return loadConfig({
    DATA_DIR: dataDir,
    ...(databaseUrl === undefined ? {} : { DATABASE_URL: databaseUrl }),
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    SEED: seed,
    // No built client unless a test gives one: answers at / do not depend on a local build.
    CLIENT_DIR: path.join(dataDir, 'no-client'),
    ...env,
  });
}

/**
 * This process's demo-seeded database (issue 29): a server started once on a new database,
 * seeded and stopped. The demo seed writes about 300 models through the model service, each with
 * its change log and sequence (0.1 s of CPU on SQLite, 0.6 s on Postgres with the database's
 * own), and almost every test server starts with it: later ones start on a copy, which their
 * start finds seeded, as a restart does. The copy is the platform database and the demo agents'
 * keys (their hashes are in it); each server still makes its own VAPID keys and values store.
 * Its demo users' password hashes are scrypt's at a sixteenth of the platform's cost
 * (DEMO_HASH_COST; the hash keeps its parameters, so sign-in verifies it as any other): a
 * sign-in was 40 ms of CPU in scrypt, and the tests sign the demo users in thousands of times.
 * New passwords (sign-up, reset, change) and the unknown address's decoy keep the full cost.
 * So the servers of one test process share ids (accounts, users, roles, gateways, the OAuth
 * clients) and the demo agents' secrets, and their seeded rows are older than their start: a
 * test that needs a server whose ids no other has, or a seed at its start, gives it a clock.
 */
const DEMO_HASH_COST = 1024;

/** The demo-seeded database of this process, and its demo agents' keys. */
interface DemoSeeded {
  readonly copy: DatabaseCopy;
  readonly agentKeys: Buffer;
  /** The seed's files beside the database (release artifacts, release keys), by their paths. */
  readonly kept: ReadonlyMap<string, Buffer>;
}

/** The folders of DATA_DIR the demo seed writes into, kept with the seeded copy. */
const SEEDED_FOLDERS = ['files', 'release-keys'];

function filesUnder(root: string, folder: string): Map<string, Buffer> {
  const found = new Map<string, Buffer>();
  const dir = path.join(root, folder);
  if (!fs.existsSync(dir)) return found;
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    found.set(path.relative(root, full), fs.readFileSync(full));
  }
  return found;
}

let demoSeeded: Promise<DemoSeeded> | undefined;

function demoSeededDatabase(): Promise<DemoSeeded> {
  if (demoSeeded === undefined) {
    const made = (async (): Promise<DemoSeeded> => {
      const database = await testDatabase(undefined, { migrated: true });
      try {
        const config = testConfig(database.dataDir, database.databaseUrl, 'demo');
        // No alarm rounds on it: a test with `dispatch: false` gets a database none ran on.
        const server = await startServer({ config, dispatch: false, demoScene: false });
        await server.stop();
        const db = database.open();
        try {
          for (const email of Object.values(DEMO_USERS)) {
            const hash = await hashPasswordAtCost(DEMO_PASSWORD, DEMO_HASH_COST);
            await db
              .updateTable('users')
              .set({ password_hash: hash })
              .where('email', '=', email)
              .execute();
          }
        } finally {
          await db.destroy();
        }
        const { dataDir, databaseUrl } = database;
        // Held in memory, so a test process that vitest ends leaves no folder behind; on
        // Postgres the database stays (the run's throwaway cluster goes with the run).
        const seeded: DemoSeeded = {
          copy: {
            databaseUrl,
            file:
              databaseUrl === undefined
                ? fs.readFileSync(path.join(dataDir, DATABASE_FILE))
                : undefined,
          },
          agentKeys: fs.readFileSync(path.join(dataDir, DEMO_AGENTS_FILE)),
          kept: new Map(SEEDED_FOLDERS.flatMap((f) => [...filesUnder(dataDir, f)])),
        };
        if (databaseUrl === undefined) await database.remove();
        else fs.rmSync(dataDir, { recursive: true, force: true });
        return seeded;
      } catch (err) {
        await database.remove();
        throw err;
      }
    })();
    made.catch(() => {
      if (demoSeeded === made) demoSeeded = undefined;
    });
    demoSeeded = made;
  }
  return demoSeeded;
}

/**
 * Whether a server starts from the demo-seeded copy: a first start with the demo seed at the
 * real time, on a database of the default kind. A test clock seeds at its own time, and a test
 * that names the folder, the database or the seed gets what it names.
 */
function startsSeededCopy(options: TestServerOptions): boolean {
  const env = options.env ?? {};
  return (
    (options.seed ?? 'demo') === 'demo' &&
    options.clock === undefined &&
    options.dataDir === undefined &&
    options.postgresLocale === undefined &&
    options.demoScene !== true &&
    !('SEED' in env || 'DATA_DIR' in env || 'DATABASE_URL' in env)
  );
}

/**
 * Starts the real server (real SQLite file in a temp dir, real HTTP on a free loopback port) and
 * gives the test a small client for it.
 */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  let database: TestDatabase;
  if (startsSeededCopy(options)) {
    const seeded = await demoSeededDatabase();
    database = await testDatabase(undefined, { copyOf: seeded.copy });
    fs.writeFileSync(path.join(database.dataDir, DEMO_AGENTS_FILE), seeded.agentKeys, {
      mode: 0o600,
    });
    for (const [file, bytes] of seeded.kept) {
      const to = path.join(database.dataDir, file);
      fs.mkdirSync(path.dirname(to), { recursive: true, mode: 0o700 });
      fs.writeFileSync(to, bytes, { mode: 0o600 });
    }
  } else {
    database = await testDatabase(options.dataDir, {
      migrated: true,
      ...(options.postgresLocale === undefined ? {} : { locale: options.postgresLocale }),
    });
  }
  const { dataDir, databaseUrl } = database;
  const config = testConfig(dataDir, databaseUrl, options.seed ?? 'demo', options.env);
  const server = await startServer({
    config,
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    ...(options.authLimits === undefined ? {} : { authLimits: options.authLimits }),
    ...(options.brokerRecheckMs === undefined ? {} : { brokerRecheckMs: options.brokerRecheckMs }),
    ...(options.callRecordDelayMs === undefined
      ? {}
      : { callRecordDelayMs: options.callRecordDelayMs }),
    ...(options.ingestRate === undefined ? {} : { ingestRate: options.ingestRate }),
    ...(options.pushAgent === undefined ? {} : { testPush: { agent: options.pushAgent } }),
    ...(options.dispatch === undefined ? {} : { dispatch: options.dispatch }),
    ...(options.sandbox === undefined ? {} : { sandbox: options.sandbox }),
    ...(options.reportPdf === undefined ? {} : { reportPdf: options.reportPdf }),
    ...(options.threedLimits === undefined ? {} : { threedLimits: options.threedLimits }),
    ...(options.sceneRenderer === undefined ? {} : { sceneRenderer: options.sceneRenderer }),
    // The demo's 3D scene only where a test asks (its model is processed after every start).
    demoScene: options.demoScene === true,
  });

  const { call, signIn, clientId } = await apiClient(server.url);

  const demoAccountIds = async () => {
    const rows = await server.db.selectFrom('accounts').select(['id', 'name']).execute();
    const idOf = (name: string) => {
      const row = rows.find((a) => a.name === name);
      if (row === undefined) throw new Error(`no demo account named ${name}`);
      return row.id;
    };
    return {
      root: idOf(DEMO_ACCOUNTS.root),
      north: idOf(DEMO_ACCOUNTS.north),
      south: idOf(DEMO_ACCOUNTS.south),
    };
  };

  const rowCounts = async () => {
    const tables = await server.db.introspection.getTables();
    const counts: Record<string, number> = {};
    for (const t of tables) {
      if (OBSERVED_TABLES.has(t.name)) continue;
      const row = await server.db
        .selectFrom(t.name as 'users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      counts[t.name] = row.n;
    }
    return counts;
  };

  // The schema does not change while a server runs: its tables are read once, without those the
  // server writes of its own accord (OBSERVED_TABLES).
  let tablesOnce: ReturnType<typeof server.db.introspection.getTables> | undefined;
  const tables = () =>
    (tablesOnce ??= server.db.introspection
      .getTables()
      .then((all) => all.filter((t) => !OBSERVED_TABLES.has(t.name))));
  // While nothing was written, the last hashes still hold (the suites that check that refused
  // input wrote nothing call this twice around every request). SQLite: the connection's count of
  // changed rows (triggers' too) since it opened (one connection writes the platform database).
  // Postgres: a sequence of this database that a statement trigger on every hashed table moves
  // (made at the first call; a statement that changed nothing, or was rolled back, moves it too,
  // which costs a new hash, never a stale one). The sequence moves as the statement ends, before
  // its transaction commits: while another session of this database holds a transaction that
  // wrote (`backend_xid`), nothing is remembered. The WAL's insert position served before; every
  // other test server on the cluster moved it, so in a full run every call hashed anew (the
  // bad-input suites took three to four times their time alone). Read before the hashes are
  // made: a write while they are made shows as a move at the next call.
  let lastHashes:
    { readonly changes: number | string; readonly hashes: Record<string, string> } | undefined;
  let changeCounter: Promise<void> | undefined;
  const countChanges = () =>
    (changeCounter ??= (async () => {
      await sql`create sequence if not exists plant_test_changes`.execute(server.db);
      await sql`create or replace function plant_test_changed() returns trigger language plpgsql
        as $$ begin perform nextval('plant_test_changes'); return null; end $$`.execute(server.db);
      for (const t of await tables()) {
        await sql`create trigger plant_test_changed after insert or update or delete or truncate
          on ${sql.table(t.name)} for each statement execute function plant_test_changed()`.execute(
          server.db,
        );
      }
    })());
  /** What has been written so far, or undefined while a write may still be on its way. */
  const changesSoFar = async (): Promise<number | string | undefined> => {
    if (databaseUrl === undefined) {
      return (await sql<{ n: number }>`select total_changes() as n`.execute(server.db)).rows[0]!.n;
    }
    await countChanges();
    const row = (
      await sql<{ n: string; writing: string }>`select
        (select last_value::text || ':' || is_called::text from plant_test_changes) as n,
        (select count(*) from pg_stat_activity where datname = current_database()
          and pid <> pg_backend_pid() and backend_xid is not null)::text as writing`.execute(
        server.db,
      )
    ).rows[0]!;
    return row.writing === '0' ? row.n : undefined;
  };

  /** Every hashed table's content, hashed. */
  const hashTables = async (): Promise<Record<string, string>> => {
    if (databaseUrl !== undefined) {
      // Postgres hashes each table itself, in one round trip: rows as text, in text order.
      const parts = (await tables()).map(
        (t) =>
          sql`select ${t.name} as name, md5(coalesce(string_agg(x::text, E'\n' order by x::text), '')) as hash from ${sql.table(t.name)} as x`,
      );
      const { rows } = await sql<{
        name: string;
        hash: string;
      }>`${sql.join(parts, sql` union all `)}`.execute(server.db);
      return Object.fromEntries(rows.map((r) => [r.name, r.hash]));
    }
    const hashes: Record<string, string> = {};
    for (const t of await tables()) {
      // In the order of every column (not rowid).
      let query = server.db.selectFrom(t.name as 'users').selectAll();
      for (const column of t.columns) query = query.orderBy(sql.ref(column.name));
      const rows = await query.execute();
      hashes[t.name] = createHash('sha256').update(JSON.stringify(rows)).digest('hex');
    }
    return hashes;
  };

  const contentHashes = async () => {
    // The gateways' configurations follow committed changes a moment later: settled first.
    await server.machineData.configs.flush();
    const changes = await changesSoFar();
    if (changes !== undefined && lastHashes?.changes === changes) return { ...lastHashes.hashes };
    const hashes = await hashTables();
    lastHashes = changes === undefined ? undefined : { changes, hashes };
    return { ...hashes };
  };

  const snapshot = async (token: string): Promise<SyncedModel[]> => {
    const models: SyncedModel[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = dataOf<{ models: SyncedModel[]; next_cursor: string | null }>(
        await call('GET', apiPaths.snapshot(cursor, 2000), { token }),
      );
      models.push(...page.models);
      if (page.next_cursor === null) return models;
      cursor = page.next_cursor;
    }
  };

  return {
    ...server,
    dataDir,
    snapshot,
    databaseUrl,
    openDatabase: () => database.open(),
    contentHashes,
    clientId,
    call,
    signIn,
    demoAccountIds,
    rowCounts,
    close: async () => {
      await server.stop();
      if (options.dataDir === undefined) await database.remove();
    },
  };
}

/**
 * Tables `contentHashes` and `rowCounts` leave out: what the server records of requests and days by itself
 * (security insights, issue 38 item 1: a refused sign-in or a token's use is counted, by design
 * also for refused input; the leader's daily snapshot and weekly digest claim come at their own
 * time). Refused input must still change nothing else.
 */
const OBSERVED_TABLES: ReadonlySet<string> = new Set([
  'security_event_counts',
  'security_token_uses',
  'security_insight_snapshots',
  'security_insight_digests',
]);

/** Reads `data` out of an envelope answer. */
export function dataOf<T = Record<string, unknown>>(answer: Answer): T {
  return (answer.json as { data: T }).data;
}
