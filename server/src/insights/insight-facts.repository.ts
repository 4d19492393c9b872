import { sql } from 'kysely';
import type { Db } from '../db/database';
import { scopeTo } from '../repositories/account-scope';
import { ModelRepository, type ModelRow } from '../repositories/model.repository';

/** One member of the account as the checks weigh it. */
export interface MemberFact {
  readonly userId: string;
  readonly name: string;
  readonly email: string;
  readonly slugs: readonly string[];
  /** When it joined (ms): the earliest of its memberships here. */
  readonly joinedAt: number;
  readonly secondFactor: boolean;
  /** Its last sign-in or token use anywhere (ms); null: none stored. */
  readonly lastActive: number | null;
}

/** A live scoped token acting with a role of the account. */
export interface TokenFact {
  readonly id: string;
  readonly name: string;
  readonly owner: string;
  readonly createdAt: number;
  readonly expiresAt: number;
  readonly lastUsed: number | null;
}

/** Latest of two optional moments. */
const latest = (a: number | null, b: number | null) =>
  a === null ? b : b === null ? a : Math.max(a, b);

const ms = (iso: string | null | undefined) =>
  iso === null || iso === undefined ? null : Date.parse(iso);

/**
 * The facts the insight checks read, for one account. The token-use and second-factor tables
 * have no account (a user's, a token's): they are reached through the account's memberships and
 * roles, so nothing of another account is read.
 */
export class InsightFactsRepository {
  private readonly models: ModelRepository;

  constructor(private readonly db: Db) {
    this.models = new ModelRepository(db);
  }

  async members(accountId: string): Promise<MemberFact[]> {
    const scope = scopeTo(this.db, accountId);
    const rows = await scope
      .selectFrom('memberships')
      .innerJoin('roles', 'roles.id', 'memberships.role_id')
      .innerJoin('users', 'users.id', 'memberships.user_id')
      .select([
        'users.id as user_id',
        'users.firstname',
        'users.lastname',
        'users.email',
        'roles.slug',
        'memberships.created_at',
      ])
      .execute();
    const totp = await scope
      .selectFrom('memberships')
      .innerJoin('user_totp', 'user_totp.user_id', 'memberships.user_id')
      .select('memberships.user_id')
      .where('user_totp.confirmed_at', 'is not', null)
      .execute();
    const passkeys = await scope
      .selectFrom('memberships')
      .innerJoin('user_passkeys', 'user_passkeys.user_id', 'memberships.user_id')
      .select('memberships.user_id')
      .execute();
    const signIns = await scope
      .selectFrom('memberships')
      .innerJoin('access_tokens', 'access_tokens.user_id', 'memberships.user_id')
      .select(['memberships.user_id', sql<string | null>`max(access_tokens.created_at)`.as('at')])
      .groupBy('memberships.user_id')
      .execute();
    const uses = await scope
      .selectFrom('memberships')
      .innerJoin('access_tokens', 'access_tokens.user_id', 'memberships.user_id')
      .innerJoin('security_token_uses', 'security_token_uses.token_id', 'access_tokens.id')
      .select([
        'memberships.user_id',
        sql<number | string | null>`max(security_token_uses.last_used_at)`.as('at'),
      ])
      .groupBy('memberships.user_id')
      .execute();
    const withFactor = new Set([...totp, ...passkeys].map((r) => r.user_id));
    const signedIn = new Map(signIns.map((r) => [r.user_id, ms(r.at)]));
    const used = new Map(uses.map((r) => [r.user_id, r.at === null ? null : Number(r.at)]));
    const byUser = new Map<string, MemberFact>();
    for (const row of rows) {
      const had = byUser.get(row.user_id);
      const joined = Date.parse(row.created_at);
      byUser.set(row.user_id, {
        userId: row.user_id,
        name: `${row.firstname} ${row.lastname}`.trim(),
        email: row.email,
        slugs: [...(had?.slugs ?? []), row.slug],
        joinedAt: had === undefined ? joined : Math.min(had.joinedAt, joined),
        secondFactor: withFactor.has(row.user_id),
        lastActive: latest(signedIn.get(row.user_id) ?? null, used.get(row.user_id) ?? null),
      });
    }
    return [...byUser.values()];
  }

  /** Live scoped tokens (personal, application, client credentials) of the account's roles. */
  async tokens(accountId: string, nowIso: string): Promise<TokenFact[]> {
    const rows = await scopeTo(this.db, accountId)
      .selectFrom('roles')
      .innerJoin('access_tokens', 'access_tokens.role_id', 'roles.id')
      .innerJoin('users', 'users.id', 'access_tokens.user_id')
      .leftJoin('oauth_clients', 'oauth_clients.id', 'access_tokens.client_id')
      .leftJoin('security_token_uses', 'security_token_uses.token_id', 'access_tokens.id')
      .select([
        'access_tokens.id',
        'access_tokens.name',
        'access_tokens.created_at',
        'access_tokens.expires_at',
        'oauth_clients.name as client_name',
        'users.email',
        'security_token_uses.last_used_at',
      ])
      .where('access_tokens.scoped', '=', 1)
      .where('access_tokens.revoked_at', 'is', null)
      .where('access_tokens.expires_at', '>', nowIso)
      .execute();
    return rows.map((r) => ({
      id: r.id,
      name: r.name ?? r.client_name ?? '',
      owner: r.email,
      createdAt: Date.parse(r.created_at),
      expiresAt: Date.parse(r.expires_at),
      lastUsed: r.last_used_at === null ? null : Number(r.last_used_at),
    }));
  }

  /** The account's models of these types (gateways, connections, releases, assets). */
  modelsOf(accountId: string, types: readonly string[]): Promise<ModelRow[]> {
    return this.models.allOfTypes(accountId, types);
  }

  /** Names of the account's members by id (the threat overview's users). */
  async emailsOf(accountId: string, userIds: readonly string[]): Promise<Map<string, string>> {
    if (userIds.length === 0) return new Map();
    const rows = await scopeTo(this.db, accountId)
      .selectFrom('memberships')
      .innerJoin('users', 'users.id', 'memberships.user_id')
      .select(['users.id', 'users.email'])
      .where('users.id', 'in', userIds)
      .execute();
    return new Map(rows.map((r) => [r.id, r.email]));
  }
}
