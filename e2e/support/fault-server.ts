import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { apiPaths, type SyncedModel } from '@plant/shared-schema';
import { DATABASE_FILE } from '../../server/src/db/database';
import { readDemoAgentKeys, type DemoAgentKey } from '../../server/src/seed/demo-agents';
import { apiClient, dataOf } from '../../server/src/testing/harness';
import { freePort } from '../../server/src/testing/local-postgres';
import { startServerProcess, type ServerProcess } from '../../server/src/testing/server-process';
import { TIME_SERIES_FILE } from '../../server/src/timeseries/sqlite-time-series-store';

/**
 * The fault suite's server (issue 38 item 4): the real entry as `npm start` runs it, in a child
 * process, so that it can be killed with SIGKILL in the middle of a write and started again on
 * the same DATA_DIR and port. Each run starts on a fresh DATA_DIR that is a copy of one seeded
 * once per test process (`seededFiles`): the first start seeds the demo and converts its 3D
 * model (about 6.6 s of CPU), a start on the copy takes about 1.8 s.
 */

type Api = Awaited<ReturnType<typeof apiClient>>;

/** The files of a seeded, cleanly stopped DATA_DIR, by their paths under it. */
type SeededFiles = ReadonlyMap<string, Buffer>;

let seeded: Promise<SeededFiles> | undefined;

function filesUnder(root: string): Map<string, Buffer> {
  const found = new Map<string, Buffer>();
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    found.set(path.relative(root, full), fs.readFileSync(full));
  }
  return found;
}

/** Whether the demo's 3D model was processed (its conversion runs once, after the first start). */
function sceneProcessed(dataDir: string): boolean {
  const db = new SQLite(path.join(dataDir, DATABASE_FILE), { readonly: true });
  try {
    const rows = db
      .prepare(`select attributes from models where type = 'threedmodel'`)
      .pluck()
      .all() as string[];
    return rows.every((a) => {
      const { state } = JSON.parse(a) as { state?: string };
      return state !== 'uploaded' && state !== 'processing';
    });
  } finally {
    db.close();
  }
}

/**
 * A DATA_DIR seeded by the real entry and stopped cleanly (SIGTERM: SQLite folds its WAL back),
 * held in memory, so a test process that vitest ends leaves no folder behind.
 */
function seededFiles(): Promise<SeededFiles> {
  seeded ??= (async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plant-fault-seed-'));
    try {
      const p = await startServerProcess({ ...baseEnv(dir), PORT: '0' });
      try {
        await p.listening();
        await until('the demo 3D model processed', 60_000, () => sceneProcessed(dir));
      } finally {
        p.child.kill('SIGTERM');
        await p.exited;
      }
      return filesUnder(dir);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  })();
  seeded.catch(() => (seeded = undefined));
  return seeded;
}

function baseEnv(dataDir: string): Record<string, string> {
  return {
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    SEED: 'demo',
    // Its listening line is what `listening()` waits for.
    LOG_LEVEL: 'info',
    // No built client: the pages come from the test's page server.
    CLIENT_DIR: path.join(dataDir, 'no-client'),
  };
}

/** Waits for `check` (polled every 50 ms, no fixed sleep beyond the poll), up to `ms`. */
export async function until(what: string, ms: number, check: () => boolean): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** What a process wrote on stderr, and its warnings on stdout. */
function problemsOf(p: ServerProcess): string {
  const warnings = p
    .output()
    .split('\n')
    .filter((line) => line.includes('"level":"warn"'));
  return [...warnings, p.errors()].join('\n').trim();
}

/** A row of the change log (`model_updates.msg`), as the checks read it. */
export interface LoggedUpdate {
  readonly seq: number;
  readonly action: string;
  readonly type?: string;
  readonly id?: string;
  readonly attributes?: Record<string, unknown>;
}

export class FaultServer {
  private process: ServerProcess;
  /** How often it was killed and started again. */
  kills = 0;
  private closed = false;
  /** Each process's output, the killed ones' first (for a failure's report). */
  private readonly outputs: string[] = [];

  private constructor(
    readonly dataDir: string,
    readonly port: number,
    first: ServerProcess,
    readonly api: Api,
  ) {
    this.process = first;
  }

  /** A server on a fresh copy of the seeded DATA_DIR, on a free port it keeps for restarts. */
  static async start(): Promise<FaultServer> {
    const files = await seededFiles();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plant-fault-'));
    for (const [name, bytes] of files) {
      const file = path.join(dataDir, name);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, bytes, { mode: 0o600 });
    }
    const port = await freePort();
    const p = await startServerProcess({ ...baseEnv(dataDir), PORT: String(port) });
    await p.listening();
    const url = `http://127.0.0.1:${port}`;
    return new FaultServer(dataDir, port, p, await apiClient(url));
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The demo gateways' keys the seed wrote (their agents' credentials). */
  agentKeys(): DemoAgentKey[] {
    return readDemoAgentKeys(this.dataDir);
  }

  /** SIGKILL: no shutdown, no answer for what was in flight, SQLite's WAL left as it was. */
  async kill(): Promise<void> {
    this.process.child.kill('SIGKILL');
    await this.process.exited;
    this.kills += 1;
    this.outputs.push(problemsOf(this.process));
  }

  /** Starts the entry again on the same DATA_DIR and port; resolves once it listens. */
  async restart(): Promise<void> {
    if (this.closed) throw new Error('the server was closed');
    this.process = await startServerProcess({ ...baseEnv(this.dataDir), PORT: String(this.port) });
    // Closed meanwhile: close() met the process before this one.
    if (this.closed) this.process.child.kill('SIGKILL');
    await this.process.listening();
  }

  /** Whether the process is running (not killed, not exited). */
  get running(): boolean {
    return this.process.child.exitCode === null && this.process.child.signalCode === null;
  }

  /** Its processes' errors and warnings, the killed ones' too (a crash's reason). */
  errors(): string {
    return [...this.outputs, problemsOf(this.process)].join('\n');
  }

  /** A read-only look at the platform database while the server runs (WAL: no lock taken). */
  platform<T>(read: (db: SQLite.Database) => T): T {
    return this.readOnly(DATABASE_FILE, read);
  }

  /** A read-only look at the time-series store. */
  timeSeries<T>(read: (db: SQLite.Database) => T): T {
    return this.readOnly(TIME_SERIES_FILE, read);
  }

  private readOnly<T>(file: string, read: (db: SQLite.Database) => T): T {
    const db = new SQLite(path.join(this.dataDir, file), { readonly: true, fileMustExist: true });
    try {
      db.pragma('busy_timeout = 5000');
      return read(db);
    } finally {
      db.close();
    }
  }

  /** The account's change log, oldest first. */
  log(accountId: string): LoggedUpdate[] {
    return this.platform((db) =>
      (
        db
          .prepare('select seq, msg from model_updates where account_id = ? order by seq')
          .all(accountId) as { seq: number; msg: string }[]
      ).map((r) => ({ ...(JSON.parse(r.msg) as LoggedUpdate), seq: r.seq })),
    );
  }

  /** The account's clock: the seq of its latest update. */
  clock(accountId: string): number {
    return this.platform(
      (db) =>
        (db
          .prepare('select seq from account_clocks where account_id = ?')
          .pluck()
          .get(accountId) as number | undefined) ?? 0,
    );
  }

  /** Which of these mutation ids the server recorded as applied, with their answers' status. */
  applied(accountId: string, mutationIds: readonly string[]): Map<string, number> {
    return this.platform((db) => {
      const read = db.prepare(
        'select status from applied_mutations where account_id = ? and mutation_id = ?',
      );
      const found = new Map<string, number>();
      for (const id of mutationIds) {
        const status = read.pluck().get(accountId, id) as number | undefined;
        if (status !== undefined) found.set(id, status);
      }
      return found;
    });
  }

  /** Every model `token`'s user gets in a snapshot of its active account, page by page. */
  async snapshot(token: string): Promise<SyncedModel[]> {
    const models: SyncedModel[] = [];
    let cursor: string | undefined;
    for (;;) {
      const answer = await this.api.call('GET', apiPaths.snapshot(cursor, 2000), { token });
      if (answer.status !== 200) throw new Error(`snapshot: ${answer.status} ${answer.text}`);
      const page = dataOf<{ models: SyncedModel[]; next_cursor: string | null }>(answer);
      models.push(...page.models);
      if (page.next_cursor === null) return models;
      cursor = page.next_cursor;
    }
  }

  /** Stops the server (SIGTERM, as an operator would) and removes its DATA_DIR unless `keep`. */
  async close(keep = false): Promise<void> {
    this.closed = true;
    if (this.running) {
      this.process.child.kill('SIGTERM');
      // A stop that hangs is not this suite's subject: killed after 20 s.
      const hung = setTimeout(() => this.process.child.kill('SIGKILL'), 20_000);
      await this.process.exited;
      clearTimeout(hung);
    }
    if (!keep) fs.rmSync(this.dataDir, { recursive: true, force: true });
  }
}
