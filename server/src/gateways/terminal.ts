import {
  can,
  connectionHostOf,
  connectionModel,
  gatewayModel,
  mayPing,
  TERMINAL_PING_REFUSED,
  type ConnectionAttributes,
  type GatewayAttributes,
  type PingScope,
  hasTag,
  parseTerminalLine,
  TERMINAL_HELP,
  TERMINAL_NOT_ALLOWED,
  terminalInSchema,
  topics,
  uuidv7,
  type TerminalAudit,
  type TerminalOut,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import type { Clock } from '../lib/clock';
import type { Logger } from '../logger';
import { ModelRepository, type ModelRow } from '../repositories/model.repository';
import { TerminalRepository } from '../repositories/terminal.repository';
import type { BrokerIdentity } from '../services/browser-credential.service';
import { DomainError, forbidden, notFound } from '../services/domain-error';
import type { Session } from '../services/user.service';
import type { GatewayRequests } from './gateway-requests';

/** Whether a session may use the gateway terminal (spec 000 §2: tag internal, gateway::view). */
export function mayUseTerminal(ctx: Session['ctx']): boolean {
  return hasTag(ctx, 'internal') && can(ctx, gatewayModel.permissions.view);
}

/**
 * The gateway terminal (spec 000 §2; DESIGN.md invariant 7): a browser with the grant publishes
 * `{ id, line }` on `account/{a}/terminal/{gateway}/in`; the line is parsed against the allowlist
 * (help, status, ping, read, restart: never a shell), recorded in the audit list with who sent it,
 * run by the gateway's agent through its request topic, and the answer goes to the account's
 * browsers with the grant on `.../out`.
 */
export class GatewayTerminal {
  private readonly audit: TerminalRepository;
  private readonly models: ModelRepository;
  private readonly running = new Set<Promise<void>>();

  constructor(
    db: Db,
    private readonly requests: GatewayRequests,
    private readonly publish: (topic: string, payload: string) => void,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {
    this.audit = new TerminalRepository(db);
    this.models = new ModelRepository(db);
  }

  /** A message a browser with the grant published on its terminal topic. */
  received(identity: BrokerIdentity, gatewayId: string, payload: Buffer): void {
    const run = this.run(identity, gatewayId, payload).catch((err: unknown) =>
      this.log.error('terminal command failed', { error: String(err), gateway: gatewayId }),
    );
    this.running.add(run);
    void run.finally(() => this.running.delete(run));
  }

  private async run(identity: BrokerIdentity, gatewayId: string, payload: Buffer) {
    let json: unknown;
    try {
      json = JSON.parse(payload.toString('utf8'));
    } catch {
      json = undefined;
    }
    const message = terminalInSchema.safeParse(json);
    if (!message.success) {
      this.log.warn('terminal message refused', { gateway: gatewayId });
      return;
    }
    const { accountId, userId } = identity;
    const gateway = await this.models.find(accountId, gatewayModel.type, gatewayId);
    if (gateway === undefined) return;
    const at = this.clock.now();
    const id = uuidv7(at);
    const line = message.data.line.trim();
    await this.audit.record(accountId, { id, gatewayId, userId, line, at });
    const parsed = parseTerminalLine(line);
    let ok: boolean;
    let output: string;
    if ('help' in parsed) {
      [ok, output] = [true, TERMINAL_HELP];
    } else if ('error' in parsed) {
      [ok, output] = [false, parsed.error];
    } else if (
      parsed.command.op === 'ping' &&
      !mayPing(await this.pingScope(accountId, gateway), parsed.command.host)
    ) {
      // Judged here with what the server stored, before the agent (which judges again) hears.
      [ok, output] = [false, TERMINAL_PING_REFUSED];
    } else {
      try {
        const answer = await this.requests.ask(gatewayId, {
          op: 'terminal',
          command: parsed.command,
        });
        [ok, output] = answer.ok
          ? [true, 'output' in answer ? answer.output : '']
          : [false, answer.error];
      } catch (err) {
        [ok, output] = [false, err instanceof DomainError ? err.message : String(err)];
      }
    }
    await this.audit.answered(accountId, id, ok, output);
    const out: TerminalOut = {
      id: message.data.id,
      gateway: gatewayId,
      line,
      user: await this.audit.userEmail(userId),
      at,
      ok,
      output,
    };
    this.publish(topics.terminalOut(accountId, gatewayId), JSON.stringify(out));
  }

  /**
   * Where the gateway's ping may go, from what the server stored: its connections' hosts, its
   * static address and mask, and the addresses (with masks) its agent last reported.
   */
  private async pingScope(accountId: string, gateway: ModelRow): Promise<PingScope> {
    const connections = await this.models.allOfTypes(accountId, [connectionModel.type]);
    const hosts = connections
      .map((row) => JSON.parse(row.attributes) as ConnectionAttributes)
      .filter((c) => c.gateway_id === gateway.id)
      .flatMap((c) => connectionHostOf(c.settings) ?? []);
    const attributes = JSON.parse(gateway.attributes) as GatewayAttributes;
    const networks = (attributes.agent?.addresses ?? []).map((a) => ({
      address: a.address,
      netmask: a.netmask,
    }));
    if (attributes.ip !== null && attributes.subnet_mask !== null) {
      networks.push({ address: attributes.ip, netmask: attributes.subnet_mask });
    }
    return { hosts, networks };
  }

  /** The gateway's audit list (GET gateways/{id}/terminal): the grant's users only. */
  async list(session: Session, gatewayId: string): Promise<TerminalAudit> {
    const accountId = session.activeAccount?.id;
    if (accountId === undefined || !mayUseTerminal(session.ctx)) {
      throw forbidden(TERMINAL_NOT_ALLOWED);
    }
    const gateway = await this.models.find(accountId, gatewayModel.type, gatewayId);
    if (gateway === undefined) throw notFound('Gateway');
    return this.audit.list(accountId, gatewayId);
  }

  /** Waits for the commands under way (tests, shutdown). */
  async settled(): Promise<void> {
    await Promise.all([...this.running]);
  }
}
