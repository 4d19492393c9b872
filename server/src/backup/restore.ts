import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { migrations } from '@plant/migrations';
import { timeSeriesMigrations } from '../../../migrations/src/timeseries';
import { postgresTimeSeriesMigrations } from '../../../migrations/src/timeseries-postgres';
import { DATABASE_FILE } from '../db/database';
import { systemClock, type Clock } from '../lib/clock';
import { TIME_SERIES_FILE } from '../timeseries/sqlite-time-series-store';
import {
  BackupError,
  DATA_FOLDER,
  POSTGRES_DUMP_FILE,
  readManifest,
  type BackupManifest,
} from './backup-manifest';
import {
  copyHashed,
  hashFile,
  PRIVATE_DIR_MODE,
  RESTORE_REPLACED_PREFIX,
  RESTORE_STAGING_PREFIX,
} from './data-dir-files';
import { formatBytes, isEmptyOrMissing, isInside } from './folders';
import { describeDatabase, relationCount, restoreDump } from './postgres-dump';
import { syncRestartSql } from './sync-restart';

/** The steps of a restore, in order (`warning`: the operator should know; it goes on). */
export type RestoreStage = 'check' | 'verify' | 'database' | 'swap' | 'warning' | 'done';

export interface RestoreProgress {
  readonly stage: RestoreStage;
  readonly message: string;
  readonly fraction?: number;
}

export interface RestoreOptions {
  /** DATA_DIR as the server has it: missing or empty, unless `force`. */
  readonly dataDir: string;
  /** DATABASE_URL as the server has it: an empty database, unless `force`. */
  readonly databaseUrl: string | undefined;
  /** The backup's folder (`npm run backup -- --out`). */
  readonly from: string;
  /**
   * Replace what DATA_DIR holds (moved aside, beside it) and what the database holds (dropped,
   * in the restore's transaction).
   */
  readonly force?: boolean;
  /** The server's own address for this configuration: a restore refuses while it answers. */
  readonly serverUrl?: string;
  readonly progress?: (event: RestoreProgress) => unknown;
  readonly clock?: Clock;
}

export interface RestoreResult {
  readonly manifest: BackupManifest;
  /** Where what DATA_DIR held before went (with `force`), if it held anything. */
  readonly replaced: string | undefined;
}

/** Migrations the backup ran that this version does not know: it was made by a newer one. */
function unknownMigrations(manifest: BackupManifest): string[] {
  const timeseries =
    manifest.database === 'sqlite' ? timeSeriesMigrations : postgresTimeSeriesMigrations;
  return [
    ...manifest.migrations.platform.filter((name) => !(name in migrations)),
    ...manifest.migrations.timeseries.filter((name) => !(name in timeseries)),
  ];
}

/** Whether a server of the platform answers at `url` (its /staticconf). */
async function serverAnswers(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url.replace(/\/+$/, '')}/staticconf`, {
      signal: AbortSignal.timeout(2000),
    });
    const body = (await res.json().catch(() => undefined)) as { client_id?: unknown } | undefined;
    return res.ok && typeof body?.client_id === 'string';
  } catch {
    return false;
  }
}

/** Whether `dir` is a mount point (a container's volume): it cannot be renamed. */
async function isMountPoint(dir: string): Promise<boolean> {
  const [own, parent] = await Promise.all([
    fs.stat(dir).catch(() => undefined),
    fs.stat(path.dirname(dir)).catch(() => undefined),
  ]);
  return own !== undefined && parent !== undefined && own.dev !== parent.dev;
}

/** Runs SQLite's quick check on a restored file; a BackupError if it is not sound. */
function checkSqlite(file: string): SQLite.Database {
  const db = new SQLite(file, { fileMustExist: true });
  const result = db.pragma('quick_check', { simple: true });
  if (result !== 'ok') {
    db.close();
    throw new BackupError(`${path.basename(file)} in the backup is not sound: ${String(result)}`);
  }
  return db;
}

/**
 * `npm run restore`: puts a backup back. Nothing of DATA_DIR or the database is touched until the
 * whole backup is read and every checksum holds: its DATA_DIR is copied (and checked on the way)
 * into a folder beside DATA_DIR (inside it when DATA_DIR is a mount point), the databases are
 * checked, the platform's change log is restarted (sync-restart.ts: browsers that synced after
 * the backup reload), then the copy is renamed into place. On Postgres the dump goes in with that
 * restart in one transaction, before the rename.
 */
export async function runRestore(options: RestoreOptions): Promise<RestoreResult> {
  const clock = options.clock ?? systemClock;
  const tell = async (event: RestoreProgress) => {
    await options.progress?.(event);
  };
  const from = path.resolve(options.from);
  const dataDir = path.resolve(options.dataDir);
  const force = options.force === true;

  const manifest = await readManifest(from);
  await tell({
    stage: 'check',
    message: `backup of ${manifest.taken_at}: ${manifest.summary.models} models, ${manifest.summary.files} files, ${formatBytes(manifest.summary.bytes)}`,
  });
  if (manifest.database === 'sqlite' && options.databaseUrl !== undefined)
    throw new BackupError(
      'the backup holds SQLite databases but DATABASE_URL is set: unset it to restore into DATA_DIR',
    );
  if (manifest.database === 'postgres' && options.databaseUrl === undefined)
    throw new BackupError(
      'the backup holds a Postgres dump: set DATABASE_URL to the database to restore it into',
    );
  const unknown = unknownMigrations(manifest);
  if (unknown.length > 0)
    throw new BackupError(
      `the backup was made by a newer version of the platform (migrations unknown here: ${unknown.join(', ')}): restore it with that version or a newer one`,
    );
  if (await isInside(from, dataDir))
    throw new BackupError(`the backup ${from} is inside DATA_DIR ${dataDir}: move it out first`);
  if (options.serverUrl !== undefined && (await serverAnswers(options.serverUrl)))
    throw new BackupError(
      `a server answers at ${options.serverUrl}: stop it before restoring, and start it after`,
    );
  const dataDirEmpty = await isEmptyOrMissing(dataDir);
  if (!dataDirEmpty && !force)
    throw new BackupError(
      `DATA_DIR ${dataDir} is not empty: restore into a new DATA_DIR, or add --force to replace it (what it holds is moved aside)`,
    );
  const databaseUrl = options.databaseUrl;
  const databaseEmpty = databaseUrl === undefined || (await relationCount(databaseUrl)) === 0;
  if (databaseUrl !== undefined && !databaseEmpty && !force)
    throw new BackupError(
      `the database ${describeDatabase(databaseUrl)} is not empty: restore into an empty database, or add --force to drop what its public schema holds`,
    );

  const inside = await isMountPoint(dataDir);
  const suffix = randomBytes(4).toString('hex');
  const staging = inside
    ? path.join(dataDir, `${RESTORE_STAGING_PREFIX}${suffix}`)
    : `${dataDir}${RESTORE_STAGING_PREFIX}${suffix}`;
  await fs.mkdir(path.dirname(staging), { recursive: true });
  await fs.mkdir(staging, { mode: PRIVATE_DIR_MODE });
  let replaced: string | undefined;
  try {
    await verifyInto(from, manifest, staging, tell);

    const now = clock.now();
    if (manifest.database === 'sqlite') {
      const platform = checkSqlite(path.join(staging, DATABASE_FILE));
      try {
        platform.exec(`BEGIN;\n${syncRestartSql(now)}\nCOMMIT;`);
      } finally {
        platform.close();
      }
      const values = path.join(staging, TIME_SERIES_FILE);
      if ((await fs.stat(values).catch(() => undefined)) !== undefined) checkSqlite(values).close();
    } else if (databaseUrl !== undefined) {
      await tell({
        stage: 'database',
        message: `restoring the database ${describeDatabase(databaseUrl)} (pg_restore, psql)`,
      });
      await restoreDump(path.join(from, POSTGRES_DUMP_FILE), databaseUrl, {
        replace: !databaseEmpty,
        after: syncRestartSql(now),
      });
    }

    await tell({ stage: 'swap', message: `putting the files in place in ${dataDir}` });
    const stamp = new Date(now).toISOString().replace(/[:.]/g, '-');
    if (inside) {
      replaced = await swapInside(dataDir, staging, `${RESTORE_REPLACED_PREFIX}${stamp}`);
    } else {
      if (!dataDirEmpty) {
        replaced = `${dataDir}${RESTORE_REPLACED_PREFIX}${stamp}`;
        await fs.rename(dataDir, replaced);
      } else {
        await fs.rmdir(dataDir).catch((err: NodeJS.ErrnoException) => {
          if (err.code !== 'ENOENT') throw err;
        });
      }
      await fs.rename(staging, dataDir);
    }
  } catch (err) {
    await fs.rm(staging, { recursive: true, force: true });
    throw err;
  }
  await tell({
    stage: 'done',
    message:
      `done: ${dataDir} holds the backup of ${manifest.taken_at}` +
      (replaced === undefined ? '' : `; what it held before is in ${replaced}`) +
      '. Start the server; browsers reload their data when they reconnect.',
  });
  return { manifest, replaced };
}

/**
 * Copies the backup's DATA_DIR into `staging`, checking every file against the manifest on the
 * way (and the Postgres dump where it is): a file missing or differing is a BackupError before
 * anything else is touched.
 */
async function verifyInto(
  from: string,
  manifest: BackupManifest,
  staging: string,
  tell: (event: RestoreProgress) => Promise<void>,
): Promise<void> {
  const prefix = `${DATA_FOLDER}/`;
  if (
    manifest.database === 'sqlite' &&
    !manifest.files.some((f) => f.path === `${prefix}${DATABASE_FILE}`)
  )
    throw new BackupError(`the backup lists no ${DATABASE_FILE}: it is damaged`);
  if (
    manifest.database === 'postgres' &&
    !manifest.files.some((f) => f.path === POSTGRES_DUMP_FILE)
  )
    throw new BackupError(`the backup lists no ${POSTGRES_DUMP_FILE}: it is damaged`);
  const total = manifest.files.reduce((sum, f) => sum + f.size, 0);
  let done = 0;
  for (const [i, entry] of manifest.files.entries()) {
    const source = path.join(from, ...entry.path.split('/'));
    const info = await fs.stat(source).catch(() => undefined);
    const readable =
      info?.isFile() === true &&
      (await fs.access(source, fs.constants.R_OK).then(
        () => true,
        () => false,
      ));
    if (!readable)
      throw new BackupError(`the backup is damaged: ${entry.path} is missing or unreadable`);
    let got: { size: number; sha256: string } | undefined;
    if (entry.path.startsWith(prefix)) {
      // A failure to write the copy (a full disk) is thrown as it is: not the backup's fault.
      const target = path.join(staging, ...entry.path.slice(prefix.length).split('/'));
      got = await copyHashed(source, target, entry.mode);
    } else if (entry.path === POSTGRES_DUMP_FILE) {
      got = await hashFile(source);
    } else {
      throw new BackupError(`the backup lists ${entry.path}, which no backup holds: it is damaged`);
    }
    if (got === undefined)
      throw new BackupError(`the backup is damaged: ${entry.path} is missing or unreadable`);
    if (got.size !== entry.size || got.sha256 !== entry.sha256)
      throw new BackupError(`the backup is damaged: ${entry.path} differs from its checksum`);
    done += entry.size;
    await tell({
      stage: 'verify',
      message: `checked ${i + 1} of ${manifest.files.length} files (${formatBytes(done)} of ${formatBytes(total)})`,
      fraction: total === 0 ? 1 : done / total,
    });
  }
}

/**
 * The swap for a DATA_DIR that is a mount point: what it held moves into a folder of its own
 * inside it (`replacedName`), then the staged entries move up. Answers that folder, if used.
 */
async function swapInside(
  dataDir: string,
  staging: string,
  replacedName: string,
): Promise<string | undefined> {
  const old = (await fs.readdir(dataDir)).filter((n) => n !== path.basename(staging));
  let replaced: string | undefined;
  if (old.length > 0) {
    replaced = path.join(dataDir, replacedName);
    await fs.mkdir(replaced, { mode: PRIVATE_DIR_MODE });
    for (const name of old) await fs.rename(path.join(dataDir, name), path.join(replaced, name));
  }
  for (const name of await fs.readdir(staging))
    await fs.rename(path.join(staging, name), path.join(dataDir, name));
  await fs.rmdir(staging);
  return replaced;
}
