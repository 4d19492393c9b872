import fs from 'node:fs/promises';
import path from 'node:path';

/** Bytes for a progress line: 512 B, 3.4 MB, 1.02 GB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value.toFixed(value < 10 ? 2 : 1)} ${units[unit] ?? ''}`;
}

/** The real path of a path that may not exist yet: its nearest existing ancestor's, resolved. */
async function realOf(p: string): Promise<string> {
  const resolved = path.resolve(p);
  const rest: string[] = [];
  let at = resolved;
  for (;;) {
    const real = await fs.realpath(at).catch(() => undefined);
    if (real !== undefined) return path.join(real, ...rest.reverse());
    const parent = path.dirname(at);
    if (parent === at) return resolved;
    rest.push(path.basename(at));
    at = parent;
  }
}

/** Whether `inner` is `outer` or lies inside it (symbolic links resolved). */
export async function isInside(inner: string, outer: string): Promise<boolean> {
  const a = await realOf(inner);
  const b = await realOf(outer);
  const rel = path.relative(b, a);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/** Whether a folder is missing or has no entries (a file there is neither). */
export async function isEmptyOrMissing(dir: string): Promise<boolean> {
  try {
    return (await fs.readdir(dir)).length === 0;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT';
  }
}
