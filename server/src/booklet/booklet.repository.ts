import { attributeText, type Db } from '../db/database';
import { scopeTo } from '../repositories/account-scope';
import type { ModelRow } from '../repositories/model.repository';

/**
 * The service booklet's reads (issue 37 item 3): an asset's newest models of one type, how many
 * it has, and a gateway's rollout parts. Each bounded, so a machine with years of entries costs
 * one page per kind (the `models_account_asset` index finds them).
 */
export class BookletRepository {
  constructor(private readonly db: Db) {}

  /** The asset's models of `type`, newest first by their sort key (a time for every kind here). */
  newestOfAsset(
    accountId: string,
    assetId: string,
    type: string,
    limit: number,
  ): Promise<ModelRow[]> {
    return scopeTo(this.db, accountId)
      .selectFrom('models')
      .selectAll()
      .where('asset_id', '=', assetId)
      .where('type', '=', type)
      .orderBy('sort_key', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  async countOfAsset(accountId: string, assetId: string, type: string): Promise<number> {
    const row = await scopeTo(this.db, accountId)
      .selectFrom('models')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('asset_id', '=', assetId)
      .where('type', '=', type)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** Models of `type` whose `field` names `id`, newest made first (ids are UUIDv7). */
  newestReferencing(
    accountId: string,
    type: string,
    field: string,
    id: string,
    limit: number,
  ): Promise<ModelRow[]> {
    return scopeTo(this.db, accountId)
      .selectFrom('models')
      .selectAll()
      .where('type', '=', type)
      .where(attributeText(this.db, field), '=', id)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }
}
