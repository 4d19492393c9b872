import {
  can,
  choosableFields,
  modelByType,
  ROLE_EDIT_PERMISSION,
  ROLE_HAS_MEMBERS,
  ROLE_IS_FIXED,
  ROLE_NAME_TAKEN,
  ROLE_SLUGS,
  uuidv7,
  type FieldType,
  type RoleAdmin,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import { AssetAccessRepository } from '../repositories/asset-access.repository';
import { ModelRepository } from '../repositories/model.repository';
import { RoleRepository } from '../repositories/role.repository';
import { administers, NOT_YOURS_TO_GIVE } from './account-access';
import type { ChangeFeed } from './change-feed';
import { DomainError, forbidden, invalidInput, notFound } from './domain-error';
import type { Session } from './user.service';

const FIXED: readonly string[] = [ROLE_SLUGS.admin, ROLE_SLUGS.norole];

/** A role's slug from its name: lower case, words joined by '-', unique in the account. */
function slugOf(name: string, taken: ReadonlySet<string>): string {
  const base =
    name
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'role';
  let slug = base;
  for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
  return slug;
}

/**
 * An account's roles (spec 001 §6): made, renamed and deleted (never admin or norole), their
 * permissions, and their access per asset and per field (DESIGN.md §10). Reading needs
 * account::view, every change role::edit. A change tells the change feed that access moved, so
 * the broker re-checks the account's browsers at once (and other processes' through the cluster).
 */
export class RoleService {
  constructor(
    private readonly db: Db,
    private readonly feed: ChangeFeed,
  ) {}

  private account(session: Session, permission: string): string {
    const accountId = session.activeAccount?.id;
    if (accountId === undefined || !can(session.ctx, permission)) throw forbidden();
    return accountId;
  }

  async list(session: Session): Promise<RoleAdmin[]> {
    const accountId = this.account(session, 'account::view');
    const roles = new RoleRepository(this.db);
    const [rows, permissions, access] = await Promise.all([
      roles.listWithMembers(accountId),
      roles.permissionsByRole(accountId),
      new AssetAccessRepository(this.db).allOf(accountId),
    ]);
    return rows.map((r) => ({
      id: r.id,
      slug: r.slug,
      name: r.name,
      fixed: FIXED.includes(r.slug),
      members: r.members,
      permissions: permissions.get(r.id) ?? [],
      all_assets: Number(r.all_assets) === 1,
      assets: access.assets
        .filter((a) => a.role_id === r.id)
        .map((a) => ({ asset_id: a.asset_id, edit: a.edit })),
      fields: access.fields
        .filter((f) => f.role_id === r.id)
        .map((f) => ({ type: f.type, fields: f.fields })),
    }));
  }

  async create(session: Session, name: string): Promise<RoleAdmin> {
    const accountId = this.account(session, ROLE_EDIT_PERMISSION);
    const id = uuidv7();
    await this.db.transaction().execute(async (trx) => {
      const roles = new RoleRepository(trx);
      const existing = await roles.listWithMembers(accountId);
      this.refuseTakenName(existing, name);
      const slug = slugOf(name, new Set(existing.map((r) => r.slug)));
      await roles.addRoles(accountId, [{ id, slug, name }]);
      // A new role sees no asset until given some (or the key button): nothing by default.
      await new AssetAccessRepository(trx).setAllAssets(accountId, id, false);
    });
    this.feed.accessChanged(accountId);
    return this.one(session, id);
  }

  async rename(session: Session, roleId: string, name: string): Promise<RoleAdmin> {
    await this.change(session, roleId, async (trx, accountId) => {
      const roles = new RoleRepository(trx);
      this.refuseTakenName(
        (await roles.listWithMembers(accountId)).filter((r) => r.id !== roleId),
        name,
      );
      await roles.rename(accountId, roleId, name);
    });
    return this.one(session, roleId);
  }

  async remove(session: Session, roleId: string): Promise<void> {
    await this.change(session, roleId, async (trx, accountId) => {
      const roles = new RoleRepository(trx);
      const row = (await roles.listWithMembers(accountId)).find((r) => r.id === roleId);
      if (row !== undefined && row.members > 0) throw new DomainError('conflict', ROLE_HAS_MEMBERS);
      await roles.remove(accountId, roleId);
    });
  }

  async setPermissions(
    session: Session,
    roleId: string,
    names: readonly string[],
  ): Promise<RoleAdmin> {
    // Below admin, no one gives a role a right it lacks itself.
    if (!administers(session) && names.some((name) => !can(session.ctx, name))) {
      throw forbidden(NOT_YOURS_TO_GIVE);
    }
    await this.change(session, roleId, (trx, accountId) =>
      new RoleRepository(trx).setPermissions(
        accountId,
        roleId,
        [...new Set(names)].map((name) => ({ id: uuidv7(), name })),
      ),
    );
    return this.one(session, roleId);
  }

  async setAllAssets(session: Session, roleId: string, all: boolean): Promise<RoleAdmin> {
    if (all && !session.access.allAssets) throw forbidden(NOT_YOURS_TO_GIVE);
    await this.change(session, roleId, (trx, accountId) =>
      new AssetAccessRepository(trx).setAllAssets(accountId, roleId, all),
    );
    return this.one(session, roleId);
  }

  async giveAsset(
    session: Session,
    roleId: string,
    assetId: string,
    edit: boolean,
  ): Promise<RoleAdmin> {
    await this.change(session, roleId, async (trx, accountId) => {
      const asset = await new ModelRepository(trx).find(accountId, 'asset', assetId);
      if (asset === undefined || !session.access.seesAsset(assetId)) throw notFound('Asset');
      if (edit && !session.access.editsAsset(assetId)) throw forbidden(NOT_YOURS_TO_GIVE);
      await new AssetAccessRepository(trx).grant(accountId, roleId, assetId, edit);
    });
    return this.one(session, roleId);
  }

  async takeAsset(session: Session, roleId: string, assetId: string): Promise<RoleAdmin> {
    await this.change(session, roleId, (trx, accountId) =>
      new AssetAccessRepository(trx).revoke(accountId, roleId, assetId),
    );
    return this.one(session, roleId);
  }

  async setFields(
    session: Session,
    roleId: string,
    type: FieldType,
    fields: readonly string[] | null,
  ): Promise<RoleAdmin> {
    const def = modelByType(type);
    if (def === undefined) throw notFound('Model');
    if (fields !== null) {
      const choosable = new Set(choosableFields(def));
      const unknown = fields.filter((f) => !choosable.has(f));
      if (unknown.length > 0) {
        throw invalidInput({ fields: [`Unknown field: ${unknown.join(', ')}.`] });
      }
    }
    await this.change(session, roleId, (trx, accountId) =>
      new AssetAccessRepository(trx).setFields(accountId, roleId, type, fields),
    );
    return this.one(session, roleId);
  }

  private refuseTakenName(roles: readonly { name: string }[], name: string): void {
    const wanted = name.trim().toLowerCase();
    if (roles.some((r) => r.name.trim().toLowerCase() === wanted)) {
      throw new DomainError('conflict', ROLE_NAME_TAKEN, { fields: { name: [ROLE_NAME_TAKEN] } });
    }
  }

  /** A change of one role of the active account (not admin or norole), in one transaction. */
  private async change(
    session: Session,
    roleId: string,
    work: (trx: Db, accountId: string) => Promise<void>,
  ): Promise<void> {
    const accountId = this.account(session, ROLE_EDIT_PERMISSION);
    await this.db.transaction().execute(async (trx) => {
      const role = await new RoleRepository(trx).find(accountId, roleId);
      if (role === undefined) throw notFound('Role');
      if (FIXED.includes(role.slug)) throw forbidden(ROLE_IS_FIXED);
      if (!administers(session) && session.activeRoles.some((r) => r.id === roleId)) {
        throw forbidden(NOT_YOURS_TO_GIVE);
      }
      await work(trx, accountId);
    });
    this.feed.accessChanged(accountId);
  }

  private async one(session: Session, roleId: string): Promise<RoleAdmin> {
    const found = (await this.list(session)).find((r) => r.id === roleId);
    if (found === undefined) throw notFound('Role');
    return found;
  }
}
