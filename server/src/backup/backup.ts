import fs from 'node:fs/promises';
import path from 'node:path';
import { DATABASE_FILE } from '../db/database';
import { systemClock, type Clock } from '../lib/clock';
import { TIME_SERIES_FILE } from '../timeseries/sqlite-time-series-store';
import {
  BACKUP_FORMAT,
  BACKUP_VERSION,
  BackupError,
  DATA_FOLDER,
  POSTGRES_DUMP_FILE,
  writeManifest,
  type BackupFileEntry,
  type BackupManifest,
} from './backup-manifest';
import { hashFile, PRIVATE_DIR_MODE, TreeCopy } from './data-dir-files';
import { PostgresSnapshot } from './postgres-dump';
import { SqliteSnapshot } from './sqlite-snapshot';
import { formatBytes, isInside, isEmptyOrMissing } from './folders';

/**
 * The steps a backup goes through, in order. `snapshot-start` and `snapshot` bracket the moment
 * the backup holds: what was committed before the first is in it, what began after the second is
 * not. `warning`: something the operator should look at; the backup goes on.
 */
export type BackupStage =
  'files' | 'snapshot-start' | 'snapshot' | 'database' | 'files-since' | 'warning' | 'done';

export interface BackupProgress {
  readonly stage: BackupStage;
  /** A line for the operator. */
  readonly message: string;
  /** How far the stage is (0 to 1), for a stage that reports as it goes. */
  readonly fraction?: number;
}

export interface BackupOptions {
  /** DATA_DIR as the server has it (config.dataDir). */
  readonly dataDir: string;
  /** DATABASE_URL as the server has it (config.databaseUrl); undefined: the SQLite files. */
  readonly databaseUrl: string | undefined;
  /** The folder to write: new, or empty. */
  readonly out: string;
  /**
   * Hears each step and the progress of long ones; awaited, so the backup waits for it (a test
   * holds the backup at a step while the server goes on writing).
   */
  readonly progress?: (event: BackupProgress) => unknown;
  readonly clock?: Clock;
}

/** What a ready file model names: its account's blob in DATA_DIR/files. */
interface FileRef {
  readonly account: string;
  readonly sha256: string;
}

/** The moment's facts a backup reads from the platform's and the values' databases. */
interface MomentFacts {
  readonly platformMigrations: string[];
  readonly timeseriesMigrations: string[];
  readonly models: number;
  readonly files: FileRef[];
}

const FILE_REFS_SQL = "SELECT account_id, attributes FROM models WHERE type = 'file'";

function readyFiles(rows: readonly { account_id: string; attributes: string }[]): FileRef[] {
  const refs: FileRef[] = [];
  for (const row of rows) {
    const attributes = JSON.parse(row.attributes) as { sha256?: unknown; state?: unknown };
    if (attributes.state === 'ready' && typeof attributes.sha256 === 'string')
      refs.push({ account: row.account_id, sha256: attributes.sha256 });
  }
  return refs;
}

/** The platform's and the values' SQLite files, read and copied at one moment. */
class SqliteMoment {
  private constructor(
    private readonly platform: SqliteSnapshot,
    private readonly values: SqliteSnapshot | undefined,
  ) {}

  static open(dataDir: string, valuesExist: boolean): SqliteMoment {
    // Both transactions begin at once (one synchronous step): the two files' moments are as
    // close as the event loop allows, and a value acknowledged before the backup began is in it.
    const platform = SqliteSnapshot.open(path.join(dataDir, DATABASE_FILE));
    try {
      const values = valuesExist
        ? SqliteSnapshot.open(path.join(dataDir, TIME_SERIES_FILE))
        : undefined;
      return new SqliteMoment(platform, values);
    } catch (err) {
      platform.close();
      throw err;
    }
  }

  facts(): MomentFacts {
    const migrations = (db: SqliteSnapshot | undefined) =>
      db?.hasTable('kysely_migration') === true
        ? db
            .all<{ name: string }>('SELECT name FROM kysely_migration ORDER BY name')
            .map((r) => r.name)
        : [];
    return {
      platformMigrations: migrations(this.platform),
      timeseriesMigrations: migrations(this.values),
      models: this.platform.all<{ n: number }>('SELECT count(*) AS n FROM models')[0]?.n ?? 0,
      files: readyFiles(this.platform.all(FILE_REFS_SQL)),
    };
  }

  async copyTo(data: string, progress: (e: BackupProgress) => Promise<void>): Promise<string[]> {
    const copied: string[] = [];
    const each: [string, SqliteSnapshot | undefined, string][] = [
      [DATABASE_FILE, this.platform, 'platform database'],
      [TIME_SERIES_FILE, this.values, 'machine values'],
    ];
    for (const [file, db, what] of each) {
      if (db === undefined) continue;
      await db.copyTo(path.join(data, file), (done, total) =>
        progress({
          stage: 'database',
          message: `${what}: ${done} of ${total} pages`,
          fraction: total === 0 ? 1 : done / total,
        }),
      );
      const to = path.join(data, file);
      await fs.chmod(to, 0o600);
      await progress({
        stage: 'database',
        message: `${what}: copied (${formatBytes((await fs.stat(to)).size)})`,
        fraction: 1,
      });
      copied.push(file);
    }
    return copied;
  }

  close(): void {
    this.values?.close();
    this.platform.close();
  }
}

async function postgresFacts(db: PostgresSnapshot): Promise<MomentFacts> {
  const names = async (table: string) =>
    (await db.hasTable(table))
      ? (await db.all<{ name: string }>(`SELECT name FROM ${table} ORDER BY name`)).map(
          (r) => r.name,
        )
      : [];
  return {
    platformMigrations: await names('kysely_migration'),
    timeseriesMigrations: await names('ts_migration'),
    models: Number((await db.all<{ n: string }>('SELECT count(*) AS n FROM models'))[0]?.n ?? 0),
    files: readyFiles(await db.all(FILE_REFS_SQL)),
  };
}

/**
 * `npm run backup`: a consistent copy of DATA_DIR (and of the Postgres database) while the
 * server runs. In order: DATA_DIR's files (first pass); the databases' moment (SQLite: a read
 * transaction on each file, copied through SQLite's online backup; Postgres: an exported
 * snapshot, dumped by pg_dump); the files stored since (second pass: see TreeCopy for why every
 * file the moment names is then in the copy); the manifest with every file's checksum, last.
 * A failed backup removes what it wrote.
 */
export async function runBackup(options: BackupOptions): Promise<BackupManifest> {
  const clock = options.clock ?? systemClock;
  const tell = async (event: BackupProgress) => {
    await options.progress?.(event);
  };
  const dataDir = path.resolve(options.dataDir);
  const out = path.resolve(options.out);
  const sqlite = options.databaseUrl === undefined;

  const dirInfo = await fs.stat(dataDir).catch(() => undefined);
  if (dirInfo?.isDirectory() !== true)
    throw new BackupError(`DATA_DIR ${dataDir} is not a folder: nothing to back up`);
  if (
    sqlite &&
    (await fs.stat(path.join(dataDir, DATABASE_FILE)).catch(() => undefined)) === undefined
  )
    throw new BackupError(
      `DATA_DIR ${dataDir} holds no ${DATABASE_FILE}: nothing to back up (set DATA_DIR, and DATABASE_URL on Postgres, as for npm start)`,
    );
  if (await isInside(out, dataDir))
    throw new BackupError(
      `the backup folder ${out} is inside DATA_DIR ${dataDir}: choose one outside it`,
    );
  if (!(await isEmptyOrMissing(out)))
    throw new BackupError(`${out} is not empty: give a new folder for the backup`);
  const outExisted = (await fs.stat(out).catch(() => undefined)) !== undefined;
  await fs.mkdir(out, { recursive: true, mode: PRIVATE_DIR_MODE });
  await fs.chmod(out, PRIVATE_DIR_MODE);

  try {
    const data = path.join(out, DATA_FOLDER);
    await fs.mkdir(data, { mode: PRIVATE_DIR_MODE });
    const tree = new TreeCopy(dataDir, data);
    const filesProgress =
      (stage: 'files' | 'files-since') =>
      (bytes: number, total: number, files: number, totalFiles: number) =>
        tell({
          stage,
          message: `${stage === 'files' ? 'files' : 'files stored meanwhile'}: ${files} of ${totalFiles} (${formatBytes(bytes)} of ${formatBytes(total)})`,
          fraction: total === 0 ? 1 : bytes / total,
        });
    await tell({ stage: 'files', message: `copying the files of ${dataDir}` });
    await tree.pass(filesProgress('files'));

    await tell({ stage: 'snapshot-start', message: 'taking the databases’ snapshot' });
    let facts: MomentFacts;
    let takenAt: number;
    const databaseFiles: string[] = [];
    if (sqlite) {
      const valuesExist =
        (await fs.stat(path.join(dataDir, TIME_SERIES_FILE)).catch(() => undefined)) !== undefined;
      const moment = SqliteMoment.open(dataDir, valuesExist);
      try {
        takenAt = clock.now();
        await tell({ stage: 'snapshot', message: 'snapshot taken; copying the databases' });
        facts = moment.facts();
        databaseFiles.push(...(await moment.copyTo(data, tell)).map((f) => `${DATA_FOLDER}/${f}`));
      } finally {
        moment.close();
      }
    } else {
      const url = options.databaseUrl ?? '';
      const moment = await PostgresSnapshot.open(url);
      try {
        takenAt = clock.now();
        await tell({
          stage: 'snapshot',
          message: 'snapshot taken; dumping the database (pg_dump)',
        });
        facts = await postgresFacts(moment);
        await moment.dumpTo(path.join(out, POSTGRES_DUMP_FILE), (bytes) =>
          tell({ stage: 'database', message: `database dump: ${formatBytes(bytes)} so far` }),
        );
        databaseFiles.push(POSTGRES_DUMP_FILE);
      } finally {
        await moment.close();
      }
    }

    await tell({ stage: 'files-since', message: 'copying the files stored meanwhile' });
    await tree.pass(filesProgress('files-since'));

    // Every ready file of the moment has its bytes in the copy (TreeCopy says why); one that
    // does not was already missing or damaged in DATA_DIR: said, and kept as it is.
    let missing = 0;
    for (const ref of facts.files) {
      const rel = `files/blobs/${ref.account}/${ref.sha256.slice(0, 2)}/${ref.sha256}`;
      const copied = tree.copied.get(rel);
      if (copied?.sha256 === ref.sha256) continue;
      missing += 1;
      await tell({
        stage: 'warning',
        message: `${rel} ${copied === undefined ? 'is missing from DATA_DIR' : 'does not hold the bytes its name says (damaged)'}: the file model that names it will not open after a restore either`,
      });
    }

    const entries: BackupFileEntry[] = [...tree.copied].map(([rel, f]) => ({
      path: `${DATA_FOLDER}/${rel}`,
      size: f.size,
      sha256: f.sha256,
      mode: f.mode,
    }));
    for (const rel of databaseFiles) {
      const { size, sha256 } = await hashFile(path.join(out, ...rel.split('/')));
      entries.push({ path: rel, size, sha256, mode: 0o600 });
    }
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      taken_at: new Date(takenAt).toISOString(),
      database: sqlite ? 'sqlite' : 'postgres',
      migrations: { platform: facts.platformMigrations, timeseries: facts.timeseriesMigrations },
      files: entries,
      summary: {
        models: facts.models,
        files: facts.files.length - missing,
        bytes: entries.reduce((sum, e) => sum + e.size, 0),
      },
    };
    await writeManifest(out, manifest);
    await syncFolder(out);
    await tell({
      stage: 'done',
      message: `done: ${manifest.summary.models} models, ${manifest.summary.files} files, ${formatBytes(manifest.summary.bytes)} in ${out}`,
    });
    return manifest;
  } catch (err) {
    // Nothing of a failed backup stays (the folder was new or empty).
    if (outExisted) {
      for (const name of await fs.readdir(out).catch(() => []))
        await fs.rm(path.join(out, name), { recursive: true, force: true });
    } else {
      await fs.rm(out, { recursive: true, force: true });
    }
    throw err;
  }
}

/** The folder's entries (the manifest's rename) on disk too. */
async function syncFolder(dir: string): Promise<void> {
  const handle = await fs.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
