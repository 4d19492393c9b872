import { sql, type ExpressionBuilder, type Selectable } from 'kysely';
import {
  fileModel,
  MODELS,
  releaseModel,
  ticketModel,
  type ModelDefinition,
} from '@plant/shared-schema';
import { attributeText, type Db } from '../db/database';
import type { Database, ModelsTable } from '../db/types';
import { scopeTo } from './account-scope';

export type ModelRow = Selectable<ModelsTable>;

/**
 * Access per asset in a read (DESIGN.md §10): undefined reads every model of the types asked;
 * `roleIds` reads, of the types that belong to an asset, only those of the assets these roles
 * were given (role_assets). The decision which one applies is the AccessDecision's.
 */
/**
 * A snapshot's assets for a user who does not see every asset: its roles' assets, and those of the
 * active service requests assigned to it (`serviceAssets`, service_access).
 */
export type AssetFilter =
  { readonly roleIds: readonly string[]; readonly serviceAssets?: readonly string[] } | undefined;

const UNSCOPED_TYPES = (MODELS as readonly ModelDefinition[])
  .filter((m) => m.asset === undefined)
  .map((m) => m.type);

/** Types whose asset may be absent: without one the model is the account's (its type decides). */
const ASSET_OPTIONAL_TYPES = (MODELS as readonly ModelDefinition[])
  .filter((m) => m.asset !== undefined && m.assetOptional === true)
  .map((m) => m.type);

function assetsOfRoles(accountId: string, filter: NonNullable<AssetFilter>) {
  return (eb: ExpressionBuilder<Database, 'models'>) => {
    const given = eb
      .selectFrom('role_assets')
      .select('role_assets.asset_id')
      .where('role_assets.account_id', '=', accountId)
      .where('role_assets.role_id', 'in', filter.roleIds.length === 0 ? [''] : filter.roleIds);
    return eb.or([
      eb('models.type', 'in', UNSCOPED_TYPES.length === 0 ? [''] : UNSCOPED_TYPES),
      eb('models.asset_id', 'in', given),
      ...(filter.serviceAssets === undefined || filter.serviceAssets.length === 0
        ? []
        : [eb('models.asset_id', 'in', filter.serviceAssets)]),
      eb.and([
        eb('models.type', 'in', ASSET_OPTIONAL_TYPES.length === 0 ? [''] : ASSET_OPTIONAL_TYPES),
        eb('models.asset_id', 'is', null),
      ]),
    ]);
  };
}

/** Owners whose files go with the owner's type, not with the files' (access-decision.ts). */
const FILE_OWNERS: readonly string[] = [ticketModel.type, releaseModel.type];

/**
 * Models of the types a user sees, as the snapshot reads them: a ticket's photo (a file under a
 * ticket) goes with the tickets, a release's artifact with the releases, not with the files
 * (access-decision.ts seesStored).
 */
function ofTypes(types: readonly string[]) {
  const files = types.includes(fileModel.type);
  const owners = FILE_OWNERS.filter((t) => types.includes(t));
  const listed = !files && owners.length > 0 ? [...types, fileModel.type] : types;
  return (eb: ExpressionBuilder<Database, 'models'>) => {
    const inList = eb('models.type', 'in', listed);
    if (!listed.includes(fileModel.type)) return inList;
    return eb.and([
      inList,
      eb.or([
        eb('models.type', '<>', fileModel.type),
        ...(files ? [eb('models.parent_type', 'not in', FILE_OWNERS)] : []),
        ...(owners.length > 0 ? [eb('models.parent_type', 'in', owners)] : []),
      ]),
    ]);
  };
}

/** Synced models, always within one account. */
export class ModelRepository {
  constructor(private readonly db: Db) {}

  find(accountId: string, type: string, id: string): Promise<ModelRow | undefined> {
    return scopeTo(this.db, accountId)
      .selectFrom('models')
      .selectAll()
      .where('type', '=', type)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** The models of `type` among these ids (those that exist). */
  findMany(accountId: string, type: string, ids: readonly string[]): Promise<ModelRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return scopeTo(this.db, accountId)
      .selectFrom('models')
      .selectAll()
      .where('type', '=', type)
      .where('id', 'in', ids)
      .execute();
  }

  /**
   * A model of `type` whose id is `ref`, or else whose attribute `field` equals it (a gateway by its
   * serial). The id wins; among several with that attribute, the lowest id.
   */
  findByIdOrAttribute(
    accountId: string,
    type: string,
    field: string,
    ref: string,
  ): Promise<ModelRow | undefined> {
    return scopeTo(this.db, accountId)
      .selectFrom('models')
      .selectAll()
      .where('type', '=', type)
      .where((eb) => eb.or([eb('id', '=', ref), eb(attributeText(this.db, field), '=', ref)]))
      .orderBy(sql`id = ${ref}`, 'desc')
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
  }

  /**
   * A model of `type` by its id in whichever account (ids are global): for the server's own
   * lookups that start from a verified id (a gateway's stored presence), never for a client's.
   */
  findAnyById(type: string, id: string): Promise<ModelRow | undefined> {
    return this.db
      .selectFrom('models')
      .selectAll()
      .where('id', '=', id)
      .where('type', '=', type)
      .executeTakeFirst();
  }

  /** Whether the id is taken by any model of any account (ids are global). */
  async idTaken(id: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('models')
      .select('id')
      .where('id', '=', id)
      .executeTakeFirst();
    return row !== undefined;
  }

  async insert(accountId: string, row: Omit<ModelRow, 'account_id'>): Promise<void> {
    await scopeTo(this.db, accountId).insertInto('models', [row]).execute();
  }

  async update(
    accountId: string,
    id: string,
    changes: Pick<
      ModelRow,
      'attributes' | 'last_seq' | 'updated_at' | 'sort_key' | 'parent_id' | 'asset_id'
    >,
  ): Promise<void> {
    await scopeTo(this.db, accountId)
      .updateTable('models')
      .set(changes)
      .where('id', '=', id)
      .execute();
  }

  async remove(accountId: string, id: string): Promise<void> {
    await scopeTo(this.db, accountId).deleteFrom('models').where('id', '=', id).execute();
  }

  children(accountId: string, parentType: string, parentId: string): Promise<ModelRow[]> {
    return scopeTo(this.db, accountId)
      .selectFrom('models')
      .selectAll()
      .where('parent_type', '=', parentType)
      .where('parent_id', '=', parentId)
      .orderBy('type')
      .orderBy('sort_key')
      .orderBy('id')
      .execute();
  }

  /** Models of `type` whose attribute `field` names `id` (references, registry `refs`). */
  referencing(accountId: string, type: string, field: string, id: string): Promise<ModelRow[]> {
    return scopeTo(this.db, accountId)
      .selectFrom('models')
      .selectAll()
      .where('type', '=', type)
      .where(attributeText(this.db, field), '=', id)
      .orderBy('id')
      .execute();
  }

  /** Every model of these types in the account (a gateway's configuration, the stream directory). */
  allOfTypes(accountId: string, types: readonly string[]): Promise<ModelRow[]> {
    if (types.length === 0) return Promise.resolve([]);
    return scopeTo(this.db, accountId)
      .selectFrom('models')
      .selectAll()
      .where('type', 'in', types)
      .orderBy('id')
      .execute();
  }

  /**
   * The accounts that hold models of this type. Across accounts on purpose: at start, the
   * machine-data services serve every account's gateways (each is then read in its own scope).
   */
  async accountsWithType(type: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('models')
      .select('account_id')
      .where('type', '=', type)
      .distinct()
      .execute();
    return rows.map((r) => r.account_id);
  }

  /** How many models of the given types the account has. */
  async count(accountId: string, types: readonly string[], assets?: AssetFilter): Promise<number> {
    if (types.length === 0) return 0;
    let query = scopeTo(this.db, accountId)
      .selectFrom('models')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where(ofTypes(types));
    if (assets !== undefined) query = query.where(assetsOfRoles(accountId, assets));
    const row = await query.executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** One page of the account's models of the given types, in id order, after `afterId`. */
  page(
    accountId: string,
    types: readonly string[],
    afterId: string,
    limit: number,
    assets?: AssetFilter,
  ) {
    if (types.length === 0) return Promise.resolve([]);
    let query = scopeTo(this.db, accountId)
      .selectFrom('models')
      .selectAll()
      .where(ofTypes(types))
      .where('id', '>', afterId);
    if (assets !== undefined) query = query.where(assetsOfRoles(accountId, assets));
    return query.orderBy('id').limit(limit).execute();
  }

  /**
   * The first models of a list in list order (sort key, then id): of a type, or of a type under
   * one parent. Reads the list-order indexes.
   */
  firstInOrder(
    accountId: string,
    type: string,
    parent: { readonly type: string; readonly id: string } | undefined,
    limit: number,
    assets?: AssetFilter,
  ) {
    let query = scopeTo(this.db, accountId)
      .selectFrom('models')
      .selectAll()
      .where('type', '=', type);
    // The files list shown first is an asset's or a template's: tickets' photos come by the pages.
    if (type === fileModel.type) query = query.where('parent_type', 'not in', FILE_OWNERS);
    if (assets !== undefined) query = query.where(assetsOfRoles(accountId, assets));
    if (parent !== undefined) {
      query = query.where('parent_type', '=', parent.type).where('parent_id', '=', parent.id);
    }
    return query.orderBy('sort_key').orderBy('id').limit(limit).execute();
  }
}
