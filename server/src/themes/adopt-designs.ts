import {
  contrastRatio,
  MIN_TEXT_CONTRAST,
  THEME_TEXT_COLOR,
  uuidv7,
  type ThemeImageField,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import type { BlobStore } from '../files/blob-store';
import type { Clock } from '../lib/clock';
import type { Logger } from '../logger';
import { ChangeFeed } from '../services/change-feed';
import { ManagedLog } from '../services/managed-log';
import { ModelService } from '../services/model.service';
import { relogBelow } from './theme-rules';

/** An image of issue 30's design as its address named it: the account's blob of that checksum. */
const LEGACY_IMAGE = /^\/api\/v1\/design-images\/([^/]+)\/([0-9a-f]{64})\.(png|jpg|webp|gif)$/;
const TYPES: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
};

/** The legacy columns and the theme's image fields they become. */
const IMAGES = [
  ['login_image', 'login_image'],
  ['logo_mobile', 'logo_mobile'],
  ['logo_desktop', 'logo_desktop'],
] as const satisfies readonly (readonly [string, ThemeImageField])[];

/** The checksums of an account's legacy design images still waiting to move (for the pruner). */
export async function legacyDesignBlobs(db: Db, accountId: string): Promise<string[]> {
  const row = await db
    .selectFrom('accounts')
    .select(['login_image', 'logo_mobile', 'logo_desktop'])
    .where('id', '=', accountId)
    .executeTakeFirst();
  if (row === undefined) return [];
  return Object.values(row).flatMap((value) => {
    const match = typeof value === 'string' ? LEGACY_IMAGE.exec(value) : null;
    return match?.[1] === accountId && match[2] !== undefined ? [match[2]] : [];
  });
}

/**
 * Moves each account's design of issue 30 (colours, title, images in its own columns) into a
 * theme of its own that the account picks (issue 36: a theme is the one place these fields live),
 * once, at start, inside the startup lock: its images become files of the theme (the same blobs),
 * each step logged as any write so browsers catch up. What cannot move stays where it was and is
 * logged: an image at another address, a blob that is gone, a colour white text cannot be read
 * on (themes refuse those), so nothing is thrown away. Answers how many accounts moved.
 */
export async function adoptDesigns(
  db: Db,
  clock: Clock,
  log: Logger,
  blobs: BlobStore,
): Promise<number> {
  const rows = await db
    .selectFrom('accounts')
    .selectAll()
    // Once moved, the account has its theme: what stayed behind is not moved again.
    .where('theme_id', 'is', null)
    .where((eb) =>
      eb.or(
        (['color1', 'color2', 'title', 'logo_desktop', 'logo_mobile', 'login_image'] as const).map(
          (column) => eb(column, 'is not', null),
        ),
      ),
    )
    .execute();
  let moved = 0;
  for (const account of rows) {
    const colour = (value: string | null) =>
      value !== null && contrastRatio(value, THEME_TEXT_COLOR) >= MIN_TEXT_CONTRAST ? value : null;
    const kept: Record<string, string | null> = {};
    const images: {
      field: ThemeImageField;
      column: string;
      sha256: string;
      type: string;
      size: number;
    }[] = [];
    for (const [column, field] of IMAGES) {
      const value = account[column];
      if (value === null) continue;
      const match = LEGACY_IMAGE.exec(value);
      const size =
        match?.[1] === account.id && match[2] !== undefined
          ? await blobs.size(account.id, match[2])
          : undefined;
      if (
        match === null ||
        size === undefined ||
        match[2] === undefined ||
        match[3] === undefined
      ) {
        kept[column] = value;
        continue;
      }
      images.push({ field, column, sha256: match[2], type: TYPES[match[3]] ?? 'image/png', size });
    }
    for (const column of ['color1', 'color2'] as const) {
      if (account[column] !== null && colour(account[column]) === null)
        kept[column] = account[column];
    }
    await db.transaction().execute(async (trx) => {
      const models = new ModelService(trx, clock, new ChangeFeed());
      const themeId = uuidv7();
      const body: Record<string, unknown> = {
        title: account.title ?? account.name,
        color1: colour(account.color1),
        color2: colour(account.color2),
      };
      await models.applyIn(
        trx,
        account.id,
        { kind: 'create', collection: 'themes', body: { ...body, id: themeId } },
        true,
      );
      const named: Record<string, string> = {};
      for (const image of images) {
        const fileId = uuidv7();
        await models.applyIn(
          trx,
          account.id,
          {
            kind: 'create',
            collection: 'files',
            body: {
              id: fileId,
              theme_id: themeId,
              kind: 'image',
              name: `${image.field}.${image.type.slice(6)}`,
              type: image.type,
              size: image.size,
              sha256: image.sha256,
              state: 'ready',
            },
          },
          true,
        );
        named[image.field] = fileId;
      }
      if (Object.keys(named).length > 0)
        await models.applyIn(
          trx,
          account.id,
          { kind: 'update', collection: 'themes', id: themeId, body: named },
          true,
        );
      await trx
        .updateTable('accounts')
        .set({
          theme_id: themeId,
          color1: kept.color1 ?? null,
          color2: kept.color2 ?? null,
          title: null,
          logo_desktop: kept.logo_desktop ?? null,
          logo_mobile: kept.logo_mobile ?? null,
          login_image: kept.login_image ?? null,
        })
        .where('id', '=', account.id)
        .execute();
      const managed = new ManagedLog(trx);
      await managed.account(account.id);
      await relogBelow(trx, managed, account.id);
      await managed.commit(clock.now());
    });
    if (Object.keys(kept).length > 0)
      log.warn('part of an account design could not move into its theme and stays in its columns', {
        account: account.id,
        fields: Object.keys(kept).join(', '),
      });
    moved += 1;
  }
  return moved;
}
