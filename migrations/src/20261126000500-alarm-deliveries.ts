import { sql, type Kysely } from 'kysely';

/**
 * Alarm notifications (issue 17 items 4 and 5). `alarm_events` is the outbox: the dispatcher
 * claims an event by setting `expanded_at` (a compare-and-set on null, in the transaction that
 * inserts the event's deliveries), so with several server processes each event is expanded once.
 * Events recorded before this migration count as expanded: nobody is told of old history.
 *
 * - `alarm_events.escalation_step` / `escalate_at`: a critical raise's escalation (the steps done
 *   so far, the time of the next; null: none or ended), advanced by a compare-and-set too.
 * - `alarm_deliveries`: one message to one recipient on one channel, for one event and step
 *   (0: the transition itself; 1, 2, …: the escalation's repeats and escalations); the unique key
 *   makes a second expansion insert nothing. A send claims its rows (waiting -> sending, with a
 *   lease: a crashed process's claim is taken again once `lease_until` passed).
 * - `alarm_recipient_invites`: outside addresses asked to confirm (only the token's SHA-256); the
 *   invitation mail has its own small outbox (`mail_state`, `mail_due_at`, `mail_attempts`).
 * - `accounts.alarm_critical_override`: 1 lets critical alarms through closed notification
 *   windows (issue 17 item 4: "a critical severity may override, as the account decides").
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('alarm_events').addColumn('expanded_at', 'bigint').execute();
  await db.schema.alterTable('alarm_events').addColumn('escalation_step', 'integer').execute();
  await db.schema.alterTable('alarm_events').addColumn('escalate_at', 'bigint').execute();
  await sql`update alarm_events set expanded_at = created_at`.execute(db);
  await db.schema
    .createIndex('alarm_events_unexpanded')
    .on('alarm_events')
    .columns(['expanded_at', 'created_at'])
    .execute();
  await db.schema
    .createIndex('alarm_events_escalation')
    .on('alarm_events')
    .column('escalate_at')
    .execute();

  await db.schema
    .createTable('alarm_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('alarm_id', 'text', (c) => c.notNull())
    .addColumn('step', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('recipient_key', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('due_at', 'bigint', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('lease_until', 'bigint')
    .addColumn('sent_at', 'bigint')
    .addColumn('digest_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('alarm_deliveries_once', ['event_id', 'step', 'recipient_key', 'channel'])
    .execute();
  await db.schema
    .createIndex('alarm_deliveries_due')
    .on('alarm_deliveries')
    .columns(['state', 'due_at'])
    .execute();
  await db.schema
    .createIndex('alarm_deliveries_alarm')
    .on('alarm_deliveries')
    .columns(['account_id', 'alarm_id', 'event_id'])
    .execute();
  await db.schema
    .createIndex('alarm_deliveries_digest')
    .on('alarm_deliveries')
    .column('digest_id')
    .execute();

  await db.schema
    .createTable('alarm_recipient_invites')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) =>
      c.notNull().references('accounts.id').onDelete('cascade'),
    )
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.unique())
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('answered_at', 'bigint')
    .addColumn('mail_state', 'text', (c) => c.notNull().defaultTo('waiting'))
    .addColumn('mail_due_at', 'bigint', (c) => c.notNull())
    .addColumn('mail_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('mail_error', 'text')
    .addColumn('lease_until', 'bigint')
    .addUniqueConstraint('alarm_recipient_invites_once', ['account_id', 'email'])
    .execute();
  await db.schema
    .createIndex('alarm_recipient_invites_mail')
    .on('alarm_recipient_invites')
    .columns(['mail_state', 'mail_due_at'])
    .execute();

  await db.schema
    .alterTable('accounts')
    .addColumn('alarm_critical_override', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('accounts').dropColumn('alarm_critical_override').execute();
  await db.schema.dropTable('alarm_recipient_invites').execute();
  await db.schema.dropTable('alarm_deliveries').execute();
  await db.schema.dropIndex('alarm_events_escalation').execute();
  await db.schema.dropIndex('alarm_events_unexpanded').execute();
  await db.schema.alterTable('alarm_events').dropColumn('escalate_at').execute();
  await db.schema.alterTable('alarm_events').dropColumn('escalation_step').execute();
  await db.schema.alterTable('alarm_events').dropColumn('expanded_at').execute();
}
