import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect';

/**
 * Text in byte order on any Postgres database (issue 28 item 9). Ids, sort keys, snapshot and
 * list cursors (`id > after`), slugs and keys are compared and sorted on the server and again in
 * the browser (IndexedDB) and in SQLite, both in byte order; they must agree, or a snapshot paged
 * by id skips or repeats rows. Postgres sorts text by the database's collation, and a plain
 * `createdb` (or a managed service) makes en_US.UTF-8 or C.UTF-8, where `A_b` < `a-b` differ
 * from byte order. So every text column of the platform's tables carries `COLLATE "C"` itself,
 * whatever the database's default: an existing C database and a new en_US one end in the same
 * schema. Every column, not a chosen few: Postgres refuses `=` between two columns of different
 * collations, so ids and the foreign keys that join them must agree; and it is exactly what the
 * C database the platform used to require gave.
 *
 * Columns are found in the catalogue rather than listed: the tables of every earlier migration
 * (not kysely's bookkeeping, not the time-series store's `ts_` tables, which keep their own
 * migrations and sort no text). A later migration that adds a text column writes it with
 * `textType(db)` (dialect.ts); migrations.test.ts fails on a column left in another collation.
 * Changing only the collation rewrites no table, only the indexes on those columns.
 *
 * SQLite: nothing to do (its default BINARY collation is byte order).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await setCollation(db, 'C');
}

/** Back to the database's default collation, as the columns were made. */
export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await setCollation(db, 'default');
}

async function setCollation(db: Kysely<unknown>, collation: 'C' | 'default'): Promise<void> {
  const { rows } = await sql<{ table: string; column: string; type: string }>`
    select c.relname as "table", a.attname as "column",
           format_type(a.atttypid, a.atttypmod) as "type"
      from pg_attribute a
      join pg_class c on c.oid = a.attrelid
     where c.relnamespace = current_schema()::regnamespace
       and c.relkind in ('r', 'p') and not c.relispartition
       and c.relname not like 'kysely\\_%' and c.relname not like 'ts\\_%'
       and a.attnum > 0 and not a.attisdropped and a.attcollation <> 0
     order by 1, 2
  `.execute(db);
  const byTable = new Map<string, string[]>();
  for (const r of rows) {
    const alters = byTable.get(r.table) ?? [];
    alters.push(`alter column "${r.column}" type ${r.type} collate "${collation}"`);
    byTable.set(r.table, alters);
  }
  // One statement per table: its indexes are rebuilt once.
  for (const [table, alters] of byTable) {
    await sql`alter table ${sql.table(table)} ${sql.raw(alters.join(', '))}`.execute(db);
  }
}
