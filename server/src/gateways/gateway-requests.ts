import {
  GATEWAY_REQUEST_TIMEOUT_MS,
  gatewayResponseSchema,
  gatewayTopics,
  uuidv7,
  type GatewayRequest,
  type GatewayResponse,
} from '@plant/shared-schema';
import type { Logger } from '../logger';
import { DomainError } from '../services/domain-error';
import type { GatewayIdentity } from '../services/gateway-credential.service';

type RequestBody = GatewayRequest extends infer R
  ? R extends unknown
    ? Omit<R, 'id'>
    : never
  : never;

interface Waiting {
  readonly gatewayId: string;
  readonly resolve: (answer: GatewayResponse) => void;
  readonly timer: NodeJS.Timeout;
}

export const GATEWAY_OFFLINE = 'The gateway is offline. Interactions are limited until it is back.';
export const GATEWAY_NO_ANSWER = 'The gateway did not answer in time. Try again later.';

/**
 * Requests to a gateway's agent (OPC UA browse and search, spec 001 §9; terminal commands):
 * published on its `down/request` topic, answered on its `up/response` topic by id, within a
 * minute. Only the gateway asked can answer: an answer with the id from another gateway is
 * ignored. In a cluster (DESIGN.md §11) the agent may be linked to another process than the one
 * that asks: the request reaches it through the shared broker, and its answer, received there,
 * comes back through `unclaimed` (that process's) and `claim` (this one's).
 */
export class GatewayRequests {
  private readonly waiting = new Map<string, Waiting>();
  /** Set in a cluster: whether a gateway is linked to another process. */
  onlineElsewhere: ((gatewayId: string) => Promise<boolean>) | undefined;
  /** Set in a cluster: an answer no request of this process waits for, for the others. */
  unclaimed: ((gatewayId: string, answer: GatewayResponse) => void) | undefined;

  constructor(
    private readonly publish: (topic: string, payload: string) => void,
    private readonly isOnline: (gatewayId: string) => boolean,
    private readonly log: Logger,
    private readonly timeoutMs = GATEWAY_REQUEST_TIMEOUT_MS,
  ) {}

  async ask(gatewayId: string, body: RequestBody): Promise<GatewayResponse> {
    const online = this.isOnline(gatewayId) || (await this.onlineElsewhere?.(gatewayId)) === true;
    if (!online) throw new DomainError('conflict', GATEWAY_OFFLINE);
    const id = uuidv7();
    return new Promise<GatewayResponse>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new DomainError('timeout', GATEWAY_NO_ANSWER));
      }, this.timeoutMs);
      this.waiting.set(id, { gatewayId, resolve, timer });
      this.publish(gatewayTopics.request(gatewayId), JSON.stringify({ ...body, id }));
    });
  }

  /** An answer on `up/response`. */
  responded(identity: GatewayIdentity, payload: Buffer): void {
    let json: unknown;
    try {
      json = JSON.parse(payload.toString('utf8'));
    } catch {
      this.log.warn('gateway answer is not JSON', { gateway: identity.gatewayId });
      return;
    }
    const parsed = gatewayResponseSchema.safeParse(json);
    if (!parsed.success) {
      this.log.warn('gateway answer refused', { gateway: identity.gatewayId });
      return;
    }
    if (!this.claim(identity.gatewayId, parsed.data))
      this.unclaimed?.(identity.gatewayId, parsed.data);
  }

  /** Resolves the request this answer is for, if this process waits for it (by id and gateway). */
  claim(gatewayId: string, answer: GatewayResponse): boolean {
    const waiting = this.waiting.get(answer.id);
    if (waiting === undefined || waiting.gatewayId !== gatewayId) return false;
    this.waiting.delete(answer.id);
    clearTimeout(waiting.timer);
    waiting.resolve(answer);
    return true;
  }

  close(): void {
    for (const w of this.waiting.values()) clearTimeout(w.timer);
    this.waiting.clear();
  }
}
