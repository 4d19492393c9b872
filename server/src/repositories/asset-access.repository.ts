import type { Db } from '../db/database';
import { scopeTo } from './account-scope';

/** What the active roles of one user grant (DESIGN.md §10), as stored. */
export interface StoredGrants {
  /** The roles that open every asset of the account. */
  readonly allAssets: readonly string[];
  readonly assets: readonly {
    readonly role_id: string;
    readonly asset_id: string;
    edit: boolean;
  }[];
  readonly fields: readonly {
    readonly role_id: string;
    readonly type: string;
    readonly fields: readonly string[];
  }[];
  /** The assets of the active service requests assigned to the user (it sees, not edits, them). */
  readonly serviceAssets?: readonly string[];
}

function parseFields(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((f): f is string => typeof f === 'string') : [];
  } catch {
    return [];
  }
}

/** Roles' access to assets and fields, always within one account. */
export class AssetAccessRepository {
  constructor(private readonly db: Db) {}

  async grantsOf(
    accountId: string,
    roleIds: readonly string[],
    userId?: string,
  ): Promise<StoredGrants> {
    if (roleIds.length === 0) return { allAssets: [], assets: [], fields: [] };
    const scope = scopeTo(this.db, accountId);
    const [roles, assets, fields, service] = await Promise.all([
      scope.selectFrom('roles').select(['id', 'all_assets']).where('id', 'in', roleIds).execute(),
      scope
        .selectFrom('role_assets')
        .select(['role_id', 'asset_id', 'edit'])
        .where('role_id', 'in', roleIds)
        .execute(),
      scope
        .selectFrom('role_fields')
        .select(['role_id', 'type', 'fields'])
        .where('role_id', 'in', roleIds)
        .execute(),
      userId === undefined
        ? Promise.resolve([])
        : scope
            .selectFrom('service_access')
            .select('asset_id')
            .where('user_id', '=', userId)
            .execute(),
    ]);
    return {
      allAssets: roles.filter((r) => Number(r.all_assets) === 1).map((r) => r.id),
      assets: assets.map((a) => ({ role_id: a.role_id, asset_id: a.asset_id, edit: a.edit === 1 })),
      fields: fields.map((f) => ({
        role_id: f.role_id,
        type: f.type,
        fields: parseFields(f.fields),
      })),
      serviceAssets: service.map((row) => row.asset_id),
    };
  }

  /** The key button: the role sees every asset (true), or only those given to it (false). */
  async setAllAssets(accountId: string, roleId: string, all: boolean): Promise<void> {
    await scopeTo(this.db, accountId)
      .updateTable('roles')
      .set({ all_assets: all ? 1 : 0 })
      .where('id', '=', roleId)
      .execute();
  }

  /** Gives the role an asset (dragged onto it), with edit rights or not (the pencil). */
  async grant(accountId: string, roleId: string, assetId: string, edit: boolean): Promise<void> {
    await scopeTo(this.db, accountId)
      .insertInto('role_assets', [{ role_id: roleId, asset_id: assetId, edit: edit ? 1 : 0 }])
      .onConflict((oc) => oc.columns(['role_id', 'asset_id']).doUpdateSet({ edit: edit ? 1 : 0 }))
      .execute();
  }

  async revoke(accountId: string, roleId: string, assetId: string): Promise<void> {
    await scopeTo(this.db, accountId)
      .deleteFrom('role_assets')
      .where('role_id', '=', roleId)
      .where('asset_id', '=', assetId)
      .execute();
  }

  /** The roles the asset was given to. */
  async rolesGiven(accountId: string, assetId: string): Promise<string[]> {
    const rows = await scopeTo(this.db, accountId)
      .selectFrom('role_assets')
      .select('role_id')
      .where('asset_id', '=', assetId)
      .execute();
    return rows.map((r) => r.role_id);
  }

  /** An asset that is deleted leaves every role's list (same transaction as the delete). */
  async forgetAsset(accountId: string, assetId: string): Promise<void> {
    await scopeTo(this.db, accountId)
      .deleteFrom('role_assets')
      .where('asset_id', '=', assetId)
      .execute();
  }

  /** The fields of `type` the role sees; null: every field. */
  async setFields(
    accountId: string,
    roleId: string,
    type: string,
    fields: readonly string[] | null,
  ): Promise<void> {
    const scope = scopeTo(this.db, accountId);
    if (fields === null) {
      await scope
        .deleteFrom('role_fields')
        .where('role_id', '=', roleId)
        .where('type', '=', type)
        .execute();
      return;
    }
    const json = JSON.stringify([...new Set(fields)].sort());
    await scope
      .insertInto('role_fields', [{ role_id: roleId, type, fields: json }])
      .onConflict((oc) => oc.columns(['role_id', 'type']).doUpdateSet({ fields: json }))
      .execute();
  }

  /** Every role's assets and fields in the account (the roles screen). */
  async allOf(accountId: string) {
    const scope = scopeTo(this.db, accountId);
    const [assets, fields] = await Promise.all([
      scope
        .selectFrom('role_assets')
        .select(['role_id', 'asset_id', 'edit'])
        .orderBy('asset_id')
        .execute(),
      scope
        .selectFrom('role_fields')
        .select(['role_id', 'type', 'fields'])
        .orderBy('type')
        .execute(),
    ]);
    return {
      assets: assets.map((a) => ({ role_id: a.role_id, asset_id: a.asset_id, edit: a.edit === 1 })),
      fields: fields.map((f) => ({
        role_id: f.role_id,
        type: f.type,
        fields: parseFields(f.fields),
      })),
    };
  }
}
