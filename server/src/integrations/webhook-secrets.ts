import { INTEGRATION_TEXTS } from '@plant/shared-schema';
import type { Db } from '../db/database';
import type { Clock } from '../lib/clock';
import { DomainError } from '../services/domain-error';
import type { SecretBox } from './secret-box';
import { newWebhookSecret } from './webhook-signing';
import { WebhookRepository } from './webhook.repository';

/** A webhook's signing secret and when it was made. */
export interface SecretInfo {
  readonly secret: string;
  readonly created_at: number;
}

/**
 * The webhooks' signing secrets (issue 37 item 6): made by the server with crypto randomness at
 * the first need (the leader makes one as soon as it hears of a new webhook; the secret route
 * and the first post would too), kept sealed in `integration_secrets`, never in the synced
 * model, never in a log line. Who may edit integrations reads it or has it made anew.
 */
export class WebhookSecrets {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly box: SecretBox,
  ) {}

  /**
   * The integration's secret, made now if it has none (two makers at once: the first one's is
   * kept and both answer it). One sealed by a key this server lacks is a conflict: make anew.
   */
  async ensure(accountId: string, integrationId: string): Promise<SecretInfo> {
    const repo = new WebhookRepository(this.db);
    let row = await repo.secret(accountId, integrationId);
    if (row === undefined) {
      const sealed = await this.box.seal(newWebhookSecret());
      await repo.putSecret(accountId, integrationId, sealed, this.clock.now(), false);
      row = await repo.secret(accountId, integrationId);
    }
    const secret = row === undefined ? undefined : await this.box.open(row.sealed);
    if (row === undefined || secret === undefined)
      throw new DomainError('conflict', INTEGRATION_TEXTS.secretUnreadable);
    return { secret, created_at: Number(row.created_at) };
  }

  /** A new secret in place of the old one, which no longer signs anything from now on. */
  async rotate(accountId: string, integrationId: string): Promise<SecretInfo> {
    const secret = newWebhookSecret();
    const now = this.clock.now();
    await new WebhookRepository(this.db).putSecret(
      accountId,
      integrationId,
      await this.box.seal(secret),
      now,
      true,
    );
    return { secret, created_at: now };
  }
}
