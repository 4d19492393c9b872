import {
  INTEGRATION_TEXTS,
  integrationModel,
  type IntegrationAttributes,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import { ModelRepository } from '../repositories/model.repository';
import type { AccessDecision } from '../services/access-decision';
import { forbidden } from '../services/domain-error';
import { uniqueAttributeProblems } from '../services/unique-attribute';

/*
 * The server's rules of integrations beside the generic model writes (issue 37 item 6), called
 * by the model transaction for the fields a write sets: an address (slug) of its own within the
 * account, and for a webhook's typed part, assets the writer sees. A
 * webhook posts the events of its assets to any address its writer chooses, so a writer who
 * does not see an asset may not have it sent (hidden is told like unknown: 422), nor every asset
 * (403); whoever changes the webhook part answers for every asset it names.
 */
export async function integrationWriteProblems(
  trx: Db,
  accountId: string,
  selfId: string,
  attributes: Record<string, unknown>,
  touched: ReadonlySet<string>,
  access: AccessDecision | undefined,
): Promise<Record<string, string[]>> {
  const problems = await uniqueAttributeProblems(
    trx,
    accountId,
    integrationModel.type,
    selfId,
    'slug',
    attributes,
    touched,
    INTEGRATION_TEXTS.slugTaken,
  );
  const webhook = (attributes as IntegrationAttributes).webhook;
  if (!touched.has('webhook') || webhook === null) return problems;
  if (webhook.all_assets) {
    if (access !== undefined && !access.allAssets) throw forbidden(INTEGRATION_TEXTS.allAssets);
    return problems;
  }
  const ids = [...new Set(webhook.asset_ids)];
  const found = new Set(
    (await new ModelRepository(trx).findMany(accountId, 'asset', ids)).map((row) => row.id),
  );
  if (ids.some((id) => !found.has(id) || (access !== undefined && !access.seesAsset(id))))
    problems.webhook = [...(problems.webhook ?? []), INTEGRATION_TEXTS.unknownAsset];
  return problems;
}
