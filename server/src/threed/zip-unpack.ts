import { closeSync, mkdirSync, openSync, readSync, writeSync } from 'node:fs';
import path from 'node:path';
import { Unzip, UnzipInflate, UnzipPassThrough } from 'fflate';
import { isSafeModelPath, THREED_LIMITS, THREED_TEXTS } from '@plant/shared-schema';

/** A model's processing refused, with the reason its tile shows (one of THREED_TEXTS). */
export class ModelRefused extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** An error's own words for the log: its name, message and first lines of its stack. */
export function causeOf(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  return (err.stack ?? `${err.name}: ${err.message}`).split('\n').slice(0, 6).join('\n');
}

export interface UnpackLimits {
  readonly bytes: number;
  readonly entries: number;
}

/**
 * Unpacks a ZIP archive into `into`, streaming: bytes are counted as they inflate, so an archive
 * whose headers lie about its sizes stops at the limit too (a bomb of 1 GB is refused after the
 * limit's worth, never written whole). Every entry's path must stay inside the folder (no `..`,
 * no absolute path, no drive, no backslash): one that does not refuses the whole archive before a
 * byte of it is written. Answers the paths written.
 */
export function unpackZip(
  zipFile: string,
  into: string,
  limits: UnpackLimits = { bytes: THREED_LIMITS.unpackedBytes, entries: THREED_LIMITS.zipEntries },
): string[] {
  // First pass: names only (the central directory may be absent in a streamed archive, so the
  // local headers are read as they come), to refuse a bad path before anything is written.
  const { names, declared } = entryNames(zipFile);
  if (names.length > limits.entries) throw new ModelRefused(THREED_TEXTS.zipTooManyEntries);
  // Sizes its headers declare over the limit: refused before inflating a byte (one that lies is
  // stopped by the count below).
  if (declared > limits.bytes) throw new ModelRefused(THREED_TEXTS.zipTooLarge);
  for (const name of names) {
    if (name.endsWith('/')) continue;
    if (!isSafeModelPath(name)) throw new ModelRefused(THREED_TEXTS.zipPath);
  }
  const written: string[] = [];
  let total = 0;
  let open: { fd: number; name: string } | undefined;
  let failure: Error | undefined;
  const unzip = new Unzip((file) => {
    if (failure !== undefined || file.name.endsWith('/')) return;
    if (!isSafeModelPath(file.name)) {
      failure = new ModelRefused(THREED_TEXTS.zipPath);
      return;
    }
    const target = path.join(into, ...file.name.split('/'));
    mkdirSync(path.dirname(target), { recursive: true });
    const fd = openSync(target, 'w');
    open = { fd, name: file.name };
    written.push(file.name);
    file.ondata = (err, chunk, final) => {
      if (failure !== undefined) return;
      if (err !== null) {
        failure = new ModelRefused(THREED_TEXTS.zipBroken);
        return;
      }
      total += chunk.length;
      if (total > limits.bytes) {
        failure = new ModelRefused(THREED_TEXTS.zipTooLarge);
        file.terminate();
        return;
      }
      writeSync(fd, chunk);
      if (final) {
        closeSync(fd);
        open = undefined;
      }
    };
    try {
      file.start();
    } catch {
      failure = new ModelRefused(THREED_TEXTS.zipBroken);
    }
  });
  unzip.register(UnzipInflate);
  unzip.register(UnzipPassThrough);
  const fd = openSync(zipFile, 'r');
  const buffer = Buffer.alloc(1024 * 1024);
  try {
    for (;;) {
      const read = readSync(fd, buffer, 0, buffer.length, null);
      if (failure !== undefined) break;
      unzip.push(buffer.subarray(0, read), read === 0);
      if (read === 0 || failure !== undefined) break;
    }
  } catch (err) {
    failure ??= err instanceof ModelRefused ? err : new ModelRefused(THREED_TEXTS.zipBroken);
  } finally {
    closeSync(fd);
    if (open !== undefined) closeSync(open.fd);
  }
  if (failure !== undefined) throw failure;
  return written;
}

/**
 * The entries' names from the local file headers, read without inflating anything, and the
 * unpacked bytes their headers declare.
 */
function entryNames(zipFile: string): { names: string[]; declared: number } {
  const names: string[] = [];
  let declared = 0;
  const unzip = new Unzip((file) => {
    names.push(file.name);
    declared += file.originalSize ?? 0;
  });
  const fd = openSync(zipFile, 'r');
  const buffer = Buffer.alloc(1024 * 1024);
  try {
    for (;;) {
      const read = readSync(fd, buffer, 0, buffer.length, null);
      unzip.push(buffer.subarray(0, read), read === 0);
      if (read === 0) break;
    }
  } catch {
    throw new ModelRefused(THREED_TEXTS.zipBroken);
  } finally {
    closeSync(fd);
  }
  return { names, declared };
}
