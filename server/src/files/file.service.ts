import type { ReadStream } from 'node:fs';
import { wantedUpdates } from '../releases/wanted';
import sharp from 'sharp';
import {
  can,
  FILE_CHECKSUM_MISMATCH,
  FILE_NOT_UPLOADED,
  fileAttributesSchema,
  articleModel,
  releaseModel,
  THEME_IMAGE_FIELDS,
  themeModel,
  type ReleaseAttributes,
  FEEDBACK_PERMISSIONS,
  ticketModel,
  type TicketAttributes,
  FILE_LIMITS,
  fileModel,
  UPLOAD_CHUNK_MAX_BYTES,
  type FileAttributes,
  type UploadProgress,
  type UploadState,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import type { Logger } from '../logger';
import { ModelRepository } from '../repositories/model.repository';
import { DomainError, forbidden, invalidInput, notFound } from '../services/domain-error';
import type { ModelService } from '../services/model.service';
import type { Session } from '../services/user.service';
import { ChunkTooLarge, type BlobStore } from './blob-store';

/** The longest side of a thumbnail, in pixels. */
export const THUMBNAIL_PX = 320;

/** What a thumbnail is made of: the image formats a photo may be. */
const THUMBNAIL_FORMATS: ReadonlySet<string> = new Set(['jpeg', 'png', 'webp', 'gif']);

/** What a download answers: the bytes and how to label them. */
/** What sharp calls each format a theme's image may be, and its media type. */
const IMAGE_FORMATS: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
};

export interface FileDownload {
  readonly body: ReadStream;
  readonly size: number;
  readonly type: string;
  /** The name to save it under: downloadName() of the stored one. */
  readonly name: string;
  readonly sha256: string;
}

interface FoundFile {
  readonly accountId: string;
  readonly id: string;
  readonly attributes: FileAttributes;
}

/**
 * Where progress goes: the broker's `account/{id}/_notify/upload` (set once it runs), to who
 * sees the file's asset (null: a template's file, seen by who may see files).
 */
export type ProgressSink = (
  accountId: string,
  assetId: string | null,
  progress: UploadProgress,
) => void;

/**
 * Uploads in chunks that resume after a cut, and downloads, of the files of the active account
 * (DESIGN.md §9). Every call finds the file in the caller's active account and checks the
 * caller's access to its asset, as the model routes do: a file of an asset the caller does not
 * see, or of another account, is not found; reading needs asset::view, uploading asset::edit and
 * edit rights on the asset.
 */
/**
 * Characters a saved file's name must not carry: control characters (NUL, line breaks, C1) and
 * the bidi controls (LRM, RLM, ALM, the embeddings, overrides and isolates) with which a name
 * like `invoice\u202Efdp.exe` shows as `invoiceexe.pdf` in the browser's download bar.
 */
const NOT_IN_DOWNLOAD_NAMES = /[\p{Cc}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/gu;

/** The name a download is saved under: the stored name without those characters. */
export function downloadName(name: string): string {
  return name.replace(NOT_IN_DOWNLOAD_NAMES, '').trim() || 'file';
}

export class FileService {
  /** One chunk at a time per file: a second tab's chunk waits for the first. */
  private readonly busy = new Map<string, Promise<unknown>>();
  progress: ProgressSink = () => undefined;

  constructor(
    private readonly db: Db,
    private readonly blobs: BlobStore,
    private readonly models: ModelService,
    private readonly log: Logger,
  ) {}

  private async find(session: Session, id: string, write: boolean): Promise<FoundFile> {
    const accountId = session.activeAccount?.id;
    if (accountId === undefined) throw forbidden();
    const row = await new ModelRepository(this.db).find(accountId, fileModel.type, id);
    // Unknown, and so is one whose asset the caller does not see.
    if (row === undefined || !session.access.seesStored(row)) throw notFound('File');
    const attributes = fileAttributesSchema.parse(JSON.parse(row.attributes));
    // A ticket's photo: who sees the ticket reads it; its reporter or a feedback admin uploads it
    // (its model was allowed when it was made: a ticket approved since keeps its reporter's bytes).
    if (attributes.ticket_id !== null) {
      if (write && !(await this.writesTicketPhoto(session, accountId, attributes.ticket_id)))
        throw forbidden();
      return { accountId, id, attributes };
    }
    // A release's artifact is release management's, a theme's image the themes': their
    // permissions, not the asset's files' (the model's write checked the owner; its bytes follow).
    const owner =
      attributes.release_id !== null
        ? releaseModel
        : attributes.theme_id !== null
          ? themeModel
          : undefined;
    if (owner !== undefined) {
      if (!can(session.ctx, write ? owner.permissions.update : owner.permissions.view))
        throw forbidden();
      return { accountId, id, attributes };
    }
    // An article's image is the help centre's: its permissions, not the asset's files'.
    const files = attributes.article_id !== null ? articleModel : fileModel;
    const permission = write ? files.permissions.update : files.permissions.view;
    if (!can(session.ctx, permission)) throw forbidden();
    // A template's file (its 3D model's) has no asset: who may edit templates uploads it.
    const mayWrite =
      row.asset_id !== null
        ? session.access.editsAsset(row.asset_id)
        : attributes.template_id !== null
          ? session.access.editsTemplates
          : attributes.article_id !== null;
    if (write && !mayWrite) throw forbidden();
    return { accountId, id, attributes };
  }

  private async writesTicketPhoto(
    session: Session,
    accountId: string,
    ticketId: string,
  ): Promise<boolean> {
    if (can(session.ctx, FEEDBACK_PERMISSIONS.admin)) return true;
    const ticket = await new ModelRepository(this.db).find(accountId, ticketModel.type, ticketId);
    if (ticket === undefined) return false;
    const { reported_by } = JSON.parse(ticket.attributes) as Pick<TicketAttributes, 'reported_by'>;
    return reported_by === session.user.id;
  }

  /** How far the upload is. A file whose bytes the account already has is ready at once. */
  async uploadState(session: Session, id: string): Promise<UploadState> {
    return this.once(id, async () => {
      const file = await this.find(session, id, false);
      if (file.attributes.state === 'uploading' && (await this.stored(session, file))) {
        return this.finish(file);
      }
      return this.stateOf(file);
    });
  }

  /**
   * One chunk at `offset`, which must be where the stored part ends (409 otherwise: the caller
   * asks where it stands and goes on from there). The last chunk checks the whole against its
   * SHA-256: a mismatch throws the part away (422) so that the upload starts again.
   */
  async putChunk(
    session: Session,
    id: string,
    offset: number,
    chunk: ReadableStream<Uint8Array>,
  ): Promise<UploadState> {
    return this.once(id, async () => {
      const file = await this.find(session, id, true);
      const { attributes } = file;
      if (attributes.state === 'ready') return this.stateOf(file);
      const received = await this.blobs.partSize(file.accountId, id);
      // Only an upload that has not begun may find its bytes stored already (the state read
      // before it asks too): not a query on every chunk.
      if (received === 0 && (await this.stored(session, file))) return this.finish(file);
      if (offset !== received) {
        throw new DomainError('conflict', `The upload stands at ${received} bytes.`);
      }
      const room = Math.min(UPLOAD_CHUNK_MAX_BYTES, attributes.size - received);
      let now: number;
      try {
        now = await this.blobs.append(file.accountId, id, chunk, room);
      } catch (err) {
        if (err instanceof ChunkTooLarge) {
          throw invalidInput({ offset: ['The chunk runs past the end of the file.'] });
        }
        throw err;
      }
      if (now < attributes.size) {
        this.progress(file.accountId, attributes.asset_id, {
          id,
          message: 'uploading',
          progress: now / attributes.size,
        });
        return { received: now, size: attributes.size, state: 'uploading' };
      }
      if (!(await this.blobs.complete(file.accountId, id, attributes.sha256))) {
        this.progress(file.accountId, attributes.asset_id, { id, message: 'restart', progress: 0 });
        throw invalidInput({ sha256: [FILE_CHECKSUM_MISMATCH] });
      }
      return this.finish(file);
    });
  }

  async content(session: Session, id: string): Promise<FileDownload> {
    const file = await this.find(session, id, false);
    const size = await this.blobs.size(file.accountId, file.attributes.sha256);
    if (file.attributes.state !== 'ready' || size === undefined) {
      throw new DomainError('conflict', FILE_NOT_UPLOADED);
    }
    return {
      body: this.blobs.open(file.accountId, file.attributes.sha256),
      size,
      type: file.attributes.type,
      name: downloadName(file.attributes.name),
      sha256: file.attributes.sha256,
    };
  }

  /**
   * A picture of an article, for the help centre's own host (no session): only a stored photo
   * whose article the caller found published. Undefined for anything else.
   */
  async articlePicture(
    accountId: string,
    id: string,
    published: (articleId: string) => Promise<boolean>,
  ): Promise<FileDownload | undefined> {
    const row = await new ModelRepository(this.db).find(accountId, fileModel.type, id);
    if (row === undefined) return undefined;
    const file = fileAttributesSchema.parse(JSON.parse(row.attributes));
    if (file.article_id === null || file.kind !== 'photo' || file.state !== 'ready')
      return undefined;
    if (!FILE_LIMITS.photo.types.includes(file.type)) return undefined;
    if (!(await published(file.article_id))) return undefined;
    const size = await this.blobs.size(accountId, file.sha256);
    if (size === undefined) return undefined;
    return {
      body: this.blobs.open(accountId, file.sha256),
      size,
      type: file.type,
      name: downloadName(file.name),
      sha256: file.sha256,
    };
  }

  /**
   * A released version's artifact for a gateway (its own credentials, no session): only while a
   * rollout of its account wants that version of this gateway (releases/wanted.ts). Undefined for
   * anything else.
   */
  async gatewayArtifact(
    gateway: { readonly accountId: string; readonly gatewayId: string },
    releaseId: string,
  ): Promise<FileDownload | undefined> {
    const wanted = (await wantedUpdates(this.db, gateway.accountId)).get(gateway.gatewayId);
    if (wanted?.update.release_id !== releaseId) return undefined;
    const row = await new ModelRepository(this.db).find(
      gateway.accountId,
      releaseModel.type,
      releaseId,
    );
    const fileId =
      row === undefined ? null : (JSON.parse(row.attributes) as ReleaseAttributes).artifact_file_id;
    if (fileId === null) return undefined;
    const file = await new ModelRepository(this.db).find(gateway.accountId, fileModel.type, fileId);
    if (file === undefined) return undefined;
    const attributes = fileAttributesSchema.parse(JSON.parse(file.attributes));
    // The bytes the release was signed for, and no other.
    if (attributes.sha256 !== wanted.update.sha256 || attributes.state !== 'ready')
      return undefined;
    const size = await this.blobs.size(gateway.accountId, attributes.sha256);
    if (size === undefined) return undefined;
    return {
      body: this.blobs.open(gateway.accountId, attributes.sha256),
      size,
      type: 'application/octet-stream',
      name: downloadName(attributes.name),
      sha256: attributes.sha256,
    };
  }

  /**
   * An image of a theme, to anyone (the sign-in page shows it before anyone signs in): only a
   * ready file of kind 'image' that its stored theme names, and only bytes that decode as one of
   * the image types (sharp reads the header; the type served is what the bytes are, never what
   * the uploader said). Anything else is unknown.
   */
  async themeImage(id: string): Promise<FileDownload | undefined> {
    const models = new ModelRepository(this.db);
    const row = await models.findAnyById(fileModel.type, id);
    if (row === undefined) return undefined;
    const file = fileAttributesSchema.parse(JSON.parse(row.attributes));
    if (file.kind !== 'image' || file.theme_id === null || file.state !== 'ready') return undefined;
    const theme = await models.find(row.account_id, themeModel.type, file.theme_id);
    if (theme === undefined) return undefined;
    const named = JSON.parse(theme.attributes) as Record<string, unknown>;
    if (!THEME_IMAGE_FIELDS.some((field) => named[field] === id)) return undefined;
    const size = await this.blobs.size(row.account_id, file.sha256);
    if (size === undefined) return undefined;
    let format: string | undefined;
    try {
      format = (await sharp(this.blobs.path(row.account_id, file.sha256)).metadata()).format;
    } catch {
      return undefined;
    }
    const type = IMAGE_FORMATS[format];
    if (type === undefined) return undefined;
    return {
      body: this.blobs.open(row.account_id, file.sha256),
      size,
      type,
      name: downloadName(file.name),
      sha256: file.sha256,
    };
  }

  async thumbnail(session: Session, id: string): Promise<FileDownload> {
    const file = await this.find(session, id, false);
    const { sha256 } = file.attributes;
    const size = file.attributes.thumbnail
      ? await this.blobs.thumbnailSize(file.accountId, sha256)
      : undefined;
    if (size === undefined) throw notFound('Thumbnail');
    return {
      body: this.blobs.openThumbnail(file.accountId, sha256),
      size,
      type: 'image/webp',
      name: downloadName(`${file.attributes.name}.webp`),
      sha256,
    };
  }

  private stateOf(file: FoundFile): Promise<UploadState> {
    const { size, state } = file.attributes;
    if (state === 'ready') return Promise.resolve({ received: size, size, state });
    return this.blobs
      .partSize(file.accountId, file.id)
      .then((received) => ({ received, size, state }));
  }

  /**
   * Whether the caller may have these bytes without sending them: the account holds them, as a
   * ready file of an asset the caller sees. Only then: a checksum alone (one learnt before an
   * access change, say) must never open a hidden file's bytes, nor tell that they exist.
   */
  private async stored(session: Session, file: FoundFile): Promise<boolean> {
    const { sha256, size } = file.attributes;
    const same = await new ModelRepository(this.db).referencing(
      file.accountId,
      fileModel.type,
      'sha256',
      sha256,
    );
    const seen = same.some((row) => {
      if (row.id === file.id || !session.access.seesStored(row)) return false;
      const other = JSON.parse(row.attributes) as Partial<FileAttributes>;
      return other.state === 'ready' && other.size === size;
    });
    if (!seen || (await this.blobs.size(file.accountId, sha256)) !== size) return false;
    // Used again: the pruner's grace starts anew.
    await this.blobs.touch(file.accountId, sha256);
    return true;
  }

  /** The bytes are stored: a thumbnail for images, then the model says 'ready' (logged, synced). */
  private async finish(file: FoundFile): Promise<UploadState> {
    const { accountId, id, attributes } = file;
    await this.blobs.discard(accountId, id);
    const thumbnail =
      attributes.type.startsWith('image/') && (await this.makeThumbnail(accountId, attributes));
    await this.models.serverUpdate(accountId, fileModel.collection, id, {
      state: 'ready',
      thumbnail,
    });
    this.progress(accountId, attributes.asset_id, { id, message: 'ready', progress: 1 });
    return { received: attributes.size, size: attributes.size, state: 'ready' };
  }

  private async makeThumbnail(accountId: string, file: FileAttributes): Promise<boolean> {
    if ((await this.blobs.thumbnailSize(accountId, file.sha256)) !== undefined) return true;
    try {
      const image = sharp(this.blobs.path(accountId, file.sha256));
      // Only the formats a photo may be, whatever the bytes say they are (sharp reads SVG,
      // TIFF and more by their content).
      const { format } = await image.metadata();
      if (!THUMBNAIL_FORMATS.has(format)) return false;
      const bytes = await image
        .rotate()
        .resize(THUMBNAIL_PX, THUMBNAIL_PX, { fit: 'inside', withoutEnlargement: true })
        .webp({ quality: 80 })
        .toBuffer();
      await this.blobs.writeThumbnail(accountId, file.sha256, bytes);
      return true;
    } catch (err) {
      // An image sharp cannot read is kept and served; it only has no thumbnail.
      this.log.warn('no thumbnail for an image', { sha256: file.sha256, error: String(err) });
      return false;
    }
  }

  private once<T>(id: string, work: () => Promise<T>): Promise<T> {
    const before = this.busy.get(id) ?? Promise.resolve();
    const run = before.catch(() => undefined).then(work);
    const tail = run.catch(() => undefined);
    this.busy.set(id, tail);
    void tail.then(() => {
      if (this.busy.get(id) === tail) this.busy.delete(id);
    });
    return run;
  }
}
