import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

/**
 * A throwaway PostgreSQL server for tests and benches (issue 14): Debian's `postgresql` binaries,
 * a new cluster in a temp folder, on a free loopback port, stopped and removed after. Durability
 * is off (fsync, synchronous_commit, full_page_writes): the cluster dies with the run anyway.
 * initdb refuses to run as root, so as root the cluster is made and run by Debian's `postgres`
 * user. The cluster's own collation is C; the server tests' databases are made with ICU's en-US
 * instead (test-database.ts), as a managed service or `createdb` on an en_US machine makes them.
 */
export interface LocalPostgres {
  /** postgres://plant@127.0.0.1:port/postgres: the superuser on the maintenance database. */
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
}

const USER = 'plant';

/** The newest installed PostgreSQL's bin folder, or undefined when none is installed. */
export function postgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return undefined;
  const versions = fs
    .readdirSync(root)
    .filter((v) => /^\d+$/.test(v) && fs.existsSync(path.join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  const newest = versions[0];
  return newest === undefined ? undefined : path.join(root, newest, 'bin');
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** Runs a PostgreSQL program, as `postgres` when we are root. */
function run(bin: string, program: string, args: readonly string[]): void {
  const file = path.join(bin, program);
  const [command, argv] = isRoot()
    ? ['runuser', ['-u', 'postgres', '--', file, ...args]]
    : [file, [...args]];
  const result = spawnSync(command, argv, { encoding: 'utf8', timeout: 120_000 });
  if (result.status !== 0) {
    throw new Error(
      `${program} failed (${result.status ?? result.signal}): ${result.stderr || result.stdout}`,
    );
  }
}

export async function startLocalPostgres(): Promise<LocalPostgres> {
  const bin = postgresBin();
  if (bin === undefined) {
    throw new Error(
      "PostgreSQL is not installed: run `apt-get install -y postgresql` (Debian's package).",
    );
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plant-pg-'));
  if (isRoot()) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    fs.chownSync(dir, uid, gid);
  }
  const data = path.join(dir, 'data');
  run(bin, 'initdb', [
    '-D',
    data,
    '-U',
    USER,
    '--auth=trust',
    '--encoding=UTF8',
    '--locale=C',
    '--no-sync',
  ]);
  // A port taken between the probe and the start fails the start: then another port.
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const options = [
      `-p ${port}`,
      `-k ${dir}`,
      '-c listen_addresses=127.0.0.1',
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
      '-c max_connections=400',
      '-c shared_buffers=128MB',
    ].join(' ');
    try {
      run(bin, 'pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', 'start']);
    } catch (error) {
      if (attempt < 3) continue;
      const log = fs.existsSync(path.join(dir, 'log'))
        ? fs.readFileSync(path.join(dir, 'log'), 'utf8')
        : '';
      throw new Error(`PostgreSQL did not start:\n${log}`, { cause: error });
    }
    let stopped = false;
    return {
      url: `postgres://${USER}@127.0.0.1:${port}/postgres`,
      port,
      stop: () => {
        if (stopped) return Promise.resolve();
        stopped = true;
        run(bin, 'pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
        fs.rmSync(dir, { recursive: true, force: true });
        return Promise.resolve();
      },
    };
  }
}

/** The URL of another database on the same server as `url`. */
export function databaseUrl(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

let created = 0;

/** A database's default collation: ICU's of a locale (en-US), or the C library's (C). */
export type TestLocale = { readonly icu: string } | { readonly libc: string };

/**
 * A new empty database on the server at `adminUrl` (a test's own, like a test's own SQLite file),
 * as `createdb <name>` makes it: the server's default collation, or `locale` when given; or a
 * copy of the database `template` (its collation and its tables: the migrated template of
 * `migratedTemplate`). `drop()` removes it, closing what is still connected.
 */
export async function createTestDatabase(
  adminUrl: string,
  locale?: TestLocale,
  template?: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `t_${process.pid}_${Date.now().toString(36)}_${created++}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(
      template !== undefined
        ? `create database ${name} template ${pg.escapeIdentifier(template)}`
        : locale === undefined
          ? `create database ${name}`
          : 'icu' in locale
            ? `create database ${name} template template0 encoding 'UTF8' locale 'C.UTF-8' ` +
              `locale_provider icu icu_locale ${pg.escapeLiteral(locale.icu)}`
            : `create database ${name} template template0 encoding 'UTF8' ` +
              `locale_provider libc locale ${pg.escapeLiteral(locale.libc)}`,
    );
  } finally {
    await admin.end();
  }
  return {
    url: databaseUrl(adminUrl, name),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}
