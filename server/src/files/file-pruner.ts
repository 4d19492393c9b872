import { fileModel } from '@plant/shared-schema';
import type { Db } from '../db/database';
import type { Clock } from '../lib/clock';
import type { Logger } from '../logger';
import { ModelRepository } from '../repositories/model.repository';
import { Pruner } from '../services/pruner';
import type { BlobStore } from './blob-store';
import { legacyDesignBlobs } from '../themes/adopt-designs';

/**
 * Bytes nothing refers to wait this long before they go: a blob a new file of the same bytes is
 * about to use (it is ready at once), a part whose model is being written.
 */
export const UNUSED_FILE_GRACE_MS = 60 * 60 * 1000;

/**
 * Frees the file store every hour (Pruner, run by the cluster's leader): blobs (and their
 * thumbnails) that no file of their account names any more (the file, or its asset, was
 * deleted), nor an image of an old account design waiting to move into its theme, and parts of
 * uploads whose file is gone or already stored.
 */
export class FilePruner extends Pruner {
  constructor(
    db: Db,
    clock: Clock,
    log: Logger,
    private readonly store: BlobStore,
  ) {
    super(db, clock, 0, log);
  }

  async pruneNow(): Promise<{ blobs: number; parts: number }> {
    const before = this.clock.now() - UNUSED_FILE_GRACE_MS;
    const models = new ModelRepository(this.db);
    let blobs = 0;
    let parts = 0;
    for (const accountId of await this.store.accounts()) {
      // Read after the listing below would race a file made meanwhile; read first, and the
      // grace covers a file made between this read and the delete.
      const files = (await models.allOfTypes(accountId, [fileModel.type])).map((row) => ({
        id: row.id,
        ...(JSON.parse(row.attributes) as { sha256?: string; state?: string }),
      }));
      // Images of an account design of issue 30 not yet moved into its theme live here too.
      const named = new Set([
        ...files.map((f) => f.sha256),
        ...(await legacyDesignBlobs(this.db, accountId)),
      ]);
      const uploading = new Set(files.filter((f) => f.state !== 'ready').map((f) => f.id));
      for (const blob of await this.store.blobs(accountId)) {
        if (named.has(blob.sha256) || blob.storedAt > before) continue;
        // Asked again just before: a file of the same bytes may have been made since the list
        // above was read (it touches the blob when it takes it).
        const storedAt = await this.store.storedAt(accountId, blob.sha256);
        if (storedAt === undefined || storedAt > before) continue;
        if ((await models.referencing(accountId, fileModel.type, 'sha256', blob.sha256)).length > 0)
          continue;
        await this.store.remove(accountId, blob.sha256);
        blobs += 1;
      }
      for (const part of await this.store.parts(accountId)) {
        if (uploading.has(part.fileId) || part.changedAt > before) continue;
        await this.store.discard(accountId, part.fileId);
        parts += 1;
      }
    }
    if (blobs > 0 || parts > 0) this.log.info('files pruned', { blobs, parts });
    return { blobs, parts };
  }
}
