import { isoAt } from '../lib/clock';
import { Pruner } from './pruner';
import { BrowserCredentialRepository } from '../repositories/browser-credential.repository';
import { MutationPruneRepository } from '../repositories/mutation-prune.repository';
import { OAuthRepository } from '../repositories/oauth.repository';

/** Ended broker credentials are kept this long, to look into a recent refusal. */
export const ENDED_CREDENTIALS_KEPT_MS = 24 * 60 * 60 * 1000;

/**
 * Deletes rows that only grow, every hour (Pruner): broker credentials revoked or
 * expired more than a day ago, and applied mutation ids older than the log retention
 * (LOG_RETENTION_DAYS), and authorization codes and refresh tokens that expired more than a
 * day ago (a replay of one that old is refused as unknown). A mutation id is repeated by a client that never got its answer; one
 * offline longer than the retention is told to resync by mqttlogs anyway. A repeat after that
 * would be applied again: the retention is the bound of the duplicate check.
 */
export class RecordPruner extends Pruner {
  async pruneNow(): Promise<{ credentials: number; mutations: number; grants: number }> {
    const now = this.clock.now();
    const credentials = await new BrowserCredentialRepository(this.db).pruneEnded(
      isoAt(now - ENDED_CREDENTIALS_KEPT_MS),
    );
    const mutations = await new MutationPruneRepository(this.db).prune(
      isoAt(now - this.retentionMs),
    );
    const grants = await new OAuthRepository(this.db).pruneEnded(
      isoAt(now - ENDED_CREDENTIALS_KEPT_MS),
    );
    if (credentials > 0 || mutations > 0 || grants > 0)
      this.log.info('records pruned', { credentials, mutations, grants });
    return { credentials, mutations, grants };
  }
}
