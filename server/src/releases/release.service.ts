import {
  can,
  releaseModel,
  type ReleaseHistoryEntry,
  type ReleaseKeyInfo,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import { ModelRepository } from '../repositories/model.repository';
import { forbidden, notFound } from '../services/domain-error';
import type { Session } from '../services/session';
import { releaseHistory } from './release-history';
import type { ReleaseKeys } from './release-keys';

/** Release management's reads beside the generic model routes (DESIGN.md §15). */
export class ReleaseService {
  constructor(
    private readonly db: Db,
    private readonly keys: ReleaseKeys | undefined,
  ) {}

  private accountOf(session: Session): string {
    const accountId = session.activeAccount?.id;
    if (accountId === undefined || !can(session.ctx, releaseModel.permissions.view))
      throw forbidden();
    return accountId;
  }

  /** The active account's release key's public half; null until its first release. */
  async key(session: Session): Promise<ReleaseKeyInfo> {
    const accountId = this.accountOf(session);
    const key = await this.keys?.publicOf(accountId);
    return key === undefined ? null : { public_key: key.publicKey, key_id: key.keyId };
  }

  /** A version of the active account: its history, newest first (issue 35 item 5). */
  async history(session: Session, releaseId: string): Promise<ReleaseHistoryEntry[]> {
    const accountId = this.accountOf(session);
    const stored = await new ModelRepository(this.db).find(accountId, releaseModel.type, releaseId);
    if (stored === undefined) throw notFound('Release');
    return releaseHistory(this.db, accountId, releaseId);
  }
}
