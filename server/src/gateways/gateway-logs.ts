import {
  GATEWAY_LOG_LINES_KEPT,
  gatewayLogLinesSchema,
  type GatewayLogLine,
} from '@plant/shared-schema';
import type { Logger } from '../logger';
import type { GatewayIdentity } from '../services/gateway-credential.service';

/**
 * The gateway agents' recent log lines (issue 12, the gateway's logs page): what each agent sends
 * on `up/logs`, the newest GATEWAY_LOG_LINES_KEPT per gateway, in memory. The agent's own log on
 * the edge box is the record; this is the window the page shows, gone with a server restart.
 */
export class GatewayLogs {
  private readonly lines = new Map<string, GatewayLogLine[]>();

  constructor(private readonly log: Logger) {}

  received(identity: GatewayIdentity, payload: Buffer): void {
    let json: unknown;
    try {
      json = JSON.parse(payload.toString('utf8'));
    } catch {
      json = undefined;
    }
    const parsed = gatewayLogLinesSchema.safeParse(json);
    if (!parsed.success) {
      this.log.debug('gateway log lines refused', { gateway: identity.gatewayId });
      return;
    }
    const list = this.lines.get(identity.gatewayId) ?? [];
    list.push(...parsed.data);
    if (list.length > GATEWAY_LOG_LINES_KEPT) list.splice(0, list.length - GATEWAY_LOG_LINES_KEPT);
    this.lines.set(identity.gatewayId, list);
  }

  /** The gateway's kept lines, oldest first. */
  of(gatewayId: string): readonly GatewayLogLine[] {
    return this.lines.get(gatewayId) ?? [];
  }

  /** A deleted gateway's lines go. */
  forget(gatewayId: string): void {
    this.lines.delete(gatewayId);
  }
}
