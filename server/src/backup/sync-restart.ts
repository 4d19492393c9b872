/**
 * The SQL a restore runs on the restored platform database (the same on SQLite and Postgres) so
 * that every browser reloads its models (the worker's wipe and refetch) instead of keeping what
 * it synced after the backup was taken.
 *
 * A browser that synced after the backup knows updates the restored server never made; numbers
 * (seq) the server hands out again would reach it as duplicates and be skipped, and it would keep
 * models the server no longer has. The sync protocol already has the way out: when the change log
 * no longer reaches back to where a browser stands, mqttlogs answers `resync` and the worker
 * clears its models (keeping its outbox) and bootstraps again (sync-worker CONTEXT, "Receiving,
 * bootstrap, missed updates"). The worker asks mqttlogs from its last ts as soon as its broker
 * subscription is in place, which a restart of the server renews. So the restore empties the
 * log, as if retention had pruned all of it, and moves every account's clock to the restore's
 * time: then `oldest === undefined && clock.seq > 0` says pruned and the horizon is the restore's
 * time, later than any ts a browser got before it (SyncService.missedUpdates). Accounts without a
 * clock (no update yet) get one at seq 1, or a browser that synced their first updates after the
 * backup would not be told. The next update continues from the clock's seq; browsers that
 * bootstrap from the restored server start at its watermark and are not told again.
 */
export function syncRestartSql(nowMs: number): string {
  if (!Number.isSafeInteger(nowMs) || nowMs < 0) throw new Error('not a time');
  return [
    'DELETE FROM model_updates;',
    `UPDATE account_clocks SET seq = CASE WHEN seq < 1 THEN 1 ELSE seq END,
       ts = CASE WHEN ts < ${nowMs} THEN ${nowMs} ELSE ts END;`,
    `INSERT INTO account_clocks (account_id, seq, ts)
       SELECT id, 1, ${nowMs} FROM accounts
        WHERE id NOT IN (SELECT account_id FROM account_clocks);`,
  ].join('\n');
}
