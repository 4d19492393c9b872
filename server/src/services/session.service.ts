import type { Db } from '../db/database';
import type { Clock } from '../lib/clock';
import { sha256 } from '../lib/secrets';
import { AccessVersionRepository } from '../repositories/access-version.repository';
import type { AuthService, Authenticated } from './auth.service';
import { DomainError } from './domain-error';
import type { Session, UserService } from './user.service';

export interface SignedIn {
  readonly auth: Authenticated;
  readonly session: Session;
}

interface Entry extends SignedIn {
  readonly version: number;
  readonly expiresAtMs: number;
}

/**
 * Resolves a bearer token to the signed-in user's session, with a cache in front. Every request
 * needs the session (permissions are checked on every route), and loading it takes several
 * queries; a cached one costs one read of the access version.
 *
 * Why the cache cannot serve stale rights: every change to users, accounts, roles, memberships,
 * permissions, tags, flags, clients and tokens bumps `access_version` by trigger (migration
 * 20261122000100), in this process or any other. An entry is used only while the version it was
 * loaded at is still current and its token has not expired; the version is read before loading,
 * so a change that lands during a load only makes the entry stale sooner.
 */
export class SessionService {
  private readonly entries = new Map<string, Entry>();
  private readonly version: AccessVersionRepository;

  constructor(
    db: Db,
    private readonly clock: Clock,
    private readonly auth: AuthService,
    private readonly users: UserService,
    private readonly maxEntries = 10_000,
  ) {
    this.version = new AccessVersionRepository(db);
  }

  async resolve(token: string, internalFeaturesDisabled: boolean): Promise<SignedIn | undefined> {
    const version = await this.version.current();
    const key = `${sha256(token)}:${internalFeaturesDisabled ? 1 : 0}`;
    const hit = this.entries.get(key);
    if (hit !== undefined && hit.version === version && hit.expiresAtMs > this.clock.now()) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    this.entries.delete(key);
    const auth = await this.auth.authenticate(token);
    if (auth === undefined) return undefined;
    let session;
    try {
      session = await this.users.session(auth.userId, internalFeaturesDisabled, auth.narrowed);
    } catch (err) {
      // A scoped token whose user no longer holds its role: no session, as for a revoked token.
      if (auth.narrowed !== undefined && err instanceof DomainError) return undefined;
      throw err;
    }
    if (this.entries.size >= this.maxEntries)
      this.entries.delete(this.entries.keys().next().value ?? '');
    const entry: Entry = { auth, session, version, expiresAtMs: auth.expiresAtMs };
    this.entries.set(key, entry);
    return entry;
  }
}
