import type { z } from 'zod';
import {
  can,
  choosableFields,
  FIELD_TYPES,
  KNOWN_PERMISSIONS,
  modelByType,
  ROLE_HAS_MEMBERS,
  ROLE_IS_FIXED,
  ROLE_NAME_TAKEN,
  ROLE_SLUGS,
  roleAttributesSchema,
  UNKNOWN_PERMISSION,
  uuidv7,
  type FieldType,
} from '@plant/shared-schema';
import { isUniqueViolation, type Db } from '../db/database';
import { AssetAccessRepository } from '../repositories/asset-access.repository';
import { ModelRepository } from '../repositories/model.repository';
import { RoleRepository } from '../repositories/role.repository';
import { administers, NOT_YOURS_TO_GIVE } from './account-access';
import { DomainError, forbidden, invalidInput, notFound } from './domain-error';
import { roleModels } from './managed-log';
import type { Session } from './user.service';

/** A client-chosen id that is in use (in any account: which one is not told). */
export const idTaken = () =>
  new DomainError('conflict', 'This id is taken.', { fields: { id: ['This id is taken.'] } });

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

/** What a write of the synced `role` model may change (the others are the server's). */
export const roleChangeSchema = roleAttributesSchema
  .pick({
    name: true,
    permissions: true,
    all_assets: true,
    assets: true,
    fields: true,
    base: true,
  })
  .partial();
export type RoleChange = Partial<z.output<typeof roleChangeSchema>>;

/**
 * The list a write wants, given what its writer saw (`base`): what it added and took away (and
 * changed, by `same`) applied to the stored list, so a write queued offline keeps another admin's
 * changes made meanwhile. Without a base the written list is the answer.
 */
export function mergeList<T>(
  stored: readonly T[],
  written: readonly T[],
  base: readonly T[] | undefined,
  key: (item: T) => string,
  same: (a: T, b: T) => boolean = () => true,
): T[] {
  if (base === undefined) return [...written];
  const before = new Map(base.map((b) => [key(b), b]));
  const after = new Map(written.map((w) => [key(w), w]));
  const result = new Map(stored.map((s) => [key(s), s]));
  for (const k of before.keys()) if (!after.has(k)) result.delete(k);
  for (const [k, w] of after) {
    const was = before.get(k);
    if (was === undefined || !same(was, w)) result.set(k, w);
  }
  return [...result.values()];
}

/**
 * The changes of an account's roles (spec 001 §6), inside the caller's transaction, each with
 * its rule: admin and norole stay as they are, a name is taken once, below admin nobody gives
 * what it lacks nor changes its own roles, and an asset given must be one the giver sees (edit
 * rights: one it edits). The roles routes and the generic `roles` writes both come here.
 */
export class RoleOps {
  private readonly roles: RoleRepository;
  private readonly access: AssetAccessRepository;

  constructor(
    private readonly trx: Db,
    private readonly session: Session,
    private readonly accountId: string,
  ) {
    this.roles = new RoleRepository(trx);
    this.access = new AssetAccessRepository(trx);
  }

  async create(id: string, name: string): Promise<void> {
    const existing = await this.roles.listWithMembers(this.accountId);
    if (existing.some((r) => r.id === id)) throw idTaken();
    this.refuseTakenName(existing, name);
    const slug = slugOf(name, new Set(existing.map((r) => r.slug)));
    try {
      await this.roles.addRoles(this.accountId, [{ id, slug, name }]);
    } catch (err) {
      // Another account's role has it: the same answer as for one of this account's.
      if (isUniqueViolation(err, 'roles', 'id')) throw idTaken();
      throw err;
    }
    // A new role sees no asset until given some (or the key button): nothing by default.
    await this.access.setAllAssets(this.accountId, id, false);
  }

  /** A role that may be changed: of the account, not admin or norole, not one's own below admin. */
  async changeable(roleId: string) {
    const role = await this.roles.find(this.accountId, roleId);
    if (role === undefined) throw notFound('Role');
    if (FIXED.includes(role.slug)) throw forbidden(ROLE_IS_FIXED);
    if (!administers(this.session) && this.session.activeRoles.some((r) => r.id === roleId)) {
      throw forbidden(NOT_YOURS_TO_GIVE);
    }
    return role;
  }

  async rename(roleId: string, name: string): Promise<void> {
    await this.changeable(roleId);
    this.refuseTakenName(
      (await this.roles.listWithMembers(this.accountId)).filter((r) => r.id !== roleId),
      name,
    );
    await this.roles.rename(this.accountId, roleId, name);
  }

  async remove(roleId: string): Promise<void> {
    await this.changeable(roleId);
    const row = (await this.roles.listWithMembers(this.accountId)).find((r) => r.id === roleId);
    if (row !== undefined && row.members > 0) throw new DomainError('conflict', ROLE_HAS_MEMBERS);
    await this.roles.remove(this.accountId, roleId);
  }

  /** The role's permissions become these; below admin, none may be added that one lacks. */
  async setPermissions(roleId: string, names: readonly string[]): Promise<void> {
    await this.changeable(roleId);
    if (names.some((n) => !KNOWN_PERMISSIONS.has(n))) {
      throw invalidInput({ permissions: [UNKNOWN_PERMISSION] });
    }
    const had = new Set(
      (await this.roles.permissionsByRole(this.accountId)).get(roleId) ?? ([] as string[]),
    );
    const added = names.filter((n) => !had.has(n));
    if (!administers(this.session) && added.some((n) => !can(this.session.ctx, n))) {
      throw forbidden(NOT_YOURS_TO_GIVE);
    }
    await this.roles.setPermissions(
      this.accountId,
      roleId,
      [...new Set(names)].map((name) => ({ id: uuidv7(), name })),
    );
  }

  async setAllAssets(roleId: string, all: boolean): Promise<void> {
    await this.changeable(roleId);
    if (all && !this.session.access.allAssets) throw forbidden(NOT_YOURS_TO_GIVE);
    await this.access.setAllAssets(this.accountId, roleId, all);
  }

  async giveAsset(roleId: string, assetId: string, edit: boolean): Promise<void> {
    await this.changeable(roleId);
    const asset = await new ModelRepository(this.trx).find(this.accountId, 'asset', assetId);
    if (asset === undefined || !this.session.access.seesAsset(assetId)) throw notFound('Asset');
    if (edit && !this.session.access.editsAsset(assetId)) throw forbidden(NOT_YOURS_TO_GIVE);
    await this.access.grant(this.accountId, roleId, assetId, edit);
  }

  async takeAsset(roleId: string, assetId: string): Promise<void> {
    await this.changeable(roleId);
    await this.access.revoke(this.accountId, roleId, assetId);
  }

  /** The fields of `type` the role shows; null: all of them. */
  async setFields(roleId: string, type: FieldType, fields: readonly string[] | null) {
    await this.changeable(roleId);
    const def = modelByType(type);
    if (def === undefined) throw notFound('Model');
    if (fields !== null) {
      const choosable = new Set(choosableFields(def));
      const unknown = fields.filter((f) => !choosable.has(f));
      if (unknown.length > 0) {
        throw invalidInput({ fields: [`Unknown field: ${unknown.join(', ')}.`] });
      }
    }
    await this.access.setFields(this.accountId, roleId, type, fields);
  }

  /**
   * A change of the synced `role` model (its whole lists, as an offline admin queued them): what
   * differs from the stored role goes through the rules above, step by step.
   */
  async apply(roleId: string, change: RoleChange): Promise<void> {
    const current = (await roleModels(this.trx, this.accountId)).find((r) => r.id === roleId);
    if (current === undefined) throw notFound('Role');
    const now = roleAttributesSchema.parse(current.attributes);
    if (change.name !== undefined && change.name !== now.name)
      await this.rename(roleId, change.name);
    if (change.permissions !== undefined) {
      const wanted = mergeList(
        now.permissions,
        change.permissions,
        change.base?.permissions,
        (p) => p,
      );
      const same =
        wanted.length === now.permissions.length &&
        wanted.every((p) => now.permissions.includes(p));
      if (!same) await this.setPermissions(roleId, wanted);
    }
    if (change.all_assets !== undefined && change.all_assets !== now.all_assets) {
      await this.setAllAssets(roleId, change.all_assets);
    }
    if (change.assets !== undefined) {
      const { access } = this.session;
      // A writer that does not see every asset was shown only those it sees: the others stay.
      const unseen = now.assets.filter((a) => !access.seesAsset(a.asset_id));
      const written = [...change.assets, ...unseen];
      const base = change.base?.assets;
      const wanted = new Map(
        mergeList(
          now.assets,
          written,
          base === undefined ? undefined : [...base, ...unseen],
          (a) => a.asset_id,
          (a, b) => a.edit === b.edit,
        ).map((a) => [a.asset_id, a.edit]),
      );
      for (const had of now.assets) {
        if (!wanted.has(had.asset_id)) await this.takeAsset(roleId, had.asset_id);
      }
      for (const [assetId, edit] of wanted) {
        const had = now.assets.find((a) => a.asset_id === assetId);
        if (had?.edit !== edit) await this.giveAsset(roleId, assetId, edit);
      }
    }
    if (change.fields !== undefined) {
      for (const type of FIELD_TYPES) {
        const wanted = change.fields.find((f) => f.type === type)?.fields ?? null;
        const had = now.fields.find((f) => f.type === type)?.fields ?? null;
        const same =
          wanted === had ||
          (wanted !== null &&
            had !== null &&
            wanted.length === had.length &&
            wanted.every((f) => had.includes(f)));
        if (!same) await this.setFields(roleId, type, wanted);
      }
    }
  }

  private refuseTakenName(roles: readonly { name: string }[], name: string): void {
    const wanted = name.trim().toLowerCase();
    if (roles.some((r) => r.name.trim().toLowerCase() === wanted)) {
      throw new DomainError('conflict', ROLE_NAME_TAKEN, { fields: { name: [ROLE_NAME_TAKEN] } });
    }
  }
}
