import { can, releaseModel, type ReleaseKeyInfo } from '@plant/shared-schema';
import { forbidden } from '../services/domain-error';
import type { Session } from '../services/session';
import type { ReleaseKeys } from './release-keys';

/** Release management's reads beside the generic model routes (DESIGN.md §15). */
export class ReleaseService {
  constructor(private readonly keys: ReleaseKeys | undefined) {}

  /** The active account's release key's public half; null until its first release. */
  async key(session: Session): Promise<ReleaseKeyInfo> {
    const accountId = session.activeAccount?.id;
    if (accountId === undefined || !can(session.ctx, releaseModel.permissions.view))
      throw forbidden();
    const key = await this.keys?.publicOf(accountId);
    return key === undefined ? null : { public_key: key.publicKey, key_id: key.keyId };
  }
}
