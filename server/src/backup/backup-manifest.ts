import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';

/*
 * What a backup folder holds (issue 38 item 3, DESIGN.md §16):
 *
 *   manifest.json     written last: a folder without it is an unfinished backup
 *   data/             DATA_DIR as the server had it: the SQLite databases as one snapshot
 *                     (platform.sqlite, timeseries.sqlite), the file store, the secrets
 *   database.pgdump   with DATABASE_URL: pg_dump's custom format, of the same moment
 *
 * The manifest is the backup's own file format, read only by `npm run restore`: not a wire
 * message, so its schema lives here rather than in shared-schema.
 */

export const BACKUP_FORMAT = 'plant-backup';
/** The layout this code writes; a restore refuses a newer one (made by a newer version). */
export const BACKUP_VERSION = 1;
export const MANIFEST_FILE = 'manifest.json';
/** The folder of the backup that holds DATA_DIR's copy. */
export const DATA_FOLDER = 'data';
export const POSTGRES_DUMP_FILE = 'database.pgdump';

/**
 * A path inside the backup folder, as the manifest names it: relative, '/'-separated, no '.' or
 * '..' segment. A restore checks it before it reads or writes anything by it (a manifest is data
 * that may have been edited).
 */
const relativePath = z
  .string()
  .min(1)
  .max(4096)
  .refine(
    (p) =>
      !p.startsWith('/') &&
      !p.includes('\\') &&
      !p.includes('\0') &&
      p.split('/').every((part) => part !== '' && part !== '.' && part !== '..'),
    'not a relative path inside the backup',
  );

const fileEntrySchema = z.object({
  path: relativePath,
  size: z.number().int().min(0),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** Permission bits (0o600 for the secrets), given back on restore. */
  mode: z.number().int().min(0).max(0o777),
});
export type BackupFileEntry = z.infer<typeof fileEntrySchema>;

export const manifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  version: z.number().int().min(1),
  /** When the databases' snapshot was taken (ISO 8601): the moment the backup holds. */
  taken_at: z.string(),
  /** Where the platform's tables are: the SQLite files in data/, or database.pgdump. */
  database: z.enum(['sqlite', 'postgres']),
  /** The migrations the backup's databases had run (a restore refuses ones it does not know). */
  migrations: z.object({ platform: z.array(z.string()), timeseries: z.array(z.string()) }),
  /** Every file of the backup but the manifest, with its checksum. */
  files: z.array(fileEntrySchema),
  /** For people reading it: what it holds. */
  summary: z.object({
    models: z.number().int().min(0),
    files: z.number().int().min(0),
    bytes: z.number().int().min(0),
  }),
});
export type BackupManifest = z.infer<typeof manifestSchema>;

/** A backup or a restore refused or failed, with a message for the operator. */
export class BackupError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'BackupError';
  }
}

/** Written aside and renamed: a manifest on disk is always whole, so the backup is complete. */
export async function writeManifest(folder: string, manifest: BackupManifest): Promise<void> {
  const file = path.join(folder, MANIFEST_FILE);
  const aside = `${file}.tmp`;
  await fs.writeFile(aside, `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
  await fs.rename(aside, file);
}

/** The backup's manifest, checked; a BackupError says what is wrong with the folder. */
export async function readManifest(folder: string): Promise<BackupManifest> {
  let text: string;
  try {
    text = await fs.readFile(path.join(folder, MANIFEST_FILE), 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      throw new BackupError(
        `${folder} holds no ${MANIFEST_FILE}: not a backup, or one that did not finish`,
      );
    }
    throw new BackupError(`${folder} cannot be read: ${String(err)}`, { cause: err });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new BackupError(`${path.join(folder, MANIFEST_FILE)} is not JSON: the backup is damaged`);
  }
  const version = (json as { version?: unknown } | null)?.version;
  if (typeof version === 'number' && version > BACKUP_VERSION) {
    throw new BackupError(
      `the backup has layout ${version}; this version reads up to ${BACKUP_VERSION}: restore it ` +
        'with the version of the platform that made it, or a newer one',
    );
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) {
    const problem = parsed.error.issues[0];
    throw new BackupError(
      `${path.join(folder, MANIFEST_FILE)} is not a backup manifest (${problem?.path.join('.') ?? ''}: ${problem?.message ?? 'invalid'})`,
    );
  }
  return parsed.data;
}
