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

  /** The account's own tags (not the global ones) with the members who hold each. */
  async accountTags(accountId: string) {
    const tags = await scopeTo(this.db, accountId)
      .selectTags()
      .where('tags.account_id', '=', accountId)
      .select(['tags.id', 'tags.slug', 'tags.parents'])
      .orderBy('tags.slug')
      .execute();
    if (tags.length === 0) return [];
    // Holders who are members of the account: a tag never names a stranger.
    const holders = await this.db
      .selectFrom('user_tags')
      .select(['user_tags.tag_id', 'user_tags.user_id'])
      .where(
        'user_tags.tag_id',
        'in',
        tags.map((t) => t.id),
      )
      .where('user_tags.user_id', 'in', (eb) =>
        eb
          .selectFrom('memberships')
          .select('memberships.user_id')
          .where('memberships.account_id', '=', accountId),
      )
      .orderBy('user_tags.user_id')
      .execute();
    return tags.map((t) => ({
      id: t.id,
      slug: t.slug,
      parents: parseSlugs(t.parents),
      user_ids: holders.filter((h) => h.tag_id === t.id).map((h) => h.user_id),
    }));
  }

  /** Makes or changes one of the account's tags (its slug, parents and holders). */
  async saveAccountTag(
    accountId: string,
    tag: { id: string; slug: string; parents: readonly string[]; user_ids: readonly string[] },
    exists: boolean,
  ): Promise<void> {
    const parents = JSON.stringify([...new Set(tag.parents)]);
    if (exists) {
      await this.db
        .updateTable('tags')
        .set({ slug: tag.slug, parents })
        .where('id', '=', tag.id)
        .where('account_id', '=', accountId)
        .execute();
      await this.db.deleteFrom('user_tags').where('tag_id', '=', tag.id).execute();
    } else {
      await this.db
        .insertInto('tags')
        .values({ id: tag.id, slug: tag.slug, account_id: accountId, parents })
        .execute();
    }
    const users = [...new Set(tag.user_ids)];
    if (users.length > 0) {
      await this.db
        .insertInto('user_tags')
        .values(users.map((user_id) => ({ user_id, tag_id: tag.id })))
        .execute();
    }
  }

  /** A member who leaves the account holds none of its tags any more. */
  async untagMember(accountId: string, userId: string): Promise<void> {
    await this.db
      .deleteFrom('user_tags')
      .where('user_id', '=', userId)
      .where('tag_id', 'in', (eb) =>
        eb.selectFrom('tags').select('tags.id').where('tags.account_id', '=', accountId),
      )
      .execute();
  }

  async removeAccountTag(accountId: string, tagId: string): Promise<void> {
    await this.db.deleteFrom('user_tags').where('tag_id', '=', tagId).execute();
    await this.db
      .deleteFrom('tags')
      .where('id', '=', tagId)
      .where('account_id', '=', accountId)
      .execute();
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
