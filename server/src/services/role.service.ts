import {
  can,
  ROLE_EDIT_PERMISSION,
  uuidv7,
  type FieldType,
  type RoleAdmin,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import type { Clock } from '../lib/clock';
import { ChangeLogRepository } from '../repositories/change-log.repository';
import type { ChangeFeed } from './change-feed';
import { forbidden, notFound } from './domain-error';
import { ManagedLog, roleModels } from './managed-log';
import { RoleOps } from './role-ops';
import type { Session } from './user.service';

/**
 * An account's roles (spec 001 §6) over REST: made, renamed and deleted (never admin or norole),
 * their permissions, and their access per asset and per field (DESIGN.md §10). Reading needs
 * account::view, every change role::edit. The rules are RoleOps' (shared with the synced `role`
 * model's writes); each change is logged as the role's whole state and tells the change feed
 * that access moved, so the broker re-checks the account's browsers at once.
 */
export class RoleService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly feed: ChangeFeed,
  ) {}

  private account(session: Session, permission: string): string {
    const accountId = session.activeAccount?.id;
    if (accountId === undefined || !can(session.ctx, permission)) throw forbidden();
    return accountId;
  }

  async list(session: Session): Promise<RoleAdmin[]> {
    const accountId = this.account(session, 'account::view');
    // Who sees only some assets sees only those in a role's list.
    return (await roleModels(this.db, accountId)).map((m) => ({
      id: m.id,
      ...(session.access.project(m.type, m.attributes) as Omit<RoleAdmin, 'id'>),
    }));
  }

  async create(session: Session, name: string): Promise<RoleAdmin> {
    const id = uuidv7();
    await this.change(session, id, (ops) => ops.create(id, name));
    return this.one(session, id);
  }

  async rename(session: Session, roleId: string, name: string): Promise<RoleAdmin> {
    await this.change(session, roleId, (ops) => ops.rename(roleId, name));
    return this.one(session, roleId);
  }

  async remove(session: Session, roleId: string): Promise<void> {
    await this.change(session, roleId, (ops) => ops.remove(roleId));
  }

  async setPermissions(
    session: Session,
    roleId: string,
    names: readonly string[],
  ): Promise<RoleAdmin> {
    await this.change(session, roleId, (ops) => ops.setPermissions(roleId, names));
    return this.one(session, roleId);
  }

  async setAllAssets(session: Session, roleId: string, all: boolean): Promise<RoleAdmin> {
    await this.change(session, roleId, (ops) => ops.setAllAssets(roleId, all));
    return this.one(session, roleId);
  }

  async giveAsset(
    session: Session,
    roleId: string,
    assetId: string,
    edit: boolean,
  ): Promise<RoleAdmin> {
    await this.change(session, roleId, (ops) => ops.giveAsset(roleId, assetId, edit));
    return this.one(session, roleId);
  }

  async takeAsset(session: Session, roleId: string, assetId: string): Promise<RoleAdmin> {
    await this.change(session, roleId, (ops) => ops.takeAsset(roleId, assetId));
    return this.one(session, roleId);
  }

  async setFields(
    session: Session,
    roleId: string,
    type: FieldType,
    fields: readonly string[] | null,
  ): Promise<RoleAdmin> {
    await this.change(session, roleId, (ops) => ops.setFields(roleId, type, fields));
    return this.one(session, roleId);
  }

  /** One change of one role of the active account, logged in the same transaction. */
  private async change(
    session: Session,
    roleId: string,
    work: (ops: RoleOps) => Promise<void>,
  ): Promise<void> {
    const accountId = this.account(session, ROLE_EDIT_PERMISSION);
    const updates = await this.db.transaction().execute(async (trx) => {
      await new ChangeLogRepository(trx).lock(accountId);
      await work(new RoleOps(trx, session, accountId));
      const log = new ManagedLog(trx);
      await log.roles(accountId, [roleId]);
      return log.commit(this.clock.now());
    });
    for (const [account, list] of updates) this.feed.publish(account, list);
    this.feed.accessChanged(accountId);
  }

  private async one(session: Session, roleId: string): Promise<RoleAdmin> {
    const found = (await this.list(session)).find((r) => r.id === roleId);
    if (found === undefined) throw notFound('Role');
    return found;
  }
}
