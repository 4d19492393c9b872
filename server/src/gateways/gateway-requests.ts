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
 * Requests to a gateway's agent (OPC UA browse and search, spec 001 §9): published on its
 * `down/request` topic, answered on its `up/response` topic by id, within a minute. Only the
 * gateway asked can answer: an answer with the id from another gateway is ignored.
 */
export class GatewayRequests {
  private readonly waiting = new Map<string, Waiting>();

  constructor(
    private readonly publish: (topic: string, payload: string) => void,
    private readonly isOnline: (gatewayId: string) => boolean,
    private readonly log: Logger,
    private readonly timeoutMs = GATEWAY_REQUEST_TIMEOUT_MS,
  ) {}

  ask(gatewayId: string, body: RequestBody): Promise<GatewayResponse> {
    if (!this.isOnline(gatewayId))
      return Promise.reject(new DomainError('conflict', GATEWAY_OFFLINE));
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
    const waiting = this.waiting.get(parsed.data.id);
    if (waiting === undefined || waiting.gatewayId !== identity.gatewayId) return;
    this.waiting.delete(parsed.data.id);
    clearTimeout(waiting.timer);
    waiting.resolve(parsed.data);
  }

  close(): void {
    for (const w of this.waiting.values()) clearTimeout(w.timer);
    this.waiting.clear();
  }
}
