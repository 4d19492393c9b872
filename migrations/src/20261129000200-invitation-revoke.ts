import type { Kysely } from 'kysely';
import { textType } from './dialect';

/**
 * Sent invitations are listed with their state, sent again or revoked (issue 30 item 10).
 * `revoked_at`: the link is dead and says so. `sent_at`: when the current link was mailed (a
 * resend makes a new token, so the old link dies, and moves `sent_at` and `expires_at`);
 * null on rows from before, which were sent at `created_at`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('invitations').addColumn('revoked_at', textType(db)).execute();
  await db.schema.alterTable('invitations').addColumn('sent_at', textType(db)).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('invitations').dropColumn('sent_at').execute();
  await db.schema.alterTable('invitations').dropColumn('revoked_at').execute();
}
