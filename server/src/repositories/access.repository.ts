import type { Db } from '../db/database';
import { scopeTo } from './account-scope';

/** Permission records, tags and feature flags: what the permission function needs. */
export class AccessRepository {
  constructor(private readonly db: Db) {}

  permissionsOfRoles(accountId: string, roleIds: readonly string[]) {
    if (roleIds.length === 0) return Promise.resolve([]);
    return scopeTo(this.db, accountId)
      .selectFrom('permissions')
      .where('permissions.role_id', 'in', roleIds)
      .select(['id', 'name', 'role_id', 'user_id', 'guard_name', 'account_id'])
      .orderBy('name')
      .execute();
  }

  /** The user's tags that count in this account: global ones and this account's own. */
  async tagsOf(accountId: string, userId: string) {
    const rows = await scopeTo(this.db, accountId)
      .selectTags()
      .innerJoin('user_tags', 'user_tags.tag_id', 'tags.id')
      .where('user_tags.user_id', '=', userId)
      .select(['tags.slug', 'tags.account_id', 'tags.parents'])
      .orderBy('tags.slug')
      .execute();
    return rows.map((r) => ({
      slug: r.slug,
      account_id: r.account_id,
      parents: parseSlugs(r.parents),
    }));
  }

  async featureFlags() {
    const rows = await this.db
      .selectFrom('feature_flags')
      .select(['key', 'visibility_scope', 'tag_slug'])
      .orderBy('key')
      .execute();
    return rows.map((r) => ({ key: r.key, visibility_scope: r.visibility_scope, tag: r.tag_slug }));
  }
}

function parseSlugs(json: string): string[] {
  const value: unknown = JSON.parse(json);
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
