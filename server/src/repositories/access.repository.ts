import { uuidv7 } from '@plant/shared-schema';
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

  /** A tag, global (accountId null) or of one account; answers its id. */
  async addTag(slug: string, accountId: string | null, parents: readonly string[] = []) {
    const id = uuidv7();
    await this.db
      .insertInto('tags')
      .values({ id, slug, account_id: accountId, parents: JSON.stringify(parents) })
      .execute();
    return id;
  }

  async tagUser(userId: string, tagId: string): Promise<void> {
    await this.db.insertInto('user_tags').values({ user_id: userId, tag_id: tagId }).execute();
  }

  /** Puts a permission behind a tag: without the tag, nobody (admin included) has it. */
  async addFeatureFlag(permission: string, tagSlug: string): Promise<void> {
    await this.db
      .insertInto('feature_flags')
      .values({ id: uuidv7(), key: permission, visibility_scope: 'app', tag_slug: tagSlug })
      .execute();
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
