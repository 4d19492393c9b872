import { timingSafeEqual } from 'node:crypto';
import {
  can,
  GATEWAY_USERNAME_PREFIX,
  gatewayBrokerLogin,
  gatewayModel,
  uuidv7,
  type GatewayCredentialList,
  type GatewayCredentialsMade,
} from '@plant/shared-schema';
import { lockInTransaction, type Db } from '../db/database';
import { isoAt, type Clock } from '../lib/clock';
import { newToken, sha256 } from '../lib/secrets';
import { AccountRepository } from '../repositories/account.repository';
import { GatewayCredentialRepository } from '../repositories/gateway-credential.repository';
import { ModelRepository } from '../repositories/model.repository';
import { forbidden, notFound } from './domain-error';
import type { Session } from './user.service';

/** Who a connected gateway agent is. */
export interface GatewayIdentity {
  readonly credentialId: string;
  readonly gatewayId: string;
  readonly accountId: string;
}

/**
 * A gateway agent's broker credentials (DESIGN.md §8): made by someone with gateway::edit on the
 * gateway's page, the secret shown once and stored as SHA-256. Making new ones revokes the old
 * (rotation); revoking ends them. Revocations are told to the broker, which closes the agent's
 * connection at once.
 */
export class GatewayCredentialService {
  private readonly repo: GatewayCredentialRepository;
  private readonly models: ModelRepository;
  private readonly accounts: AccountRepository;
  private readonly revokedListeners = new Set<(ids: readonly string[]) => void>();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {
    this.repo = new GatewayCredentialRepository(db);
    this.models = new ModelRepository(db);
    this.accounts = new AccountRepository(db);
  }

  onRevoked(listener: (ids: readonly string[]) => void): () => void {
    this.revokedListeners.add(listener);
    return () => this.revokedListeners.delete(listener);
  }

  /** New credentials for the gateway; its earlier ones stop working and their link closes. */
  async make(session: Session, gatewayId: string): Promise<GatewayCredentialsMade> {
    const accountId = await this.editableGateway(session, gatewayId);
    return this.makeFor(accountId, gatewayId, session.user.id);
  }

  /**
   * The same without a session: for the demo agents that `npm start` runs (the seeded gateways
   * of the demo accounts), and tests. Callers have checked the account already.
   */
  async makeFor(
    accountId: string,
    gatewayId: string,
    createdBy: string | null,
  ): Promise<GatewayCredentialsMade> {
    const now = this.clock.now();
    const secret = newToken();
    const id = uuidv7(now);
    const revoked = await this.db.transaction().execute(async (trx) => {
      // One at a time per gateway (another process too): revoke-then-insert must not interleave.
      await lockInTransaction(trx, `gateway-credentials:${gatewayId}`);
      const repo = new GatewayCredentialRepository(trx);
      const ids = await repo.revokeAll(accountId, gatewayId, isoAt(now));
      await repo.insert(accountId, {
        id,
        gateway_id: gatewayId,
        secret_hash: sha256(secret),
        created_by: createdBy,
        created_at: isoAt(now),
      });
      return ids;
    });
    this.told(revoked);
    const login = gatewayBrokerLogin(gatewayId);
    return {
      id,
      gateway_id: gatewayId,
      username: login.username,
      client_id: login.clientId,
      secret,
      created_at: isoAt(now),
    };
  }

  async revoke(session: Session, gatewayId: string): Promise<number> {
    const accountId = await this.editableGateway(session, gatewayId);
    const ids = await this.repo.revokeAll(accountId, gatewayId, isoAt(this.clock.now()));
    this.told(ids);
    return ids.length;
  }

  async list(session: Session, gatewayId: string): Promise<GatewayCredentialList> {
    const accountId = await this.editableGateway(session, gatewayId);
    return this.repo.listLive(accountId, gatewayId);
  }

  /**
   * The broker's check at CONNECT: the user name and client id of the gateway, a live secret of
   * it, the gateway still in the credential's account, and that account active (spec 001 §4: a
   * deactivated account's gateways stop).
   */
  async verify(
    username: string,
    password: Buffer,
    clientId: string,
  ): Promise<GatewayIdentity | undefined> {
    if (!username.startsWith(GATEWAY_USERNAME_PREFIX)) return undefined;
    const gatewayId = username.slice(GATEWAY_USERNAME_PREFIX.length);
    if (clientId !== gatewayBrokerLogin(gatewayId).clientId) return undefined;
    const given = Buffer.from(sha256(password.toString('utf8')), 'hex');
    const match = (await this.repo.findLiveByGateway(gatewayId)).find((row) => {
      const stored = Buffer.from(row.secret_hash, 'hex');
      return stored.length === given.length && timingSafeEqual(stored, given);
    });
    if (match === undefined) return undefined;
    const gateway = await this.models.find(match.account_id, gatewayModel.type, gatewayId);
    if (gateway === undefined) return undefined;
    if (!(await this.accounts.isActive(match.account_id))) return undefined;
    return { credentialId: match.id, gatewayId, accountId: match.account_id };
  }

  /** Ends the gateway's credentials without a session (the gateway was deleted). */
  async revokeFor(accountId: string, gatewayId: string): Promise<void> {
    this.told(await this.repo.revokeAll(accountId, gatewayId, isoAt(this.clock.now())));
  }

  /**
   * Closes the links of the account's gateways (the account was deactivated), here and, through
   * the revocation's listeners, on every process of a cluster. Their credentials are not revoked:
   * CONNECT refuses them while the account is inactive (`verify`), and the same agents with the
   * same secrets come back when it is reactivated (they keep their buffers meanwhile).
   */
  async closeLinksOf(accountId: string): Promise<void> {
    this.told(await this.repo.liveOfAccount(accountId));
  }

  liveAmong(ids: readonly string[]): Promise<Set<string>> {
    return this.repo.liveAmong(ids);
  }

  /** The active account's gateway, when the user may edit gateways there. */
  private async editableGateway(session: Session, gatewayId: string): Promise<string> {
    const accountId = session.activeAccount?.id;
    if (accountId === undefined || !can(session.ctx, gatewayModel.permissions.update)) {
      throw forbidden();
    }
    const gateway = await this.models.find(accountId, gatewayModel.type, gatewayId);
    if (gateway === undefined) throw notFound('Gateway');
    return accountId;
  }

  private told(ids: readonly string[]): void {
    if (ids.length === 0) return;
    for (const listener of this.revokedListeners) listener(ids);
  }
}
