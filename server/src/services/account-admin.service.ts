import {
  ACCOUNT_EDIT_PERMISSION,
  ACCOUNT_MOVE_CYCLE,
  can,
  type AccountChange,
  type AccountDesign,
  type AccountView,
  type SubaccountRequest,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import { isoAt, type Clock } from '../lib/clock';
import { AccountRepository } from '../repositories/account.repository';
import { RoleRepository } from '../repositories/role.repository';
import { createAccount, toAccountView } from './account.service';
import { DomainError, forbidden, notFound } from './domain-error';
import type { Session } from './user.service';

/**
 * The accounts an admin manages (spec 000 §3, spec 001 §6): its active account and every account
 * below it, with account::view to read and account::edit to change there. Subaccounts are made
 * under any of them (the maker becomes their admin), renamed, moved within the subtree (never
 * under themselves), activated and deactivated, and their design set.
 */
export class AccountAdminService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** The accounts in reach: the active account and its subtree (ids), with that permission. */
  private async reach(session: Session, permission: string): Promise<Map<string, AccountViewRow>> {
    const active = session.activeAccount;
    if (active === null || !can(session.ctx, permission)) throw forbidden();
    const below = await new AccountRepository(this.db).descendantsForMember(session.user.id, [
      active.id,
    ]);
    return new Map([active, ...below].map((a) => [a.id, a]));
  }

  private async inReach(session: Session, id: string, permission: string) {
    const reach = await this.reach(session, permission);
    const account = reach.get(id);
    if (account === undefined) throw notFound('Account');
    return { reach, account };
  }

  private view(session: Session, row: AccountViewRow, reach: ReadonlyMap<string, unknown>) {
    // The parent is named when it is in reach or one of the user's own accounts.
    const known = new Set([...reach.keys(), ...session.memberOf]);
    return toAccountView(row, known);
  }

  async get(session: Session, id: string): Promise<AccountView> {
    const { reach, account } = await this.inReach(session, id, 'account::view');
    return this.view(session, account, reach);
  }

  async create(session: Session, req: SubaccountRequest): Promise<AccountView> {
    const reach = await this.reach(session, ACCOUNT_EDIT_PERMISSION);
    const parentId = req.parent_id ?? session.activeAccount?.id ?? '';
    if (!reach.has(parentId)) throw notFound('Account');
    const at = isoAt(this.clock.now());
    const made = await this.db.transaction().execute(async (trx) => {
      const account = await createAccount(trx, { name: req.name, parentId }, at);
      await new RoleRepository(trx).addMemberships(
        account.id,
        [{ userId: session.user.id, roleId: account.adminRoleId }],
        at,
      );
      return account;
    });
    return this.get(session, made.id);
  }

  async change(session: Session, id: string, change: AccountChange): Promise<AccountView> {
    const { reach } = await this.inReach(session, id, ACCOUNT_EDIT_PERMISSION);
    if (change.parent_id !== undefined) {
      if (id === session.activeAccount?.id) throw forbidden();
      if (!reach.has(change.parent_id)) throw notFound('Account');
      // Not under itself nor under one of its own subaccounts: walking up from the new parent
      // through the accounts in reach must not pass the account moved.
      const passes = (from: string): boolean => {
        let at: string | null = from;
        for (let steps = 0; at !== null && steps <= reach.size; steps++) {
          if (at === id) return true;
          at = reach.get(at)?.parent_id ?? null;
        }
        return false;
      };
      if (passes(change.parent_id)) {
        throw new DomainError('invalid', ACCOUNT_MOVE_CYCLE, {
          fields: { parent_id: [ACCOUNT_MOVE_CYCLE] },
        });
      }
    }
    await this.db
      .updateTable('accounts')
      .set({
        ...(change.name === undefined ? {} : { name: change.name }),
        ...(change.active === undefined ? {} : { active: change.active ? 1 : 0 }),
        ...(change.parent_id === undefined ? {} : { parent_id: change.parent_id }),
        updated_at: isoAt(this.clock.now()),
      })
      .where('id', '=', id)
      .execute();
    return this.get(session, id);
  }

  async setDesign(session: Session, id: string, design: AccountDesign): Promise<AccountView> {
    await this.inReach(session, id, ACCOUNT_EDIT_PERMISSION);
    await this.db
      .updateTable('accounts')
      .set({
        color1: design.color1,
        color2: design.color2,
        title: design.title,
        logo_desktop: design.logoDesktop,
        logo_mobile: design.logoMobile,
        login_image: design.loginImage,
        updated_at: isoAt(this.clock.now()),
      })
      .where('id', '=', id)
      .execute();
    return this.get(session, id);
  }
}

type AccountViewRow = Parameters<typeof toAccountView>[0];
