import type { Db } from '../db/database';
import { AssetAccessRepository } from '../repositories/asset-access.repository';

/**
 * The demo role `slug` of the account opened to every asset and field (the key button on, no
 * field list): for tests about what type permissions decide, with the technician as the user.
 */
export async function openEveryAsset(db: Db, accountId: string, slug: string): Promise<string> {
  const id = await roleId(db, accountId, slug);
  await new AssetAccessRepository(db).setAllAssets(accountId, id, true);
  await db.deleteFrom('role_fields').where('role_id', '=', id).execute();
  return id;
}

/** The id of the account's role `slug`. */
export async function roleId(db: Db, accountId: string, slug: string): Promise<string> {
  const role = await db
    .selectFrom('roles')
    .select('id')
    .where('account_id', '=', accountId)
    .where('slug', '=', slug)
    .executeTakeFirstOrThrow();
  return role.id;
}
