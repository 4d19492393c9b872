import { appPaths, can, gatewayModel, type LinkGatewayResult } from '@plant/shared-schema';
import type { Db } from '../db/database';
import { AccountRepository } from '../repositories/account.repository';
import { ModelRepository } from '../repositories/model.repository';
import { mayWorkIn, permissionContextIn } from './account-access';
import { notFound } from './domain-error';
import type { Session } from './user.service';

/** Gateways beyond the generic model writes: linking one by its QR code. */
export class GatewayService {
  private readonly accounts: AccountRepository;
  private readonly models: ModelRepository;

  constructor(private readonly db: Db) {
    this.accounts = new AccountRepository(db);
    this.models = new ModelRepository(db);
  }

  /**
   * GET linkGateway?id= (spec 000 §2 /scan): finds the gateway whose id or serial the QR code
   * carries, among the accounts the user may work in (and so switch to) and has gateway::view in;
   * the active account first, then the others by name. In another account the answer names that
   * account, for the client to switch to before it goes to the path. Anything else (unknown, in an
   * account out of reach, no gateway::view there): 404, the same answer for each.
   */
  async link(session: Session, ref: string): Promise<LinkGatewayResult> {
    const activeId = session.activeAccount?.id;
    const candidates = (await this.accounts.allForMember(session.user.id))
      .filter((a) => mayWorkIn(session, a.id))
      .sort((a, b) => Number(b.id === activeId) - Number(a.id === activeId));
    for (const account of candidates) {
      const ctx = await permissionContextIn(this.db, session, account.id);
      if (!can(ctx, gatewayModel.permissions.view)) continue;
      const gateway = await this.models.findByIdOrAttribute(
        account.id,
        gatewayModel.type,
        'serial',
        ref,
      );
      if (gateway === undefined) continue;
      return {
        path: appPaths.gatewayDetails(gateway.id),
        account: account.id === activeId ? null : { id: account.id, name: account.name },
      };
    }
    throw notFound('Gateway');
  }
}
