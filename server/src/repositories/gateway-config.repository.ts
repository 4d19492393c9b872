import type { Db } from '../db/database';
import { scopeTo } from './account-scope';

/** The configuration last sent to each gateway: its version and content hash. */
export class GatewayConfigRepository {
  constructor(private readonly db: Db) {}

  find(accountId: string, gatewayId: string) {
    return scopeTo(this.db, accountId)
      .selectFrom('gateway_configs')
      .select(['version', 'hash'])
      .where('gateway_id', '=', gatewayId)
      .executeTakeFirst();
  }

  async put(accountId: string, gatewayId: string, version: number, hash: string, at: string) {
    const scope = scopeTo(this.db, accountId);
    await scope.deleteFrom('gateway_configs').where('gateway_id', '=', gatewayId).execute();
    await scope
      .insertInto('gateway_configs', [{ gateway_id: gatewayId, version, hash, updated_at: at }])
      .execute();
  }

  async remove(accountId: string, gatewayId: string): Promise<void> {
    await scopeTo(this.db, accountId)
      .deleteFrom('gateway_configs')
      .where('gateway_id', '=', gatewayId)
      .execute();
  }

  /** The gateways of the account that were sent a configuration. */
  async gatewaysOf(accountId: string): Promise<string[]> {
    const rows = await scopeTo(this.db, accountId)
      .selectFrom('gateway_configs')
      .select('gateway_id')
      .execute();
    return rows.map((r) => r.gateway_id);
  }

  /** Every account with gateways that were sent a configuration (re-sent at start). */
  async accounts(): Promise<string[]> {
    // Across accounts on purpose: at start the broker has lost its retained messages, and every
    // gateway of every account gets its configuration again.
    const rows = await this.db
      .selectFrom('gateway_configs')
      .select('account_id')
      .distinct()
      .execute();
    return rows.map((r) => r.account_id);
  }
}
