import { Dexie, type Table } from 'dexie';
import type { IndexedDbEnv } from '../store/indexeddb';
import { encodeNamePart } from '../store/database-name';

/**
 * The files of one user in one account, beside the models (DESIGN.md §9): the bytes of uploads
 * not yet on the server (kept until they are, across reloads and offline days), and the bytes
 * of files kept for offline use. A lean Dexie database: blobs are never synced as models.
 */

/** An upload under way: the file's bytes until the server holds them all. */
export interface UploadRow {
  /** The file model's id. */
  readonly id: string;
  /** The asset it belongs to (a template's id for a template's 3D model files). */
  readonly asset_id: string;
  readonly name: string;
  readonly blob: Blob;
  readonly size: number;
  /** Bytes the server confirmed so far. */
  readonly sent: number;
  /** 'failed': refused for good (no rights, the file's write refused); shown, not retried. */
  readonly state: 'waiting' | 'failed';
  readonly error: string | null;
  readonly created_at: number;
  /** A file this one replaces (an asset's former photo): deleted once this one is stored. */
  readonly replaces?: string;
  /** What was refused: the file's write (it may be sent again) or the upload itself. */
  readonly failed_on?: 'write' | 'upload';
}

export type FileVariant = 'content' | 'thumbnail';

/** A file's bytes kept for offline use. */
export interface KeptRow {
  /** `<file id>:<variant>`. */
  readonly key: string;
  readonly file_id: string;
  /** The asset it belongs to (a template's id for a template's 3D model files). */
  readonly asset_id: string;
  readonly variant: FileVariant;
  readonly blob: Blob;
  readonly size: number;
  readonly stored_at: number;
}

export class FilesDatabase extends Dexie {
  uploads!: Table<UploadRow, string>;
  kept!: Table<KeptRow, string>;

  constructor(name: string, env: IndexedDbEnv) {
    super(name, { indexedDB: env.indexedDB, IDBKeyRange: env.IDBKeyRange });
    this.version(1).stores({ uploads: 'id, created_at', kept: 'key, file_id, asset_id' });
  }
}

export const keptKey = (fileId: string, variant: FileVariant) => `${fileId}:${variant}`;

/** Every files database of one user starts with this (sign-out deletes them). */
export function userFilesPrefix(userId: string): string {
  return `plant-files-${encodeNamePart(userId)}-`;
}

/** The files database of one user for one account. */
export function filesDatabaseName(userId: string, accountId: string): string {
  if (userId === '' || accountId === '') throw new Error('Files need a user and an account.');
  return `${userFilesPrefix(userId)}${encodeNamePart(accountId)}`;
}
