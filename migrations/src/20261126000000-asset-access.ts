import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect';

/**
 * Access per asset and per field inside an account (DESIGN.md §10, spec 001 §6):
 * - roles.all_assets: the role opens every asset of the account (the key button); 1 for every
 *   role that exists already, so nobody loses what they saw.
 * - role_assets: otherwise, the assets the role sees, each with or without edit rights (the
 *   pencil); an asset dragged onto the role is a row here.
 * - role_fields: the attributes of a model type the role sees (fields dragged into the role);
 *   no row for a type: every field.
 * - models.asset_id: the asset a model belongs to (registry `asset`), so that a snapshot for a
 *   role that sees 10% of the assets reads through an index instead of every model's JSON.
 * Changes to the two new tables bump access_version like the other access tables (migration
 * 20261122000100), so every process's cached sessions see them at once.
 */
const NEW_ACCESS_TABLES = ['role_assets', 'role_fields'] as const;
const EVENTS = ['insert', 'update', 'delete'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('roles')
    .addColumn('all_assets', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();

  await db.schema
    .createTable('role_assets')
    .addColumn('role_id', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('asset_id', 'text', (c) => c.notNull())
    .addColumn('edit', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('role_assets_pk', ['role_id', 'asset_id'])
    .addForeignKeyConstraint(
      'role_assets_role_in_account',
      ['role_id', 'account_id'],
      'roles',
      ['id', 'account_id'],
      (fk) => fk.onDelete('cascade'),
    )
    .execute();
  await db.schema
    .createIndex('role_assets_account_asset')
    .on('role_assets')
    .columns(['account_id', 'asset_id'])
    .execute();

  await db.schema
    .createTable('role_fields')
    .addColumn('role_id', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('type', 'text', (c) => c.notNull())
    // A JSON array of attribute names.
    .addColumn('fields', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('role_fields_pk', ['role_id', 'type'])
    .addForeignKeyConstraint(
      'role_fields_role_in_account',
      ['role_id', 'account_id'],
      'roles',
      ['id', 'account_id'],
      (fk) => fk.onDelete('cascade'),
    )
    .execute();

  await db.schema.alterTable('models').addColumn('asset_id', 'text').execute();
  const assetIdOfStored = isPostgres(db)
    ? sql`(attributes::jsonb ->> 'asset_id')`
    : sql`json_extract(attributes, '$.asset_id')`;
  await sql`update models set asset_id = id where type = 'asset'`.execute(db);
  await sql`update models set asset_id = ${assetIdOfStored}
    where type in ('datastreamgroup', 'datastream')`.execute(db);
  await db.schema
    .createIndex('models_account_asset')
    .on('models')
    .columns(['account_id', 'asset_id', 'id'])
    .execute();

  for (const table of NEW_ACCESS_TABLES) {
    for (const event of EVENTS) {
      const name = `${table}_${event}_access_version`;
      // bump_access_version() is the Postgres trigger function of migration 20261122000100.
      await sql
        .raw(
          isPostgres(db)
            ? `create trigger ${name} after ${event} on ${table} ` +
                `for each row execute function bump_access_version()`
            : `create trigger ${name} after ${event} on ${table} ` +
                `begin update access_version set v = v + 1 where id = 1; end`,
        )
        .execute(db);
    }
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of NEW_ACCESS_TABLES) {
    for (const event of EVENTS) {
      const name = `${table}_${event}_access_version`;
      await sql
        .raw(isPostgres(db) ? `drop trigger ${name} on ${table}` : `drop trigger ${name}`)
        .execute(db);
    }
  }
  await db.schema.dropIndex('models_account_asset').execute();
  await db.schema.alterTable('models').dropColumn('asset_id').execute();
  await db.schema.dropTable('role_fields').execute();
  await db.schema.dropTable('role_assets').execute();
  await db.schema.alterTable('roles').dropColumn('all_assets').execute();
}
