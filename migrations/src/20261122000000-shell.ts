import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect';

/**
 * The application shell: users, accounts (a tree), roles per account, memberships, permission
 * records, tags, feature flags, OAuth clients, access tokens, password resets, client error reports
 * and push subscriptions. Timestamps are ISO-8601 UTC text, which sorts like the time it names.
 */
const HEX = '[0-9a-fA-F]';
// A literal, not a parameter: SQLite refuses parameters in CHECK constraints. Postgres has no
// glob: the same pattern as a regular expression.
const hexColor = (db: Kysely<unknown>, column: string) =>
  isPostgres(db)
    ? sql`${sql.ref(column)} is null or ${sql.ref(column)} ~ ${sql.lit(`^#${HEX}{6}$`)}`
    : sql`${sql.ref(column)} is null or ${sql.ref(column)} glob ${sql.lit(`#${HEX.repeat(6)}`)}`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('parent_id', 'text', (c) => c.references('accounts.id').onDelete('restrict'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    // Only #rrggbb: the colours are written into the account's stylesheet.
    .addColumn('color1', 'text', (c) => c.check(hexColor(db, 'color1')))
    .addColumn('color2', 'text', (c) => c.check(hexColor(db, 'color2')))
    .addColumn('title', 'text')
    .addColumn('logo_desktop', 'text')
    .addColumn('logo_mobile', 'text')
    .addColumn('login_image', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('accounts_parent').on('accounts').column('parent_id').execute();

  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('firstname', 'text', (c) => c.notNull())
    .addColumn('lastname', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull().defaultTo('en'))
    .addColumn('active_account_id', 'text', (c) => c.references('accounts.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('roles')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addUniqueConstraint('roles_account_slug', ['account_id', 'slug'])
    // Target of the memberships foreign key below: a role can only be held in its own account.
    .addUniqueConstraint('roles_id_account', ['id', 'account_id'])
    .execute();

  await db.schema
    .createTable('memberships')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('role_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('memberships_pk', ['user_id', 'account_id', 'role_id'])
    .addForeignKeyConstraint(
      'memberships_role_in_account',
      ['role_id', 'account_id'],
      'roles',
      ['id', 'account_id'],
      (fk) => fk.onDelete('cascade'),
    )
    .execute();
  await db.schema
    .createIndex('memberships_account')
    .on('memberships')
    .column('account_id')
    .execute();

  await db.schema
    .createTable('permissions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('role_id', 'text', (c) => c.notNull().references('roles.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('guard_name', 'text', (c) => c.notNull().defaultTo('api'))
    .addColumn('account_id', 'text', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .execute();
  await db.schema
    .createIndex('permissions_account_role')
    .on('permissions')
    .columns(['account_id', 'role_id', 'name'])
    .execute();

  await db.schema
    .createTable('tags')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('slug', 'text', (c) => c.notNull())
    // null: a global tag (internal, internal_fe_dev, ...).
    .addColumn('account_id', 'text', (c) => c.references('accounts.id').onDelete('cascade'))
    .addColumn('parents', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  // SQLite treats NULLs as distinct in UNIQUE, so global slugs need the expression index.
  await sql`create unique index tags_slug_scope on tags (slug, coalesce(account_id, ''))`.execute(
    db,
  );

  await db.schema
    .createTable('user_tags')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('tag_id', 'text', (c) => c.notNull().references('tags.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('user_tags_pk', ['user_id', 'tag_id'])
    .execute();

  await db.schema
    .createTable('feature_flags')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('key', 'text', (c) => c.notNull().unique())
    .addColumn('visibility_scope', 'text', (c) => c.notNull().defaultTo('app'))
    .addColumn('tag_slug', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('oauth_clients')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('secret_hash', 'text')
    .addColumn('redirect', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('first_party', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('password_client', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('revoked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('access_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('client_id', 'text', (c) =>
      c.notNull().references('oauth_clients.id').onDelete('cascade'),
    )
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text')
    .addColumn('scopes', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('access_tokens_user').on('access_tokens').column('user_id').execute();

  await db.schema
    .createTable('password_resets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();

  await db.schema
    .createTable('client_errors')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('params', 'text')
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('message', 'text')
    .addColumn('app_url', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('push_subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('endpoint', 'text', (c) => c.notNull())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('auth_token', 'text', (c) => c.notNull())
    .addColumn('content_encoding', 'text', (c) => c.notNull())
    .addColumn('device_type', 'text')
    .addColumn('device_brand', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('push_subscriptions_user_endpoint', ['user_id', 'endpoint'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'push_subscriptions',
    'client_errors',
    'password_resets',
    'access_tokens',
    'oauth_clients',
    'feature_flags',
    'user_tags',
    'tags',
    'permissions',
    'memberships',
    'roles',
    'users',
    'accounts',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
