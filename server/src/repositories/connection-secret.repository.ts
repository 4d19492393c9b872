import type { Db } from '../db/database';
import { scopeTo } from './account-scope';

/** The write-only settings of a connection (an OPC UA password), never part of its attributes. */
export interface ConnectionSecrets {
  readonly password?: string;
}

export class ConnectionSecretRepository {
  constructor(private readonly db: Db) {}

  async find(accountId: string, connectionId: string): Promise<ConnectionSecrets | undefined> {
    const row = await scopeTo(this.db, accountId)
      .selectFrom('connection_secrets')
      .select('secrets')
      .where('connection_id', '=', connectionId)
      .executeTakeFirst();
    return row === undefined ? undefined : (JSON.parse(row.secrets) as ConnectionSecrets);
  }

  /** Every connection's secrets in the account (the gateway configuration is built from them). */
  async allIn(accountId: string): Promise<Map<string, ConnectionSecrets>> {
    const rows = await scopeTo(this.db, accountId)
      .selectFrom('connection_secrets')
      .select(['connection_id', 'secrets'])
      .execute();
    return new Map(rows.map((r) => [r.connection_id, JSON.parse(r.secrets) as ConnectionSecrets]));
  }

  async put(accountId: string, connectionId: string, secrets: ConnectionSecrets): Promise<void> {
    await this.remove(accountId, connectionId);
    await scopeTo(this.db, accountId)
      .insertInto('connection_secrets', [
        { connection_id: connectionId, secrets: JSON.stringify(secrets) },
      ])
      .execute();
  }

  async remove(accountId: string, connectionId: string): Promise<void> {
    await scopeTo(this.db, accountId)
      .deleteFrom('connection_secrets')
      .where('connection_id', '=', connectionId)
      .execute();
  }
}
