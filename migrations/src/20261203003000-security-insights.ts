import type { Kysely } from 'kysely';
import { textType } from './dialect';

/**
 * Security insights (issue 38 item 1).
 *
 * - `security_event_counts`: what happened to an account per UTC day, counted, never one row per
 *   event: failed sign-ins, rate-limit hits, broker refusals, revoked gateway keys knocking, CSP
 *   reports (`kind`). `dim` '' with `key` '' is the day's total of the kind; the other rows break
 *   it down by address, user, client, gateway or directive (`dim`), at most a few per day and
 *   kind (the server keeps the heaviest and sums the rest under key '*'), so a flood from many
 *   addresses cannot grow the table. Kept 90 days.
 * - `security_token_uses`: when a scoped token (personal, application, client credentials) was
 *   last used, written at most hourly. Apart from `access_tokens`: a write there bumps the access
 *   version (every cached session would go at each use).
 * - `security_insight_dismissals`: a check an admin dismissed, why, and until when (one per
 *   account and check); `security_insight_log` every dismissal and its taking back.
 * - `security_insight_snapshots`: each check's state and count once a day (the 90-day trend).
 * - `security_insight_digests`: the weekly digest's sending, one row per account and ISO week
 *   (the insert is the claim: two leaders never send one week twice).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const text = textType(db);
  await db.schema
    .createTable('security_event_counts')
    .addColumn('account_id', text, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('day', text, (c) => c.notNull())
    .addColumn('kind', text, (c) => c.notNull())
    .addColumn('dim', text, (c) => c.notNull())
    .addColumn('key', text, (c) => c.notNull())
    .addColumn('count', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('security_event_counts_pk', [
      'account_id',
      'day',
      'kind',
      'dim',
      'key',
    ])
    .execute();
  await db.schema
    .createIndex('security_event_counts_day')
    .on('security_event_counts')
    .column('day')
    .execute();

  await db.schema
    .createTable('security_token_uses')
    .addColumn('token_id', text, (c) => c.primaryKey())
    .addColumn('last_used_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('security_insight_dismissals')
    .addColumn('account_id', text, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('check_id', text, (c) => c.notNull())
    .addColumn('reason', text, (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('by_user', text, (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('security_insight_dismissals_pk', ['account_id', 'check_id'])
    .execute();

  await db.schema
    .createTable('security_insight_log')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('account_id', text, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('check_id', text, (c) => c.notNull())
    .addColumn('action', text, (c) => c.notNull())
    .addColumn('reason', text)
    .addColumn('expires_at', 'bigint')
    .addColumn('actor_id', text, (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('security_insight_log_account')
    .on('security_insight_log')
    .columns(['account_id', 'at'])
    .execute();

  await db.schema
    .createTable('security_insight_snapshots')
    .addColumn('account_id', text, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('day', text, (c) => c.notNull())
    .addColumn('checks', text, (c) => c.notNull())
    .addColumn('taken_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('security_insight_snapshots_pk', ['account_id', 'day'])
    .execute();

  await db.schema
    .createTable('security_insight_digests')
    .addColumn('account_id', text, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('week', text, (c) => c.notNull())
    .addColumn('sent_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('security_insight_digests_pk', ['account_id', 'week'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('security_insight_digests').execute();
  await db.schema.dropTable('security_insight_snapshots').execute();
  await db.schema.dropTable('security_insight_log').execute();
  await db.schema.dropTable('security_insight_dismissals').execute();
  await db.schema.dropTable('security_token_uses').execute();
  await db.schema.dropTable('security_event_counts').execute();
}
