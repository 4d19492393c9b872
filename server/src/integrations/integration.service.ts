import {
  can,
  integrationModel,
  INTEGRATION_TEXTS,
  WEBHOOK_KIND,
  type IntegrationAttributes,
  type IntegrationSecret,
  type WebhookAttempt,
  type WebhookDelivery,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import { ModelRepository } from '../repositories/model.repository';
import { DomainError, forbidden, notFound } from '../services/domain-error';
import type { Session } from '../services/session';
import type { WebhookSecrets } from './webhook-secrets';
import { WebhookRepository, type DeliveryRow } from './webhook.repository';

/** Deliveries a log answer lists at most (the store keeps WEBHOOK_LOG_KEEP finished ones). */
export const LOG_LIMIT = 200;

function toDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    event_type: row.event_type,
    asset_id: row.asset_id,
    alarm_id: row.alarm_id,
    points: row.points === null ? null : Number(row.points),
    state: row.state,
    created_at: Number(row.created_at),
    next_at: row.next_at === null ? null : Number(row.next_at),
    attempts: JSON.parse(row.attempt_log) as WebhookAttempt[],
  };
}

/**
 * The calls of webhook integrations beside the synced model (routes/integrations.ts): the
 * delivery log and the signing secret, each of an integration of the active account.
 */
export class IntegrationService {
  constructor(
    private readonly db: Db,
    readonly secrets: WebhookSecrets,
  ) {}

  /**
   * The delivery log, newest first (integration::view). Each delivery belongs to an asset, and
   * shows only to who sees that asset by the server's access decision; asked for one asset, the
   * asset must be one the user sees (else 404, as one that does not exist).
   */
  async deliveries(
    session: Session,
    integrationId: string,
    assetId: string | undefined,
  ): Promise<WebhookDelivery[]> {
    const { accountId } = await this.integrationOf(
      session,
      integrationModel.permissions.view,
      integrationId,
    );
    if (assetId !== undefined) {
      const asset = await new ModelRepository(this.db).find(accountId, 'asset', assetId);
      if (asset === undefined || !session.access.seesAsset(assetId)) throw notFound('Asset');
    }
    const rows = await new WebhookRepository(this.db).log(
      accountId,
      integrationId,
      assetId,
      LOG_LIMIT,
    );
    return rows
      .filter((row) =>
        row.asset_id === null ? session.access.allAssets : session.access.seesAsset(row.asset_id),
      )
      .map(toDelivery);
  }

  /** The webhook's signing secret (integration::edit), made now if it has none yet. */
  async secret(session: Session, integrationId: string): Promise<IntegrationSecret> {
    const accountId = await this.webhookOf(session, integrationId);
    return this.secrets.ensure(accountId, integrationId);
  }

  /** A new signing secret in place of the old (integration::edit). */
  async rotate(session: Session, integrationId: string): Promise<IntegrationSecret> {
    const accountId = await this.webhookOf(session, integrationId);
    return this.secrets.rotate(accountId, integrationId);
  }

  private async webhookOf(session: Session, integrationId: string): Promise<string> {
    const { accountId, attributes } = await this.integrationOf(
      session,
      integrationModel.permissions.update,
      integrationId,
    );
    if (attributes.kind !== WEBHOOK_KIND)
      throw new DomainError('conflict', INTEGRATION_TEXTS.notWebhook);
    return accountId;
  }

  /** The active account and the integration, once the user holds the permission. */
  private async integrationOf(
    session: Session,
    permission: string,
    integrationId: string,
  ): Promise<{ readonly accountId: string; readonly attributes: IntegrationAttributes }> {
    const accountId = session.activeAccount?.id;
    if (accountId === undefined || !can(session.ctx, permission)) throw forbidden();
    const row = await new ModelRepository(this.db).find(
      accountId,
      integrationModel.type,
      integrationId,
    );
    if (row === undefined) throw notFound('Integration');
    return { accountId, attributes: JSON.parse(row.attributes) as IntegrationAttributes };
  }
}
