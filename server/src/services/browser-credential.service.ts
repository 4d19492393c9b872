import { timingSafeEqual } from 'node:crypto';
import { uuidv7 } from '@plant/shared-schema';
import { lockInTransaction, type Db } from '../db/database';
import { isoAt, type Clock } from '../lib/clock';
import { newToken, sha256 } from '../lib/secrets';
import { BrowserCredentialRepository } from '../repositories/browser-credential.repository';
import type { Authenticated } from './auth.service';
import { forbidden } from './domain-error';
import type { Session } from './user.service';

export interface BrokerIdentity {
  readonly credentialId: string;
  readonly userId: string;
  readonly accountId: string;
}

/**
 * Broker credentials per browser (spec 000 §7 GET user/browser/mqtt): issued for the active
 * account, bound to the access token, revoked with it and (all the user's browsers at once) on an
 * account switch. Revocations are told to the broker, which closes the connections that used them;
 * its periodic re-check closes those whose credentials ended otherwise (expiry, token revoked).
 */
export class BrowserCredentialService {
  private readonly repo: BrowserCredentialRepository;
  private readonly revokedListeners = new Set<(ids: readonly string[]) => void>();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {
    this.repo = new BrowserCredentialRepository(db);
  }

  onRevoked(listener: (ids: readonly string[]) => void): () => void {
    this.revokedListeners.add(listener);
    return () => this.revokedListeners.delete(listener);
  }

  /** New credentials for this browser; the browser's earlier ones stop working. */
  async issue(session: Session, auth: Authenticated, browserId: string) {
    const accountId = session.activeAccount?.id;
    if (accountId === undefined) throw forbidden();
    const now = this.clock.now();
    const password = newToken();
    const username = `b-${uuidv7(now)}`;
    const clientid = `c-${uuidv7(now)}`;
    // One transaction, one at a time per browser: two requests for the same browser at once
    // would otherwise both revoke before either inserts, and leave it two live credentials.
    const revoked = await this.db.transaction().execute(async (trx) => {
      await lockInTransaction(trx, `browser-credentials:${session.user.id}:${browserId}`);
      const repo = new BrowserCredentialRepository(trx);
      const ids = await repo.revoke({ userId: session.user.id, browserId }, isoAt(now));
      await repo.insert({
        id: uuidv7(now),
        user_id: session.user.id,
        account_id: accountId,
        token_id: auth.tokenId,
        browser_id: browserId,
        username,
        clientid,
        password_hash: sha256(password),
        created_at: isoAt(now),
        expires_at: isoAt(auth.expiresAtMs),
      });
      return ids;
    });
    this.told(revoked);
    return { username, clientid, password };
  }

  /** Ends every credential issued under an access token (logout). */
  async revokeForToken(tokenId: string): Promise<void> {
    this.told(await this.repo.revoke({ tokenId }, isoAt(this.clock.now())));
  }

  /**
   * Ends every credential of a user, on all its browsers and tokens (account switch: the active
   * account is per user, so every browser of it is now in the wrong account).
   */
  async revokeForUser(userId: string): Promise<void> {
    this.told(await this.repo.revoke({ userId }, isoAt(this.clock.now())));
  }

  /** Which of these credentials are still live: the broker's re-check of open connections. */
  liveAmong(credentialIds: readonly string[]): Promise<Set<string>> {
    return this.repo.liveAmong(credentialIds, isoAt(this.clock.now()));
  }

  /** The broker's check at CONNECT: live credentials, right password, the client id issued. */
  async verify(
    username: string,
    password: Buffer,
    clientId: string,
  ): Promise<BrokerIdentity | undefined> {
    const row = await this.repo.findLive(username, isoAt(this.clock.now()));
    if (row === undefined || row.clientid !== clientId) return undefined;
    const given = Buffer.from(sha256(password.toString('utf8')), 'hex');
    const stored = Buffer.from(row.password_hash, 'hex');
    if (given.length !== stored.length || !timingSafeEqual(given, stored)) return undefined;
    return { credentialId: row.id, userId: row.user_id, accountId: row.account_id };
  }

  private told(ids: readonly string[]): void {
    if (ids.length === 0) return;
    for (const listener of this.revokedListeners) listener(ids);
  }
}
