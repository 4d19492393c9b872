import { createHash, type Hash } from 'node:crypto';
import { createReadStream, createWriteStream, type ReadStream } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat, truncate, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable, Transform } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';

/** A chunk's bytes ran past what the caller allowed: the chunk is not kept. */
export class ChunkTooLarge extends Error {
  constructor() {
    super('The chunk is larger than allowed.');
    this.name = 'ChunkTooLarge';
  }
}

/**
 * THE file store (DESIGN.md §9): an account's blobs by their SHA-256, and the parts of uploads
 * under way by file id. Ids and checksums reach it checked by the shared schemas (ids of
 * [A-Za-z0-9_-], checksums of 64 hex digits), so they are safe as path segments. An S3-compatible
 * store for scale would implement the same interface.
 */
export interface BlobStore {
  /** How many bytes of an upload are stored so far (0 when none). */
  partSize(accountId: string, fileId: string): Promise<number>;
  /**
   * Appends a chunk to an upload at its current end; stops and keeps nothing of it past
   * `maxBytes` (ChunkTooLarge). Answers the part's new size.
   */
  append(
    accountId: string,
    fileId: string,
    chunk: ReadableStream<Uint8Array>,
    maxBytes: number,
  ): Promise<number>;
  /**
   * The upload is whole: kept as the blob of `sha256` if its bytes hash to it (true), thrown
   * away otherwise (false). Either way the part is gone after.
   */
  complete(accountId: string, fileId: string, sha256: string): Promise<boolean>;
  /** Throws an upload's part away. */
  discard(accountId: string, fileId: string): Promise<void>;
  /** The blob's size, or undefined when the account has no blob of that checksum. */
  size(accountId: string, sha256: string): Promise<number | undefined>;
  open(accountId: string, sha256: string): ReadStream;
  /** The blob's file on disk (to make a thumbnail from). */
  path(accountId: string, sha256: string): string;
  writeThumbnail(accountId: string, sha256: string, bytes: Uint8Array): Promise<void>;
  thumbnailSize(accountId: string, sha256: string): Promise<number | undefined>;
  openThumbnail(accountId: string, sha256: string): ReadStream;
  /** The accounts that hold blobs or parts (for the pruner). */
  accounts(): Promise<string[]>;
  /** An account's blobs, and when each was stored (ms). */
  blobs(accountId: string): Promise<{ sha256: string; storedAt: number }[]>;
  /** An account's parts of uploads, and when each last grew (ms). */
  parts(accountId: string): Promise<{ fileId: string; changedAt: number }[]>;
  /** Deletes a blob and its thumbnail. */
  remove(accountId: string, sha256: string): Promise<void>;
  /** When a blob was stored or last taken again (ms), or undefined when there is none. */
  storedAt(accountId: string, sha256: string): Promise<number | undefined>;
  /** Marks a blob as just used (the pruner's grace counts from then). */
  touch(accountId: string, sha256: string): Promise<void>;
}

/**
 * Keeps bytes the server made (a report's PDF, a 3D model's level) as the account's blob of their
 * SHA-256 (the same bytes once); answers the checksum.
 */
export async function keepBytes(
  blobs: BlobStore,
  accountId: string,
  bytes: Uint8Array,
): Promise<string> {
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  if ((await blobs.size(accountId, sha256)) !== undefined) {
    await blobs.touch(accountId, sha256);
    return sha256;
  }
  const partId = randomUUID();
  const body = Readable.toWeb(
    Readable.from([Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)]),
  ) as unknown as ReadableStream<Uint8Array>;
  await blobs.append(accountId, partId, body, bytes.byteLength + 1);
  if (!(await blobs.complete(accountId, partId, sha256))) throw new Error('bytes stored wrongly');
  return sha256;
}

/** A folder's entries, none when it does not exist. */
async function entries(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

/** At most this many uploads' running hashes are held; past it the oldest is read again. */
const RUNNING_HASHES = 1000;

/** The blobs in a folder (DATA_DIR/files): blobs/<account>/<ab>/<sha256>, parts/<account>/<id>. */
export class DiskBlobStore implements BlobStore {
  /**
   * The SHA-256 of each part so far, fed as its chunks are appended here in order, so the last
   * chunk does not read the whole file again. A part whose hash is not here (this process
   * started after its first chunk, or a chunk broke) is hashed from disk when it completes.
   */
  private readonly running = new Map<string, { size: number; hash: Hash }>();

  constructor(private readonly dir: string) {}

  private partPath(accountId: string, fileId: string): string {
    return join(this.dir, 'parts', accountId, fileId);
  }

  path(accountId: string, sha256: string): string {
    return join(this.dir, 'blobs', accountId, sha256.slice(0, 2), sha256);
  }

  private thumbnailPath(accountId: string, sha256: string): string {
    return join(this.dir, 'thumbnails', accountId, sha256.slice(0, 2), `${sha256}.webp`);
  }

  async partSize(accountId: string, fileId: string): Promise<number> {
    return (await sizeOf(this.partPath(accountId, fileId))) ?? 0;
  }

  async append(
    accountId: string,
    fileId: string,
    chunk: ReadableStream<Uint8Array>,
    maxBytes: number,
  ): Promise<number> {
    const path = this.partPath(accountId, fileId);
    await mkdir(dirname(path), { recursive: true });
    const before = (await sizeOf(path)) ?? 0;
    const key = `${accountId}/${fileId}`;
    const known = this.running.get(key);
    this.running.delete(key);
    const hash =
      before === 0 ? createHash('sha256') : known?.size === before ? known.hash : undefined;
    let seen = 0;
    const bounded = new Transform({
      transform(data: Buffer, _encoding, done) {
        seen += data.length;
        if (seen > maxBytes) {
          done(new ChunkTooLarge());
          return;
        }
        hash?.update(data);
        done(null, data);
      },
    });
    try {
      await pipeline(
        // Node's web stream type; the sync worker's tests compile this file with the DOM's.
        // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
        Readable.fromWeb(chunk as NodeReadableStream<Uint8Array>),
        bounded,
        createWriteStream(path, { flags: 'a' }),
      );
    } catch (err) {
      // Nothing of a broken chunk stays: the next try starts at the part's old end.
      await truncateTo(path, before);
      throw err;
    }
    if (hash !== undefined) {
      this.running.set(key, { size: before + seen, hash });
      if (this.running.size > RUNNING_HASHES) {
        const oldest = this.running.keys().next().value;
        if (oldest !== undefined) this.running.delete(oldest);
      }
    }
    return before + seen;
  }

  async complete(accountId: string, fileId: string, sha256: string): Promise<boolean> {
    const part = this.partPath(accountId, fileId);
    const key = `${accountId}/${fileId}`;
    const known = this.running.get(key);
    this.running.delete(key);
    let digest: string;
    if (known !== undefined && known.size === (await sizeOf(part))) {
      digest = known.hash.digest('hex');
    } else {
      const hash = createHash('sha256');
      await pipeline(createReadStream(part), hash);
      digest = hash.digest('hex');
    }
    if (digest !== sha256) {
      await rm(part, { force: true });
      return false;
    }
    const blob = this.path(accountId, sha256);
    await mkdir(dirname(blob), { recursive: true });
    await rename(part, blob);
    return true;
  }

  async discard(accountId: string, fileId: string): Promise<void> {
    this.running.delete(`${accountId}/${fileId}`);
    await rm(this.partPath(accountId, fileId), { force: true });
  }

  size(accountId: string, sha256: string): Promise<number | undefined> {
    return sizeOf(this.path(accountId, sha256));
  }

  open(accountId: string, sha256: string): ReadStream {
    return createReadStream(this.path(accountId, sha256));
  }

  async writeThumbnail(accountId: string, sha256: string, bytes: Uint8Array): Promise<void> {
    const path = this.thumbnailPath(accountId, sha256);
    await mkdir(dirname(path), { recursive: true });
    // Written beside and renamed: a reader never sees half a thumbnail (and two writers of the
    // same image never share the file being written).
    const temporary = `${path}.${randomUUID()}.tmp`;
    await writeFile(temporary, bytes);
    await rename(temporary, path);
  }

  thumbnailSize(accountId: string, sha256: string): Promise<number | undefined> {
    return sizeOf(this.thumbnailPath(accountId, sha256));
  }

  openThumbnail(accountId: string, sha256: string): ReadStream {
    return createReadStream(this.thumbnailPath(accountId, sha256));
  }

  async accounts(): Promise<string[]> {
    const all = new Set([
      ...(await entries(join(this.dir, 'blobs'))),
      ...(await entries(join(this.dir, 'parts'))),
    ]);
    return [...all].sort();
  }

  async blobs(accountId: string): Promise<{ sha256: string; storedAt: number }[]> {
    const found: { sha256: string; storedAt: number }[] = [];
    const root = join(this.dir, 'blobs', accountId);
    for (const prefix of await entries(root)) {
      for (const sha256 of await entries(join(root, prefix))) {
        const info = await stat(join(root, prefix, sha256)).catch(() => undefined);
        if (info !== undefined) found.push({ sha256, storedAt: info.mtimeMs });
      }
    }
    return found;
  }

  async parts(accountId: string): Promise<{ fileId: string; changedAt: number }[]> {
    const root = join(this.dir, 'parts', accountId);
    const found: { fileId: string; changedAt: number }[] = [];
    for (const fileId of await entries(root)) {
      const info = await stat(join(root, fileId)).catch(() => undefined);
      if (info !== undefined) found.push({ fileId, changedAt: info.mtimeMs });
    }
    return found;
  }

  async storedAt(accountId: string, sha256: string): Promise<number | undefined> {
    const info = await stat(this.path(accountId, sha256)).catch(() => undefined);
    return info?.mtimeMs;
  }

  async touch(accountId: string, sha256: string): Promise<void> {
    const now = new Date();
    await utimes(this.path(accountId, sha256), now, now);
  }

  async remove(accountId: string, sha256: string): Promise<void> {
    await rm(this.path(accountId, sha256), { force: true });
    await rm(this.thumbnailPath(accountId, sha256), { force: true });
  }
}

async function sizeOf(path: string): Promise<number | undefined> {
  try {
    return (await stat(path)).size;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

async function truncateTo(path: string, size: number): Promise<void> {
  try {
    await truncate(path, size);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}
