import {
  ACCOUNT_EDIT_PERMISSION,
  ACCOUNT_MOVE_CYCLE,
  ACCOUNT_DEACTIVATED_FROM_ABOVE,
  ACCOUNT_REACTIVATED_FROM_ABOVE,
  can,
  HOST_FROM_ABOVE,
  HOST_TAKEN,
  isInternal,
  THEME_TEXTS,
  themeModel,
  uuidv7,
  type AccountChange,
  type AccountView,
  type SubaccountRequest,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import { isoAt, type Clock } from '../lib/clock';
import { ChangeLogRepository } from '../repositories/change-log.repository';
import { AccountRepository } from '../repositories/account.repository';
import { RoleRepository } from '../repositories/role.repository';
import { ModelRepository } from '../repositories/model.repository';
import { relogBelow } from '../themes/theme-rules';
import { accountView, createAccount, type toAccountView } from './account.service';
import type { ChangeFeed } from './change-feed';
import { DomainError, forbidden, invalidInput, notFound } from './domain-error';
import { ManagedLog } from './managed-log';
import type { Session } from './user.service';

/**
 * The accounts an admin manages (spec 000 §3, spec 001 §6): its active account and every account
 * below it, with account::view to read and account::edit to change there. Subaccounts are made
 * under any of them (the maker becomes their admin), renamed, moved within the subtree (never
 * under themselves), activated and deactivated, and their design set. Every change is logged as
 * the synced `account` model (in its own log and its ancestors'); the generic `accounts` writes
 * come through `AccountOps` like these routes.
 */
export class AccountAdminService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly feed: ChangeFeed,
  ) {}

  async get(session: Session, id: string): Promise<AccountView> {
    const ops = new AccountOps(this.db, this.clock, session);
    const { reach, account } = await ops.inReach(id, 'account::view');
    return ops.view(account, reach);
  }

  async create(session: Session, req: SubaccountRequest): Promise<AccountView> {
    const parent = req.parent_id ?? session.activeAccount?.id;
    const id = await this.run(session, [parent], (ops) =>
      ops.create(uuidv7(), req.name, req.parent_id),
    );
    return this.get(session, id);
  }

  async change(session: Session, id: string, change: AccountChange): Promise<AccountView> {
    // A new theme or place changes what the accounts below show: their logs are locked too.
    const below = change.theme_id !== undefined || change.parent_id !== undefined;
    await this.run(
      session,
      [id, change.parent_id],
      (ops) => ops.change(id, change),
      below ? id : '',
    );
    return this.get(session, id);
  }

  /** One change, its logs' clocks locked first (the accounts named and those above them). */
  private async run(
    session: Session,
    named: readonly (string | undefined)[],
    work: (ops: AccountOps) => Promise<string>,
    /** An account whose subtree's logs the change writes to as well ('' for none). */
    subtreeOf = '',
  ) {
    const active = session.activeAccount?.id;
    if (active === undefined) throw forbidden();
    const { id, updates } = await this.db.transaction().execute(async (trx) => {
      const accounts = new AccountRepository(trx);
      const chains = await Promise.all(
        named.flatMap((a) => (a === undefined ? [] : [accounts.chainUp(a)])),
      );
      const below = subtreeOf === '' ? [] : await accounts.below(subtreeOf);
      await new ChangeLogRepository(trx).lockAll([
        active,
        ...[...chains.flat(), ...below].map((a) => a.id),
      ]);
      const ops = new AccountOps(trx, this.clock, session);
      const changed = await work(ops);
      return { id: changed, updates: await ops.log.commit(this.clock.now()) };
    });
    for (const [account, list] of updates) this.feed.publish(account, list);
    return id;
  }
}

/** A change of an account: name, active, a move (parent_id), its theme and its host. */
export type AccountEdit = Partial<AccountChange>;

/** The account changes inside the caller's transaction, gathered in `log` for it to commit. */
export class AccountOps {
  readonly log: ManagedLog;

  constructor(
    private readonly trx: Db,
    private readonly clock: Clock,
    private readonly session: Session,
  ) {
    this.log = new ManagedLog(trx);
  }

  /** The accounts in reach: the active account and its subtree (ids), with that permission. */
  async reach(permission: string): Promise<Map<string, AccountViewRow>> {
    const active = this.session.activeAccount;
    if (active === null || !can(this.session.ctx, permission)) throw forbidden();
    const below = await new AccountRepository(this.trx).descendantsForMember(this.session.user.id, [
      active.id,
    ]);
    return new Map([active, ...below].map((a) => [a.id, a]));
  }

  async inReach(id: string, permission: string) {
    const reach = await this.reach(permission);
    const account = reach.get(id);
    if (account === undefined) throw notFound('Account');
    return { reach, account };
  }

  view(row: AccountViewRow, reach: ReadonlyMap<string, unknown>): Promise<AccountView> {
    // The parent is named when it is in reach or one of the user's own accounts.
    const known = new Set([...reach.keys(), ...this.session.memberOf]);
    return accountView(this.trx, row, known);
  }

  /** A subaccount under `parentId` (default: the active account); its maker is its admin. */
  async create(id: string, name: string, parentId: string | null | undefined): Promise<string> {
    const reach = await this.reach(ACCOUNT_EDIT_PERMISSION);
    const parent = parentId ?? this.session.activeAccount?.id ?? '';
    if (!reach.has(parent)) throw notFound('Account');
    const at = isoAt(this.clock.now());
    const account = await createAccount(this.trx, { id, name, parentId: parent }, at);
    await new RoleRepository(this.trx).addMemberships(
      account.id,
      [{ userId: this.session.user.id, roleId: account.adminRoleId }],
      at,
    );
    await this.log.account(account.id);
    return account.id;
  }

  async change(id: string, change: AccountEdit): Promise<string> {
    const { reach, account } = await this.inReach(id, ACCOUNT_EDIT_PERMISSION);
    if (change.active === true && account.active !== 1) {
      // Deactivation is a decision made above the account (spec 001 §4): its own admins (and
      // anyone acting from a deactivated account) cannot undo it. Only from an active account
      // strictly above it, which reaches it as a descendant; its state read in this transaction,
      // not from the cached session.
      const acting = this.session.activeAccount;
      if (
        acting === null ||
        acting.id === id ||
        !(await new AccountRepository(this.trx).isActive(acting.id))
      ) {
        throw forbidden(ACCOUNT_REACTIVATED_FROM_ABOVE);
      }
    }
    // Nor from inside: an account deactivated from itself could be turned back on only from
    // above, and a root account by nobody.
    if (change.active === false && account.active === 1 && this.session.activeAccount?.id === id) {
      throw forbidden(ACCOUNT_DEACTIVATED_FROM_ABOVE);
    }
    const moves = change.parent_id !== undefined && change.parent_id !== account.parent_id;
    if (change.parent_id !== undefined && moves) {
      if (id === this.session.activeAccount?.id) throw forbidden();
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
    const before = moves
      ? (await new AccountRepository(this.trx).chainUp(id)).slice(1).map((a) => a.id)
      : [];
    if (change.theme_id !== undefined && change.theme_id !== null)
      await this.mayPickTheme(id, change.theme_id);
    if (change.host !== undefined && change.host !== account.host)
      await this.maySetHost(id, change.host);
    await this.trx
      .updateTable('accounts')
      .set({
        ...(change.name === undefined ? {} : { name: change.name }),
        ...(change.active === undefined ? {} : { active: change.active ? 1 : 0 }),
        ...(change.parent_id === undefined ? {} : { parent_id: change.parent_id }),
        ...(change.theme_id === undefined ? {} : { theme_id: change.theme_id }),
        ...(change.host === undefined ? {} : { host: change.host }),
        updated_at: isoAt(this.clock.now()),
      })
      .where('id', '=', id)
      .execute();
    await this.log.account(id, before);
    // The accounts below show its theme unless they picked their own: logged anew.
    if (moves || (change.theme_id !== undefined && change.theme_id !== account.theme_id))
      await relogBelow(this.trx, this.log, id);
    return id;
  }

  /** A theme of the account or of an account above it (the stored theme's account decides). */
  private async mayPickTheme(id: string, themeId: string): Promise<void> {
    const row = await new ModelRepository(this.trx).findAnyById(themeModel.type, themeId);
    const chain = await new AccountRepository(this.trx).chainUp(id);
    if (row === undefined || !chain.some((a) => a.id === row.account_id))
      throw invalidInput({ theme_id: [THEME_TEXTS.notReachable] });
  }

  /**
   * A host is tied from an account above (a customer's admins cannot take the machine builder's
   * host for their own account), or by internal users; one account per host.
   */
  private async maySetHost(id: string, host: string | null): Promise<void> {
    const acting = this.session.activeAccount?.id;
    if (!isInternal(this.session.ctx) && (acting === undefined || acting === id))
      throw forbidden(HOST_FROM_ABOVE);
    if (host === null) return;
    const holder = await this.trx
      .selectFrom('accounts')
      .select('id')
      .where('host', '=', host)
      .where('id', '<>', id)
      .executeTakeFirst();
    if (holder !== undefined) throw invalidInput({ host: [HOST_TAKEN] });
  }
}

type AccountViewRow = Parameters<typeof toAccountView>[0];
