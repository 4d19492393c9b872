import type { Kysely } from 'kysely';

/**
 * The message interval of a flapping alarm (issue 30 item 2): before a delivery is sent, the
 * dispatcher asks when this alarm last reached this recipient on this channel (the latest
 * `sent_at` of its sent deliveries). This index answers that from the index alone, however many
 * deliveries a long-flapping alarm has piled up. Nothing else is stored: the held deliveries are
 * ordinary waiting rows whose `due_at` is the period's end, so a restart loses nothing.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('alarm_deliveries_last_sent')
    .on('alarm_deliveries')
    .columns(['account_id', 'alarm_id', 'recipient_key', 'channel', 'state', 'sent_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('alarm_deliveries_last_sent').execute();
}
