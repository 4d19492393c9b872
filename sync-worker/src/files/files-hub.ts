import { z } from 'zod';
import {
  deferred,
  apiPaths,
  fileProblems,
  FILE_CHECKSUM_MISMATCH,
  FILE_NOT_UPLOADED,
  mediaTypeOf,
  UPLOAD_CHUNK_BYTES,
  uploadStateSchema,
  uuidv7,
  type FileKind,
  type ModelInput,
  type UploadProgress,
  type UploadState,
} from '@plant/shared-schema';
import type { FileOwner, FilesUsage, LocalModel, Result, UploadView, WorkerError } from '../api';
import type { Logger } from '../log';
import type { OutboxDoc } from '../store/docs';
import type { ApiClient, ApiError } from '../transport/http';
import { keptKey, type FilesDatabase, type FileVariant, type UploadRow } from './file-db';

export interface FilesTimings {
  /** First wait after a failed chunk; doubles up to `maxRetryMs`. */
  readonly retryMs: number;
  readonly maxRetryMs: number;
  readonly chunkBytes: number;
}

const DEFAULT_TIMINGS: FilesTimings = {
  retryMs: 1_000,
  maxRetryMs: 30_000,
  chunkBytes: UPLOAD_CHUNK_BYTES,
};

/** A mismatch is retried from the start this many times, then shown as failed. */
const MISMATCH_TRIES = 2;
/** Conflicts in a row (the part moved under this sender) before it waits for the next round. */
const MAX_CONFLICTS = 5;

export interface FilesHubOptions {
  readonly api: ApiClient;
  readonly log: Logger;
  readonly db: FilesDatabase;
  /** Creates the file model (the engine's create: local at once, queued for the server). */
  readonly create: (
    attributes: ModelInput<'file'>,
    id: string,
  ) => Promise<Result<{ id: string; mutationId: string }>>;
  readonly model: (id: string) => Promise<LocalModel<'file'> | null>;
  /** Deletes a file model (the engine's remove: queued). */
  readonly remove: (id: string) => Promise<Result<{ mutationId: string }>>;
  /** The file models of an asset in the local store. */
  readonly filesOf: (assetId: string) => Promise<LocalModel<'file'>[]>;
  /** The outbox's write that makes the file, while it is there. */
  readonly createWrite: (id: string) => Promise<OutboxDoc | undefined>;
  /** The tabs of this store tell each other of progress (BroadcastChannel name). */
  readonly channel: string;
  readonly timings?: Partial<FilesTimings>;
}

type ChannelMessage =
  | { readonly kind: 'nudge' }
  | { readonly kind: 'changed' }
  | { readonly kind: 'progress'; readonly id: string; readonly progress: number };

const stateAnswer = /* @__PURE__ */ deferred(() => z.object({ data: uploadStateSchema }));

async function sha256Of(blob: Blob): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', await blob.arrayBuffer());
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Files in the worker (DESIGN.md §9): a file added here is kept in IndexedDB and its model
 * written at once (so it shows, offline too), then the leader tab uploads its bytes in chunks,
 * resuming where the server's part ends after a cut or a reload; files of the assets the user
 * opened are kept for offline use, within what the user chooses to free.
 */
export class FilesHub {
  private readonly timings: FilesTimings;
  private readonly listeners = new Set<(uploads: Readonly<Record<string, UploadView>>) => void>();
  /** Progress of chunks moving: this tab's (as leader), the leader's, or another user's. */
  private readonly moving = new Map<string, number>();
  private readonly channel: BroadcastChannel | undefined;
  private leading = false;
  private stopped = false;
  private draining: Promise<void> | undefined;
  private again = false;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private retryMs: number;
  private readonly mismatches = new Map<string, number>();

  constructor(private readonly options: FilesHubOptions) {
    this.timings = { ...DEFAULT_TIMINGS, ...options.timings };
    this.retryMs = this.timings.retryMs;
    this.channel =
      typeof BroadcastChannel === 'undefined' ? undefined : new BroadcastChannel(options.channel);
    this.channel?.addEventListener('message', (event: MessageEvent<ChannelMessage>) => {
      const message = event.data;
      if (message.kind === 'nudge') this.nudge();
      else if (message.kind === 'progress') this.setMoving(message.id, message.progress, false);
      else void this.tell();
    });
  }

  // ---- adding ----------------------------------------------------------------------------------

  /**
   * Adds a file to an asset: checked against the kind's limits, its SHA-256 taken, its bytes
   * kept here, its model written (shown at once, sent when the network allows), its upload
   * queued. The answer carries the new file's id.
   */
  async add(
    owner: FileOwner,
    kind: FileKind,
    blob: Blob,
    name: string,
    replaces?: string,
    fileId?: string,
  ): Promise<Result<{ id: string; mutationId: string }>> {
    const type = mediaTypeOf(name, blob.type);
    const problems = fileProblems({ kind, type, size: blob.size });
    const first = problems.size ?? problems.type;
    if (first !== undefined) {
      const fields = Object.fromEntries(Object.entries(problems).map(([k, v]) => [k, [v]]));
      return { error: { kind: 'invalid', message: first, fields } };
    }
    const sha256 = await sha256Of(blob);
    const id = fileId ?? uuidv7();
    // Kept here by the owner's id (an asset's, a template's for its 3D model files, an
    // article's for its images, a ticket's for its photo, a release's for its artifact, a
    // theme's for its images).
    const placed = placedOf(owner);
    const assetId =
      placed.asset_id ??
      placed.template_id ??
      placed.article_id ??
      placed.ticket_id ??
      placed.release_id ??
      placed.theme_id ??
      '';
    // The bytes first: a model without its bytes could never be uploaded; bytes without their
    // model are dropped by the uploader.
    const row: UploadRow = {
      id,
      asset_id: assetId,
      name,
      blob,
      size: blob.size,
      sent: 0,
      state: 'waiting',
      error: null,
      created_at: Date.now(),
      ...(replaces === undefined ? {} : { replaces }),
    };
    await this.options.db.uploads.put(row);
    const made = await this.options.create(
      { ...placed, kind, name, type, size: blob.size, sha256 },
      id,
    );
    if ('error' in made) {
      await this.options.db.uploads.delete(id);
      return made;
    }
    this.changed();
    this.nudge();
    return made;
  }

  // ---- reading ---------------------------------------------------------------------------------

  /**
   * A file's bytes: kept here, or waiting to be uploaded, or read from the server (and then kept,
   * so a file seen once shows offline). A thumbnail the server has not made yet (the file is
   * still being uploaded) is the image itself.
   */
  async read(id: string, variant: FileVariant): Promise<Result<Blob>> {
    const { db } = this.options;
    const kept = await db.kept.get(keptKey(id, variant));
    if (kept !== undefined) return { data: kept.blob };
    const waiting = await db.uploads.get(id);
    if (waiting !== undefined) return { data: waiting.blob };
    const model = await this.options.model(id);
    if (model === null) return { error: { kind: 'not-found', message: 'File not found.' } };
    if (variant === 'thumbnail' && !model.attributes.thumbnail) {
      return model.attributes.type.startsWith('image/')
        ? this.read(id, 'content')
        : { error: { kind: 'not-found', message: 'File not found.' } };
    }
    if (model.attributes.state !== 'ready') {
      return { error: { kind: 'not-found', message: FILE_NOT_UPLOADED } };
    }
    return this.fetchAndKeep(model, variant);
  }

  private async fetchAndKeep(
    model: LocalModel<'file'>,
    variant: FileVariant,
  ): Promise<Result<Blob>> {
    const path =
      variant === 'content' ? apiPaths.fileContent(model.id) : apiPaths.fileThumbnail(model.id);
    const answer = await this.options.api.call<Blob>('GET', path, {
      binary: true,
      quiet: true,
      background: true,
    });
    if (!answer.ok) return { error: answer.error };
    const blob = answer.data;
    await this.options.db.kept.put({
      key: keptKey(model.id, variant),
      file_id: model.id,
      asset_id:
        model.attributes.asset_id ??
        model.attributes.template_id ??
        model.attributes.article_id ??
        model.attributes.ticket_id ??
        '',
      variant,
      blob,
      size: blob.size,
      stored_at: Date.now(),
    });
    return { data: blob };
  }

  /**
   * Keeps every file of an asset for offline use (the asset was opened): what is not here yet is
   * read from the server; kept files the asset no longer has go. Answers what is kept of it.
   */
  async keep(assetId: string): Promise<Result<{ files: number; bytes: number }>> {
    const all = await this.options.filesOf(assetId);
    // A 3D model's files (its upload, up to 500 MB, and its levels) are not the asset's papers:
    // its levels are kept when a scene shows them, never the upload.
    const threed = new Set(
      all
        .filter((f) => f.attributes.kind === 'model' || f.attributes.kind === 'level')
        .map((f) => f.id),
    );
    const files = all.filter((f) => f.attributes.state === 'ready' && !threed.has(f.id));
    const { db } = this.options;
    const wanted = new Set<string>();
    let failure: WorkerError | undefined;
    for (const file of files) {
      const variants: FileVariant[] = file.attributes.thumbnail
        ? ['thumbnail', 'content']
        : ['content'];
      for (const variant of variants) {
        wanted.add(keptKey(file.id, variant));
        if ((await db.kept.get(keptKey(file.id, variant))) !== undefined) continue;
        if ((await db.uploads.get(file.id)) !== undefined) continue;
        const got = await this.fetchAndKeep(file, variant);
        if ('error' in got) failure ??= got.error;
      }
    }
    const stale = (await db.kept.where('asset_id').equals(assetId).toArray()).filter(
      (k) => !wanted.has(k.key) && !threed.has(k.file_id),
    );
    await db.kept.bulkDelete(stale.map((k) => k.key));
    if (failure !== undefined) return { error: failure };
    const rows = await db.kept.where('asset_id').equals(assetId).toArray();
    return {
      data: { files: files.length, bytes: rows.reduce((sum, r) => sum + r.size, 0) },
    };
  }

  async usage(): Promise<FilesUsage> {
    const { db } = this.options;
    const byAsset: Record<string, number> = {};
    let bytes = 0;
    const files = new Set<string>();
    await db.kept.each((row) => {
      bytes += row.size;
      files.add(row.file_id);
      byAsset[row.asset_id] = (byAsset[row.asset_id] ?? 0) + row.size;
    });
    let waitingBytes = 0;
    await db.uploads.each((row) => {
      waitingBytes += row.size;
    });
    return { bytes, files: files.size, byAsset, waitingBytes };
  }

  /**
   * Keeps only the bytes of these files (those in the store): a file deleted, or of an asset the
   * user no longer sees, takes its kept bytes with it (DESIGN.md §10).
   */
  async keepOnly(fileIds: ReadonlySet<string>): Promise<void> {
    const { kept } = this.options.db;
    const gone = (await kept.toArray()).filter((k) => !fileIds.has(k.file_id)).map((k) => k.key);
    if (gone.length > 0) await kept.bulkDelete(gone);
  }

  /** Frees what is kept for offline use (of one asset, or all); waiting uploads stay. */
  async free(assetId?: string): Promise<void> {
    const { kept } = this.options.db;
    if (assetId === undefined) await kept.clear();
    else await kept.where('asset_id').equals(assetId).delete();
  }

  // ---- progress --------------------------------------------------------------------------------

  /** Every upload known here, now and on every change. */
  watch(callback: (uploads: Readonly<Record<string, UploadView>>) => void): () => void {
    this.listeners.add(callback);
    void this.viewNow().then((view) => {
      if (this.listeners.has(callback)) callback(view);
    });
    return () => this.listeners.delete(callback);
  }

  /** Progress from the broker (`_notify/upload`): another user's upload, or this one's echo. */
  received(progress: UploadProgress): void {
    this.setMoving(progress.id, progress.progress, true);
  }

  private setMoving(id: string, progress: number, share: boolean): void {
    if (progress >= 1) this.moving.delete(id);
    else this.moving.set(id, progress);
    if (share) this.post({ kind: 'progress', id, progress });
    void this.tell();
  }

  private async viewNow(): Promise<Record<string, UploadView>> {
    const view: Record<string, UploadView> = {};
    for (const [id, progress] of this.moving) {
      view[id] = { id, progress, state: 'uploading', error: null, here: false };
    }
    await this.options.db.uploads.each((row) => {
      const moving = this.moving.get(row.id);
      view[row.id] = {
        id: row.id,
        progress: Math.max(moving ?? 0, row.sent / row.size),
        state: row.state === 'failed' ? 'failed' : moving === undefined ? 'waiting' : 'uploading',
        error: row.error,
        here: true,
      };
    });
    return view;
  }

  private async tell(): Promise<void> {
    if (this.listeners.size === 0) return;
    const view = await this.viewNow();
    for (const listener of this.listeners) listener(view);
  }

  private changed(): void {
    this.post({ kind: 'changed' });
    void this.tell();
  }

  private post(message: ChannelMessage): void {
    try {
      this.channel?.postMessage(message);
    } catch (err) {
      this.options.log.warn('files channel closed', { error: String(err) });
    }
  }

  // ---- uploading (the leader) ------------------------------------------------------------------

  /** This tab leads: it uploads what waits, now and whenever nudged. */
  lead(): void {
    this.leading = true;
    this.nudge();
  }

  /** Something may have changed (a write answered, the broker back, a file added). */
  nudge(): void {
    if (this.stopped) return;
    if (!this.leading) {
      this.post({ kind: 'nudge' });
      return;
    }
    if (this.draining !== undefined) {
      this.again = true;
      return;
    }
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.draining = this.drain().finally(() => {
      this.draining = undefined;
    });
  }

  /** Resolves once no upload runs (tests). */
  async settled(): Promise<void> {
    while (this.draining !== undefined) await this.draining;
  }

  private async drain(): Promise<void> {
    let retry = false;
    do {
      this.again = false;
      const rows = await this.options.db.uploads.orderBy('created_at').toArray();
      for (const row of rows) {
        if (this.stopped) return;
        if (row.state === 'failed' && !(await this.revived(row))) continue;
        const outcome = await this.uploadOne(row).catch((err: unknown) => {
          this.options.log.warn('upload step failed', { file: row.id, error: String(err) });
          return 'retry' as const;
        });
        if (outcome === 'retry') retry = true;
      }
    } while (this.again && !this.stopped);
    if (retry && !this.stopped) {
      this.retryTimer = setTimeout(() => this.nudge(), this.retryMs);
      this.retryMs = Math.min(this.retryMs * 2, this.timings.maxRetryMs);
    } else {
      this.retryMs = this.timings.retryMs;
    }
  }

  /**
   * Whether a failed upload may go again: its file's write was sent again (the user retried it)
   * and waits or was taken. A failed upload whose file is gone (deleted, its write given up)
   * takes its bytes with it; one still refused stays failed, shown.
   */
  private async revived(row: UploadRow): Promise<boolean> {
    const write = await this.options.createWrite(row.id);
    if (write === undefined && (await this.options.model(row.id)) === null) {
      await this.options.db.uploads.delete(row.id);
      this.changed();
      return false;
    }
    // Sent again and taken (the write is gone, the file is here), or sent again and waiting.
    const again = row.failed_on === 'write' && (write === undefined || write.state !== 'failed');
    if (!again) return false;
    await this.options.db.uploads.update(row.id, { state: 'waiting', error: null });
    this.mismatches.delete(row.id);
    this.changed();
    return true;
  }

  /** One file's upload as far as it goes now: done, waiting for its model, or to be retried. */
  private async uploadOne(row: UploadRow): Promise<'done' | 'wait' | 'retry'> {
    const write = await this.options.createWrite(row.id);
    if (write?.state === 'failed') {
      await this.fail(row, write.last_error ?? 'The file could not be saved.', 'write');
      return 'done';
    }
    // Not on the server yet: the write's answer nudges again.
    if (write !== undefined && write.state !== 'confirmed') return 'wait';
    if (write === undefined && (await this.options.model(row.id)) === null) {
      // Deleted, or its write given up: its bytes are not wanted any more.
      await this.options.db.uploads.delete(row.id);
      this.moving.delete(row.id);
      this.changed();
      return 'done';
    }
    const { api } = this.options;
    let state: UploadState;
    const asked = await api.call('GET', apiPaths.fileUpload(row.id), {
      schema: stateAnswer,
      quiet: true,
      background: true,
    });
    if (!asked.ok) return this.failedCall(row, asked.error);
    state = asked.data.data;
    let conflicts = 0;
    while (state.state !== 'ready') {
      if (this.stopped) return 'wait';
      const end = Math.min(state.received + this.timings.chunkBytes, row.size);
      const put = await api.call('PUT', apiPaths.fileUpload(row.id, state.received), {
        bytes: row.blob.slice(state.received, end),
        schema: stateAnswer,
        quiet: true,
        background: true,
      });
      if (put.ok) {
        state = put.data.data;
        this.retryMs = this.timings.retryMs;
        await this.options.db.uploads.update(row.id, { sent: state.received });
        this.setMoving(row.id, state.state === 'ready' ? 1 : state.received / row.size, true);
        continue;
      }
      const { error } = put;
      if (error.status === 409 || (error.status === 422 && isMismatch(error))) {
        // Another sender moved the part meanwhile: again from where it stands, a few times.
        if (error.status === 409 && ++conflicts > MAX_CONFLICTS) return 'retry';
        if (error.status === 422) {
          const tries = (this.mismatches.get(row.id) ?? 0) + 1;
          this.mismatches.set(row.id, tries);
          if (tries > MISMATCH_TRIES) {
            await this.fail(row, FILE_CHECKSUM_MISMATCH);
            return 'done';
          }
        }
        const again = await api.call('GET', apiPaths.fileUpload(row.id), {
          schema: stateAnswer,
          quiet: true,
          background: true,
        });
        if (!again.ok) return this.failedCall(row, again.error);
        state = again.data.data;
        continue;
      }
      return this.failedCall(row, error);
    }
    await this.finished(row);
    return 'done';
  }

  /** Every byte is on the server: they stay here as the kept copy (the file shows offline). */
  private async finished(row: UploadRow): Promise<void> {
    const { db } = this.options;
    await db.kept.put({
      key: keptKey(row.id, 'content'),
      file_id: row.id,
      asset_id: row.asset_id,
      variant: 'content',
      blob: row.blob,
      size: row.size,
      stored_at: Date.now(),
    });
    await db.uploads.delete(row.id);
    this.mismatches.delete(row.id);
    this.moving.delete(row.id);
    this.changed();
    // Only now: had this one failed, the file it replaces would still be there.
    if (row.replaces !== undefined && (await this.options.model(row.replaces)) !== null) {
      const removed = await this.options.remove(row.replaces);
      if ('error' in removed) {
        this.options.log.warn('replaced file not deleted', { file: row.replaces });
      }
    }
  }

  /** No answer (offline, a cut): retried with backoff. An answer that refuses: failed for good. */
  private async failedCall(row: UploadRow, error: ApiError): Promise<'retry' | 'done'> {
    if (error.kind === 'network' || error.status >= 500 || error.status === 429) return 'retry';
    if (error.status === 401) return 'retry';
    await this.fail(row, error.message);
    return 'done';
  }

  private async fail(
    row: UploadRow,
    message: string,
    on: 'write' | 'upload' = 'upload',
  ): Promise<void> {
    this.options.log.warn('upload refused', { file: row.id, message });
    await this.options.db.uploads.update(row.id, {
      state: 'failed',
      error: message,
      failed_on: on,
    });
    this.moving.delete(row.id);
    this.changed();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.listeners.clear();
    this.channel?.close();
  }
}

function isMismatch(error: ApiError): boolean {
  return error.message === FILE_CHECKSUM_MISMATCH;
}

/** The file's owner fields: one of them names the owner (registry altParents), the rest null. */
function placedOf(owner: FileOwner): {
  asset_id: string | null;
  template_id: string | null;
  article_id: string | null;
  ticket_id: string | null;
  release_id: string | null;
  theme_id: string | null;
  form_entry_id: string | null;
} {
  const none = {
    asset_id: null,
    template_id: null,
    article_id: null,
    ticket_id: null,
    release_id: null,
    theme_id: null,
    form_entry_id: null,
  };
  if (typeof owner === 'string') return { ...none, asset_id: owner };
  if ('template' in owner) return { ...none, template_id: owner.template };
  if ('article' in owner) return { ...none, article_id: owner.article };
  if ('release' in owner) return { ...none, release_id: owner.release };
  if ('theme' in owner) return { ...none, theme_id: owner.theme };
  if ('entry' in owner) return { ...none, asset_id: owner.asset, form_entry_id: owner.entry };
  return { ...none, ticket_id: owner.ticket };
}
