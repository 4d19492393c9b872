import { createHash, randomUUID } from 'node:crypto';
import type { ReadStream } from 'node:fs';
import sharp, { type Metadata } from 'sharp';
import {
  apiPaths,
  DESIGN_IMAGE_MAX_BYTES,
  DESIGN_IMAGE_MAX_PX,
  DESIGN_IMAGE_TEXTS,
  DESIGN_IMAGE_TYPES,
  type DesignImageAnswer,
  type DesignImageType,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import { invalidInput, notFound } from '../services/domain-error';
import type { BlobStore } from './blob-store';

/** What sharp calls each format an image of the design may be, and its media type. */
const FORMATS: Readonly<Record<string, DesignImageType>> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
};

const TYPE_OF_ENDING: Readonly<Record<string, DesignImageType>> = Object.fromEntries(
  Object.entries(DESIGN_IMAGE_TYPES).map(([type, ending]) => [ending, type as DesignImageType]),
);

/** The columns of `accounts` that hold the design's images. */
const IMAGE_COLUMNS = ['logo_desktop', 'logo_mobile', 'login_image'] as const;

/** An image as served: its bytes, size and type. */
export interface DesignImageDownload {
  readonly body: ReadStream;
  readonly size: number;
  readonly type: DesignImageType;
  readonly sha256: string;
}

/**
 * The images of accounts' designs (issue 30 item 9): kept in the file store beside the account's
 * files (content-addressed per account: the same logo twice is stored once), what their bytes
 * are checked by decoding their header (never by the name or the type the browser gave), and
 * served to anyone only while the account's design names them: the sign-in screen shows the
 * login image before anyone signs in, and nothing else of the account's store is reachable
 * through this path. The file pruner keeps the blobs the designs name (`namedBy`).
 */
export class DesignImages {
  constructor(
    private readonly db: Db,
    private readonly blobs: BlobStore,
  ) {}

  /**
   * Stores an image for an account's design (the caller has checked that the user may change
   * it) and answers the address the design names it by.
   */
  async store(accountId: string, bytes: Uint8Array<ArrayBuffer>): Promise<DesignImageAnswer> {
    if (bytes.byteLength < 1) throw invalidInput({ file: [DESIGN_IMAGE_TEXTS.empty] });
    if (bytes.byteLength > DESIGN_IMAGE_MAX_BYTES) {
      throw invalidInput({ file: [DESIGN_IMAGE_TEXTS.tooLarge] });
    }
    let meta: Metadata;
    try {
      meta = await sharp(bytes).metadata();
    } catch {
      throw invalidInput({ file: [DESIGN_IMAGE_TEXTS.notImage] });
    }
    const type = FORMATS[meta.format];
    const { width, height } = meta;
    if (type === undefined || width === undefined || height === undefined) {
      throw invalidInput({ file: [DESIGN_IMAGE_TEXTS.wrongType] });
    }
    if (width > DESIGN_IMAGE_MAX_PX || height > DESIGN_IMAGE_MAX_PX) {
      throw invalidInput({ file: [DESIGN_IMAGE_TEXTS.tooWide] });
    }
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    if ((await this.blobs.size(accountId, sha256)) === bytes.byteLength) {
      // Stored already (a logo chosen again): the pruner's grace starts anew.
      await this.blobs.touch(accountId, sha256);
    } else {
      const part = `design-${randomUUID()}`;
      const body = new Blob([bytes]).stream();
      await this.blobs.append(accountId, part, body, bytes.byteLength);
      await this.blobs.complete(accountId, part, sha256);
    }
    const name = `${sha256}.${DESIGN_IMAGE_TYPES[type]}`;
    return {
      url: apiPaths.designImage(accountId, name),
      type,
      size: bytes.byteLength,
      width,
      height,
    };
  }

  /** An image the account's design names now; anything else is not found. */
  async open(accountId: string, name: string): Promise<DesignImageDownload> {
    const [sha256 = '', ending = ''] = name.split('.');
    const type = TYPE_OF_ENDING[ending];
    const address = apiPaths.designImage(accountId, name);
    if (type === undefined || !(await this.addresses(accountId)).includes(address)) {
      throw notFound('Image');
    }
    const size = await this.blobs.size(accountId, sha256);
    if (size === undefined) throw notFound('Image');
    return { body: this.blobs.open(accountId, sha256), size, type, sha256 };
  }

  /** The checksums of the images an account's design names (those of this store). */
  async namedBy(accountId: string): Promise<Set<string>> {
    const prefix = apiPaths.designImage(accountId, '');
    const named = new Set<string>();
    for (const address of await this.addresses(accountId)) {
      if (!address.startsWith(prefix)) continue;
      const sha256 = /^([0-9a-f]{64})\./.exec(address.slice(prefix.length))?.[1];
      if (sha256 !== undefined) named.add(sha256);
    }
    return named;
  }

  private async addresses(accountId: string): Promise<string[]> {
    const row = await this.db
      .selectFrom('accounts')
      .select(IMAGE_COLUMNS)
      .where('id', '=', accountId)
      .executeTakeFirst();
    if (row === undefined) return [];
    return IMAGE_COLUMNS.flatMap((column) => {
      const value = row[column];
      return typeof value === 'string' ? [value] : [];
    });
  }
}
