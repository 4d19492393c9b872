import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import pg from 'pg';
import { BackupError } from './backup-manifest';

/*
 * The platform's tables on Postgres (DATABASE_URL; the time-series store's `ts_` tables are in
 * the same database): dumped with pg_dump and put back with pg_restore and psql, PostgreSQL's own
 * client programs (Debian: `apt-get install postgresql-client`). They are found on PATH.
 */

/**
 * The URL for a program's command line, its password moved to PGPASSWORD: a command line is
 * visible to every user of the machine (ps).
 */
function connection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  u.password = '';
  return {
    dbname: u.toString(),
    env: { ...process.env, ...(password === '' ? {} : { PGPASSWORD: password }) },
  };
}

/** The database's name and host, for messages (never the password). */
export function describeDatabase(url: string): string {
  const u = new URL(url);
  return `${u.pathname.slice(1)} on ${u.host}`;
}

interface Run {
  readonly code: number | null;
  readonly stderr: string;
}

/** Runs a PostgreSQL program; a missing program is a BackupError that says how to get it. */
function run(
  program: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  stdout: 'ignore' | 'pipe' = 'ignore',
): { child: ReturnType<typeof spawn>; done: Promise<Run> } {
  const child = spawn(program, args, { env, stdio: ['pipe', stdout, 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    // The end is what says why it failed; keep the last 8 KB.
    stderr = (stderr + d.toString()).slice(-8192);
  });
  const done = new Promise<Run>((resolve, reject) => {
    child.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        err.code === 'ENOENT'
          ? new BackupError(
              `${program} was not found: install PostgreSQL's client programs ` +
                '(Debian: apt-get install postgresql-client), the same major version as the server or newer',
            )
          : err,
      ),
    );
    child.once('close', (code) => resolve({ code, stderr }));
  });
  return { child, done };
}

function failed(program: string, result: Run): BackupError {
  return new BackupError(
    `${program} failed (exit ${result.code ?? 'signal'}): ${result.stderr.trim() || 'no message'}`,
  );
}

/**
 * One moment of the Postgres database: a repeatable-read transaction whose snapshot is exported,
 * so that what the backup reads here (the file models, the migrations) and what pg_dump dumps
 * (`--snapshot`) are the same state. The transaction stays open until `close`.
 */
export class PostgresSnapshot {
  private constructor(
    private readonly client: pg.Client,
    private readonly url: string,
    private readonly id: string,
  ) {}

  static async open(url: string): Promise<PostgresSnapshot> {
    const client = new pg.Client({ connectionString: url });
    // A broken link shows as the failing query; unheard, the event would end the process.
    client.on('error', () => undefined);
    try {
      await client.connect();
    } catch (err) {
      throw new BackupError(
        `the database ${describeDatabase(url)} cannot be reached: ${String(err)}`,
        { cause: err },
      );
    }
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY');
      const { rows } = await client.query<{ id: string }>('SELECT pg_export_snapshot() AS id');
      const id = rows[0]?.id;
      if (id === undefined) throw new Error('no snapshot');
      return new PostgresSnapshot(client, url, id);
    } catch (err) {
      await client.end().catch(() => undefined);
      throw err;
    }
  }

  async all<T extends pg.QueryResultRow>(query: string, params: unknown[] = []): Promise<T[]> {
    return (await this.client.query<T>(query, params)).rows;
  }

  async hasTable(name: string): Promise<boolean> {
    const rows = await this.all(
      "SELECT 1 FROM pg_tables WHERE schemaname = 'public' AND tablename = $1",
      [name],
    );
    return rows.length > 0;
  }

  /**
   * pg_dump of the moment into `file` (custom format: compressed, read by pg_restore); tells
   * `progress` the dump's size about every second while it runs.
   */
  async dumpTo(file: string, progress: (bytes: number) => unknown): Promise<void> {
    const { dbname, env } = connection(this.url);
    const { done } = run(
      'pg_dump',
      [
        // Fail rather than ask for a password on the terminal.
        '--no-password',
        '--format=custom',
        '--no-owner',
        '--no-privileges',
        `--snapshot=${this.id}`,
        `--file=${file}`,
        `--dbname=${dbname}`,
      ],
      env,
    );
    const tick = setInterval(() => {
      void fs.stat(file).then(
        (s) => progress(s.size),
        () => undefined,
      );
    }, 1000);
    try {
      const result = await done;
      if (result.code !== 0) throw failed('pg_dump', result);
    } finally {
      clearInterval(tick);
    }
    await fs.chmod(file, 0o600);
    // On disk before the manifest says the backup is whole.
    const handle = await fs.open(file, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  async close(): Promise<void> {
    await this.client.query('COMMIT').catch(() => undefined);
    await this.client.end().catch(() => undefined);
  }
}

/** How many tables, views and sequences the database has outside PostgreSQL's own schemas. */
export async function relationCount(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (err) {
    throw new BackupError(
      `the database ${describeDatabase(url)} cannot be reached: ${String(err)}`,
      { cause: err },
    );
  }
  try {
    const { rows } = await client.query<{ n: string | number }>(
      `SELECT count(*) AS n FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')
          AND n.nspname NOT LIKE 'pg_toast%' AND n.nspname NOT LIKE 'pg_temp%'
          AND c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')`,
    );
    return Number(rows[0]?.n ?? 0);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Puts a dump back into the database at `url` in ONE transaction (psql --single-transaction):
 * with `replace`, the public schema's old contents are dropped first; `after` is SQL run at the
 * end of the same transaction. So the database holds either the whole backup or what it held
 * before, never half of it. pg_restore writes the dump as SQL, which psql runs.
 */
export async function restoreDump(
  file: string,
  url: string,
  options: { readonly replace: boolean; readonly after: string },
): Promise<void> {
  const { dbname, env } = connection(url);
  // A dump of a database whose public schema was changed creates it itself.
  const list = run('pg_restore', ['--list', file], env, 'pipe');
  let toc = '';
  list.child.stdout?.on('data', (d: Buffer) => (toc += d.toString()));
  const listed = await list.done;
  if (listed.code !== 0) throw failed('pg_restore', listed);
  const createsPublic = /\bSCHEMA - public\b/.test(toc);
  const before = [
    'SET client_min_messages = warning;',
    ...(options.replace ? ['DROP SCHEMA IF EXISTS public CASCADE;'] : []),
    ...(options.replace && !createsPublic ? ['CREATE SCHEMA public;'] : []),
  ].join('\n');

  const psql = run(
    'psql',
    [
      '--no-psqlrc',
      '--no-password',
      '--quiet',
      '--single-transaction',
      '--set=ON_ERROR_STOP=1',
      `--dbname=${dbname}`,
    ],
    env,
  );
  const sql = run('pg_restore', ['--no-owner', '--no-privileges', '--file=-', file], env, 'pipe');
  const input = psql.child.stdin;
  const output = sql.child.stdout;
  if (input === null || output === null) throw new Error('pipes not made');
  // psql may stop reading (an error): what is still written then is not its problem.
  input.on('error', () => undefined);
  input.write(`${before}\n`);
  output.pipe(input, { end: false });
  // psql commits when its input ends: only once pg_restore has written the whole dump. If
  // pg_restore fails, psql is ended without that, and the server rolls the transaction back.
  const restored = await sql.done.catch((err: unknown) => {
    psql.child.kill('SIGKILL');
    throw err;
  });
  // The dump's script empties search_path; the platform's tables are in public.
  if (restored.code === 0) input.end(`\nSET search_path = public;\n${options.after}\n`);
  else psql.child.kill('SIGKILL');
  const ran = await psql.done;
  // psql's own failure (an exit code, not our kill) is the cause: pg_restore then only lost
  // its reader.
  if (ran.code !== 0 && ran.code !== null) throw failed('psql', ran);
  if (restored.code !== 0) throw failed('pg_restore', restored);
  if (ran.code !== 0) throw failed('psql', ran);
}
