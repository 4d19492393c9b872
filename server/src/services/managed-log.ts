import {
  accountModel,
  memberModel,
  roleModel,
  ROLE_SLUGS,
  tagModel,
  type ModelUpdate,
  type SyncedModel,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import { AccountRepository, type AccountRow } from '../repositories/account.repository';
import { AccessRepository } from '../repositories/access.repository';
import { AssetAccessRepository } from '../repositories/asset-access.repository';
import { ChangeLogRepository } from '../repositories/change-log.repository';
import { RoleRepository } from '../repositories/role.repository';
import { UserRepository } from '../repositories/user.repository';
import { ThemeResolver } from '../themes/theme-resolver';
import { toAccountView } from './account.service';

type Draft = Omit<ModelUpdate, 'seq' | 'ts' | 'muid'>;

const FIXED: readonly string[] = [ROLE_SLUGS.admin, ROLE_SLUGS.norole];

function synced(type: string, id: string, parentId: string, attributes: object): SyncedModel {
  return {
    type,
    id,
    parent_type: 'account',
    parent_id: parentId,
    attributes: attributes as Record<string, unknown>,
    last_seq: 0,
  };
}

/** Every role of the account as the synced `role` model (models/managed.ts). */
export async function roleModels(db: Db, accountId: string): Promise<SyncedModel[]> {
  const roles = new RoleRepository(db);
  const [rows, permissions, access] = await Promise.all([
    roles.listWithMembers(accountId),
    roles.permissionsByRole(accountId),
    new AssetAccessRepository(db).allOf(accountId),
  ]);
  return rows.map((r) =>
    synced(roleModel.type, r.id, accountId, {
      name: r.name,
      slug: r.slug,
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
    }),
  );
}

/** Every member of the account as the synced `user` model. */
export async function memberModels(db: Db, accountId: string): Promise<SyncedModel[]> {
  return (await new UserRepository(db).membersOf(accountId)).map(({ id, ...attributes }) =>
    synced(memberModel.type, id, accountId, attributes),
  );
}

/** The account's own tags as the synced `tag` model, with their holders among its members. */
export async function tagModels(db: Db, accountId: string): Promise<SyncedModel[]> {
  return (await new AccessRepository(db).accountTags(accountId)).map(({ id, ...attributes }) =>
    synced(tagModel.type, id, accountId, attributes),
  );
}

/**
 * An account as the synced `account` model, in the log or snapshot of `inAccount`: its parent is
 * named below the top of what that account's members see (the account itself is their top). Its
 * design is resolved by `themes` (one resolver for a snapshot's many accounts).
 */
export async function accountModelOf(
  row: AccountRow,
  inAccount: string,
  themes: ThemeResolver,
): Promise<SyncedModel> {
  const view = toAccountView(
    row,
    new Set(),
    await themes.designOf(row),
    await themes.textsVersionOf(row),
  );
  const parent = row.id === inAccount ? null : row.parent_id;
  return synced(accountModel.type, row.id, parent ?? '', {
    name: view.name,
    parent_id: parent,
    active: view.active,
    theme_id: view.theme_id,
    host: view.host,
    theme: view.theme,
    texts_version: view.texts_version,
  });
}

/**
 * The whole state of the managed models a change touched, logged in the caller's transaction
 * (DESIGN.md invariant 2): each as `updated` with every attribute, or `item_deleted` when it is
 * gone, in the log of every account whose members may see it. `commit` stamps them.
 */
export class ManagedLog {
  private readonly drafts = new Map<string, Draft[]>();

  constructor(private readonly db: Db) {}

  private add(accountId: string, draft: Draft): void {
    this.drafts.set(accountId, [...(this.drafts.get(accountId) ?? []), draft]);
  }

  /** The models of `type` with these ids as they are now in `current` (absent: deleted). */
  private states(
    accountId: string,
    type: string,
    ids: Iterable<string>,
    current: readonly SyncedModel[],
  ): void {
    for (const id of new Set(ids)) {
      const model = current.find((m) => m.id === id);
      this.add(
        accountId,
        model === undefined
          ? { action: 'item_deleted', type, id }
          : { action: 'updated', type, id, attributes: model.attributes },
      );
    }
  }

  /** Roles as they are now (gone: deleted). */
  async roles(accountId: string, roleIds: Iterable<string>): Promise<void> {
    this.states(accountId, roleModel.type, roleIds, await roleModels(this.db, accountId));
  }

  /** Members as they are now (no longer a member: deleted). */
  async members(accountId: string, userIds: Iterable<string>): Promise<void> {
    this.states(accountId, memberModel.type, userIds, await memberModels(this.db, accountId));
  }

  /** Tags as they are now (gone: deleted). */
  async tags(accountId: string, tagIds: Iterable<string>): Promise<void> {
    this.states(accountId, tagModel.type, tagIds, await tagModels(this.db, accountId));
  }

  /** A user's profile moved: its member model in every account it belongs to. */
  async memberEverywhere(userId: string): Promise<void> {
    const accounts = await new AccountRepository(this.db).allForMember(userId);
    for (const account of accounts) await this.members(account.id, [userId]);
  }

  /**
   * An account as it is now, in its own log and in each account above it. `leftFrom`: the
   * accounts it was below before a move, which no longer see it (nor anything under it).
   */
  async account(accountId: string, leftFrom: readonly string[] = []): Promise<void> {
    const accounts = new AccountRepository(this.db);
    const chain = await accounts.chainUp(accountId);
    const row = chain[0];
    if (row === undefined) return;
    const under = leftFrom.length === 0 ? [] : [row, ...(await accounts.below(accountId))];
    const above = new Set(chain.map((a) => a.id));
    for (const old of leftFrom.filter((a) => !above.has(a))) {
      for (const gone of under)
        this.add(old, { action: 'item_deleted', type: 'account', id: gone.id });
    }
    const themes = new ThemeResolver(this.db);
    for (const viewer of chain) {
      this.states(
        viewer.id,
        accountModel.type,
        [row.id],
        [await accountModelOf(row, viewer.id, themes)],
      );
    }
    if (leftFrom.length === 0) return;
    // What moved with it appears in the trees of its new ancestors.
    for (const viewer of chain.slice(1).filter((a) => !leftFrom.includes(a.id))) {
      const children = under.slice(1);
      this.states(
        viewer.id,
        accountModel.type,
        children.map((c) => c.id),
        await Promise.all(children.map((c) => accountModelOf(c, viewer.id, themes))),
      );
    }
  }

  /** Stamps and appends everything gathered; the updates per account, for the feed. */
  async commit(nowMs: number): Promise<Map<string, ModelUpdate[]>> {
    const log = new ChangeLogRepository(this.db);
    const out = new Map<string, ModelUpdate[]>();
    for (const [accountId, drafts] of this.drafts) {
      out.set(accountId, await log.record(accountId, drafts, nowMs));
    }
    this.drafts.clear();
    return out;
  }
}
