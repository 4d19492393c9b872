import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DATABASE_FILE } from '../db/database';
import { TIME_SERIES_FILE } from '../timeseries/sqlite-time-series-store';

/*
 * DATA_DIR's files, as a backup copies them: everything the server keeps there (the file store's
 * blobs, parts and thumbnails, reports' files, the secrets: vapid.json, integration-key,
 * release-keys/, demo-agents.json; written mails and SMS) except what the backup takes another
 * way or what is not worth keeping. A list of what to leave out rather than of what to take, so
 * that a secret file a later version keeps in DATA_DIR is in every backup without a change here.
 */

/** The SQLite databases: copied as one snapshot through SQLite's online backup, never as files. */
export const SQLITE_DATABASES = [DATABASE_FILE, TIME_SERIES_FILE] as const;

/** Top-level folders of scratch work (3D conversions' temp files). */
const SCRATCH = new Set(['work']);

/** Prefixes of a restore's own folders inside a DATA_DIR that is a mount point (restore.ts). */
export const RESTORE_STAGING_PREFIX = '.restore-';
export const RESTORE_REPLACED_PREFIX = '.replaced-';

/** Whether a DATA_DIR entry stays out of a backup (`top`: directly in DATA_DIR). */
export function leftOut(name: string, top: boolean): boolean {
  // Files written aside before they are renamed into place (blobs' thumbnails, the secrets).
  if (name.endsWith('.tmp')) return true;
  if (!top) return false;
  if (SCRATCH.has(name)) return true;
  if (name.startsWith(RESTORE_STAGING_PREFIX) || name.startsWith(RESTORE_REPLACED_PREFIX))
    return true;
  // The databases with their -wal, -shm and -journal files.
  return SQLITE_DATABASES.some((db) => name === db || name.startsWith(`${db}-`));
}

/** A file found under a folder, by its path relative to it ('/'-separated). */
export interface FoundFile {
  readonly rel: string;
  readonly size: number;
  readonly mtimeMs: number;
  readonly mode: number;
}

/**
 * Every file under `root` that a backup takes, symbolic links followed (DATA_DIR/files may be a
 * link to another disk), each folder once. Entries that vanish while it walks are skipped.
 */
export async function walk(root: string): Promise<FoundFile[]> {
  const found: FoundFile[] = [];
  const seen = new Set<string>();
  const visit = async (dir: string, rel: string): Promise<void> => {
    const real = await fs.realpath(dir).catch(() => undefined);
    if (real === undefined || seen.has(real)) return;
    seen.add(real);
    const names = await fs.readdir(dir).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return [];
      throw err;
    });
    for (const name of names.sort()) {
      if (leftOut(name, rel === '')) continue;
      const full = path.join(dir, name);
      const info = await fs.stat(full).catch(() => undefined);
      if (info === undefined) continue;
      const childRel = rel === '' ? name : `${rel}/${name}`;
      if (info.isDirectory()) await visit(full, childRel);
      else if (info.isFile()) {
        found.push({
          rel: childRel,
          size: info.size,
          mtimeMs: info.mtimeMs,
          mode: info.mode & 0o777,
        });
      }
    }
  };
  await visit(root, '');
  return found;
}

export interface CopiedFile {
  readonly size: number;
  readonly sha256: string;
  readonly mode: number;
  /** The source's modification time when it was copied (a later pass copies it again if moved). */
  readonly mtimeMs: number;
}

/** Folders of a backup or a restore's copy: private, as DATA_DIR's secrets are. */
export const PRIVATE_DIR_MODE = 0o700;

/**
 * Copies one file, hashing what it copies, and flushes it to disk: answers its size and SHA-256,
 * or undefined when the source is gone (a part completed meanwhile, a blob pruned). The copy gets
 * `mode` whatever the umask.
 */
export async function copyHashed(
  from: string,
  to: string,
  mode: number,
): Promise<{ size: number; sha256: string } | undefined> {
  await fs.mkdir(path.dirname(to), { recursive: true, mode: PRIVATE_DIR_MODE });
  const hash = createHash('sha256');
  let size = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      size += chunk.length;
      done(null, chunk);
    },
  });
  try {
    await pipeline(
      createReadStream(from, { highWaterMark: 1 << 20 }),
      tap,
      createWriteStream(to, { mode, flush: true }),
    );
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' && !(await exists(from))) {
      await fs.rm(to, { force: true });
      return undefined;
    }
    throw err;
  }
  await fs.chmod(to, mode);
  return { size, sha256: hash.digest('hex') };
}

/** A file's SHA-256 and size. */
export async function hashFile(file: string): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { size, sha256: hash.digest('hex') };
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}

/**
 * DATA_DIR's files copied into a backup in passes: the first before the databases' snapshot,
 * the second after it, taking only what is new or changed. So every blob that existed before the
 * snapshot is copied before the file pruner could delete it (it deletes blobs no file names,
 * after an hour's grace from when they were stored), and every blob stored after the first pass
 * is younger than that grace: whatever file the snapshot names has its bytes in the copy. Blobs
 * and thumbnails appear whole (renamed into place), so a copy holds each whole or not at all.
 */
export class TreeCopy {
  readonly copied = new Map<string, CopiedFile>();

  constructor(
    private readonly source: string,
    private readonly target: string,
  ) {}

  /**
   * Copies what is new or changed since the last pass; `progress` hears the bytes copied so far
   * of the pass's total after each file. Answers the pass's files and bytes.
   */
  async pass(
    progress: (bytes: number, totalBytes: number, files: number, totalFiles: number) => unknown,
  ): Promise<{ files: number; bytes: number }> {
    const todo = (await walk(this.source)).filter((f) => {
      const before = this.copied.get(f.rel);
      return before === undefined || before.size !== f.size || before.mtimeMs !== f.mtimeMs;
    });
    const totalBytes = todo.reduce((sum, f) => sum + f.size, 0);
    let bytes = 0;
    let files = 0;
    for (const f of todo) {
      const copied = await copyHashed(
        path.join(this.source, ...f.rel.split('/')),
        path.join(this.target, ...f.rel.split('/')),
        f.mode,
      );
      if (copied !== undefined) {
        this.copied.set(f.rel, { ...copied, mode: f.mode, mtimeMs: f.mtimeMs });
        bytes += copied.size;
        files += 1;
      }
      await progress(bytes, totalBytes, files, todo.length);
    }
    return { files, bytes };
  }
}
