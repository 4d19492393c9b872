import {
  NO_DESIGN,
  type AccountDesign,
  type AccountTreeNode,
  type AccountView,
  type InheritedTexts,
  assetModel,
  can,
  hexColorField,
  mayUseApp,
  ROLE_SLUGS,
  uuidv7,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import { AccountRepository, type AccountRow } from '../repositories/account.repository';
import { ModelRepository } from '../repositories/model.repository';
import { RoleRepository } from '../repositories/role.repository';
import { UserRepository } from '../repositories/user.repository';
import { hostName } from '../http/host-name';
import { ThemeResolver } from '../themes/theme-resolver';
import { inheritedTexts } from '../themes/inherited-texts';
import { mayWorkIn, permissionContextIn } from './account-access';
import { notFound } from './domain-error';
import type { Session } from './session';

/**
 * An account as a user sees it, with the design it shows (ThemeResolver). The parent is named
 * only when the user belongs to it too: a customer's users must not learn even the id of the
 * machine builder's account above theirs.
 */
export function toAccountView(
  row: AccountRow,
  memberOf: ReadonlySet<string>,
  design: AccountDesign,
  textsVersion: number,
): AccountView {
  return {
    id: row.id,
    name: row.name,
    parent_id: row.parent_id !== null && memberOf.has(row.parent_id) ? row.parent_id : null,
    active: row.active === 1,
    theme_id: row.theme_id,
    host: row.host,
    theme: design,
    texts_version: textsVersion,
  };
}

/** An account's view with its design resolved in `db`. */
export async function accountView(
  db: Db,
  row: AccountRow,
  memberOf: ReadonlySet<string>,
): Promise<AccountView> {
  const looks = new ThemeResolver(db);
  return toAccountView(row, memberOf, await looks.designOf(row), await looks.textsVersionOf(row));
}

export interface NewAccount {
  /** The id a client chose (an account made offline); a new one when absent. */
  readonly id?: string;
  readonly name: string;
  readonly parentId?: string | null;
  readonly active?: boolean;
}

/**
 * Creates an account with the two roles every account has (admin, norole). Call it inside the
 * caller's transaction: an account without its roles must never be visible.
 */
export async function createAccount(
  trx: Db,
  input: NewAccount,
  at: string,
): Promise<{ id: string; adminRoleId: string; noroleRoleId: string }> {
  const id = input.id ?? uuidv7();
  await new AccountRepository(trx).insert({
    id,
    parent_id: input.parentId ?? null,
    name: input.name,
    active: input.active === false ? 0 : 1,
    theme_id: null,
    host: null,
    texts_changed: 0,
    color1: null,
    color2: null,
    title: null,
    logo_desktop: null,
    logo_mobile: null,
    login_image: null,
    created_at: at,
    updated_at: at,
  });
  const adminRoleId = uuidv7();
  const noroleRoleId = uuidv7();
  await new RoleRepository(trx).addRoles(id, [
    { id: adminRoleId, slug: ROLE_SLUGS.admin, name: 'Admin' },
    { id: noroleRoleId, slug: ROLE_SLUGS.norole, name: 'No role' },
  ]);
  return { id, adminRoleId, noroleRoleId };
}

/** A CSS string literal: backslashes, quotes and line breaks escaped, nothing can close the rule. */
function cssString(value: string): string {
  return `"${value.replace(/[\\"]/g, '\\$&').replace(/[\n\r\f<>]/g, (ch) => `\\${ch.charCodeAt(0).toString(16)} `)}"`;
}

export class AccountService {
  private readonly accounts: AccountRepository;

  constructor(private readonly db: Db) {
    this.accounts = new AccountRepository(db);
  }

  /**
   * GET user/accounts, the account switcher's tree: every account the user may work in (a role
   * other than norole: the accounts it may switch to) and, below each of those where it has
   * account::view, the accounts under it (shown, not switchable). A flat list in tree order.
   */
  async tree(session: Session): Promise<AccountTreeNode[]> {
    const userId = session.user.id;
    const own = (await this.accounts.allForMember(userId)).filter((a) => mayWorkIn(session, a.id));
    const opening: string[] = [];
    for (const account of own) {
      const ctx = await permissionContextIn(this.db, session, account.id);
      if (can(ctx, 'account::view')) opening.push(account.id);
    }
    const below = await this.accounts.descendantsForMember(userId, opening);

    const byId = new Map<string, AccountRow>();
    for (const account of [...own, ...below]) byId.set(account.id, account);
    const parentOf = (a: AccountRow) =>
      a.parent_id !== null && byId.has(a.parent_id) ? a.parent_id : null;
    const byName = (a: AccountRow, b: AccountRow) =>
      a.name.localeCompare(b.name, 'en') || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
    const children = new Map<string | null, AccountRow[]>();
    for (const account of [...byId.values()].sort(byName)) {
      const key = parentOf(account);
      children.set(key, [...(children.get(key) ?? []), account]);
    }

    // Depth first from the tops; `seen` ends a cycle in parent_id, should one ever exist.
    const ordered: AccountRow[] = [];
    const seen = new Set<string>();
    const visit = (account: AccountRow) => {
      if (seen.has(account.id)) return;
      seen.add(account.id);
      ordered.push(account);
      for (const child of children.get(account.id) ?? []) visit(child);
    };
    for (const top of children.get(null) ?? []) visit(top);

    const users = new UserRepository(this.db);
    const models = new ModelRepository(this.db);
    const nodes: AccountTreeNode[] = [];
    for (const account of ordered) {
      const [userCount, assetCount] = await Promise.all([
        users.countMembers(account.id),
        models.count(account.id, [assetModel.type]),
      ]);
      const parentId = parentOf(account);
      nodes.push({
        id: account.id,
        text: account.name,
        parent_id: parentId,
        value: {
          root: parentId === null,
          active: account.active === 1,
          userCount,
          assetCount,
          hasChildren: (children.get(account.id)?.length ?? 0) > 0,
        },
        current: account.id === session.activeAccount?.id,
        switchable: mayWorkIn(session, account.id),
      });
    }
    return nodes;
  }

  /**
   * The design a host's sign-in page shows (issue 36): that of the account tied to the host, else
   * of the installation's first top-level account (the machine builder's), else none.
   */
  async designForHost(
    hostHeader: string | undefined,
  ): Promise<{ readonly design: AccountDesign; readonly tied: boolean }> {
    const host = hostName(hostHeader);
    const tied =
      host === ''
        ? undefined
        : await this.db
            .selectFrom('accounts')
            .selectAll()
            .where('host', '=', host)
            .executeTakeFirst();
    const row =
      tied ??
      (await this.db
        .selectFrom('accounts')
        .selectAll()
        .where('parent_id', 'is', null)
        .orderBy('created_at')
        .orderBy('id')
        .executeTakeFirst());
    const design = row === undefined ? NO_DESIGN : await new ThemeResolver(this.db).designOf(row);
    return { design, tied: tied !== undefined };
  }

  /** The words the members of the session's account see (translation-rules.ts). */
  async inheritedTexts(session: Session): Promise<InheritedTexts> {
    const accountId = session.activeAccount?.id;
    if (accountId === undefined) return [];
    return inheritedTexts(this.db, accountId);
  }

  /** An account's view with the design it shows. */
  view(row: AccountRow, memberOf: ReadonlySet<string>): Promise<AccountView> {
    return accountView(this.db, row, memberOf);
  }

  async forMember(userId: string, accountId: string): Promise<AccountRow> {
    const row = await this.accounts.findForMember(userId, accountId);
    if (row === undefined) throw notFound('Account');
    return row;
  }

  /**
   * The account's design as CSS custom properties (GET /api/v1/style). Colours are #rrggbb (a
   * CHECK in the table, and checked again here); title and image paths are escaped CSS strings.
   */
  async stylesheet(userId: string, accountId: string): Promise<string> {
    const account = await this.forMember(userId, accountId);
    // Only accounts the user may work in (a norole membership does not count), as for switching.
    const roles = await new UserRepository(this.db).rolesIn(accountId, userId);
    if (!mayUseApp(roles.map((r) => r.slug))) throw notFound('Account');
    const theme = await new ThemeResolver(this.db).designOf(account);
    // Colours are checked again here: a bad value is left out rather than written into CSS.
    const color = (value: string | null) => (hexColorField.safeParse(value).success ? value : null);
    const props: [string, string | null][] = [
      ['--account-color1', color(theme.color1)],
      ['--account-color2', color(theme.color2)],
      ['--account-title', theme.title === null ? null : cssString(theme.title)],
      [
        '--account-logo-desktop',
        theme.logoDesktop === null ? null : `url(${cssString(theme.logoDesktop)})`,
      ],
      [
        '--account-logo-mobile',
        theme.logoMobile === null ? null : `url(${cssString(theme.logoMobile)})`,
      ],
      [
        '--account-login-image',
        theme.loginImage === null ? null : `url(${cssString(theme.loginImage)})`,
      ],
    ];
    const lines = props.filter(([, v]) => v !== null).map(([k, v]) => `  ${k}: ${v ?? ''};`);
    return `:root {\n${lines.join('\n')}\n}\n`;
  }
}
