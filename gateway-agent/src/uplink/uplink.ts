import mqtt, { type MqttClient } from 'mqtt';
import {
  gatewayAckSchema,
  gatewayBrokerLogin,
  gatewayTopics,
  type GatewayAck,
  type GatewayStatus,
} from '@plant/shared-schema';
import type { PointBuffer } from '../buffer/buffer';
import type { Logger } from '../logger';

/** Batches sent and not yet acknowledged, at most. */
export const SEND_WINDOW = 32;
/** A batch unacknowledged this long is sent again (the server stores it once either way). */
export const ACK_TIMEOUT_MS = 30_000;
/** New points wait this long for others before they go, so that a read's values go together. */
const GATHER_MS = 20;

export interface UplinkEvents {
  /** The retained configuration (raw: the agent parses it), or '' when the gateway was deleted. */
  readonly config: (payload: string) => void;
  /** A request (OPC UA browse or search), raw. */
  readonly request: (payload: string) => void;
  /** The link came up (again). */
  readonly connected: () => void;
}

/** How the link is. */
export type LinkState =
  | { readonly name: 'connecting' }
  | { readonly name: 'connected' }
  | { readonly name: 'refused'; readonly message: string }
  | { readonly name: 'offline'; readonly error: string | null };

/**
 * The agent's link to the server's broker (DESIGN.md §8): out to `…/mqtt` with the gateway's
 * credentials, reconnecting by itself. Sends the buffer's batches in seq order with up to
 * SEND_WINDOW in flight, each again after a reconnect or ACK_TIMEOUT_MS without an ack; a batch
 * leaves the buffer when the server acknowledges it (stored, or a duplicate of one stored). A
 * deferred one (the gateway sent more than its rate) stays, and sending pauses for the wait asked.
 *
 *   add points ─► buffer ─► pump ─► publish up/data ─► … ─► down/ack ─► buffer.acknowledged
 *                              ▲ reconnect / ack / timer ┘
 */
export class Uplink {
  private client: MqttClient | undefined;
  private readonly inFlight = new Map<number, number>();
  private pumpTimer: NodeJS.Timeout | undefined;
  /** The server deferred batches (over the gateway's rate): nothing is sent before this time. */
  private holdUntil = 0;
  private holdTimer: NodeJS.Timeout | undefined;
  private readonly sweep: NodeJS.Timeout;
  private state: LinkState = { name: 'connecting' };
  private stopped = false;

  constructor(
    private readonly options: {
      readonly brokerUrl: string;
      readonly gatewayId: string;
      readonly key: string;
      readonly buffer: PointBuffer;
      readonly log: Logger;
      readonly events: UplinkEvents;
      readonly now?: () => number;
      readonly reconnectMs?: number;
    },
  ) {
    this.sweep = setInterval(() => this.resendLate(), 1_000);
  }

  start(): void {
    const { gatewayId, key, log } = this.options;
    const login = gatewayBrokerLogin(gatewayId);
    const client = mqtt.connect(this.options.brokerUrl, {
      username: login.username,
      password: key,
      clientId: login.clientId,
      protocolVersion: 4,
      keepalive: 30,
      clean: true,
      reconnectPeriod: this.options.reconnectMs ?? 2_000,
      connectTimeout: 10_000,
      // The server's answers say what it stored; a publish lost in a cut is sent again by us.
      queueQoSZero: false,
    });
    this.client = client;
    client.on('connect', () => {
      void this.subscribed(client);
    });
    client.on('message', (topic, payload) => this.message(topic, payload));
    client.on('close', () => {
      this.inFlight.clear();
      if (this.state.name === 'connected') {
        log.warn('link to the server lost');
        this.state = { name: 'offline', error: null };
      }
    });
    client.on('error', (err: Error & { code?: number }) => {
      if (err.code === 4 || err.code === 5) {
        const message = 'The server refused the gateway credentials (made on the gateway page).';
        if (this.state.name !== 'refused') log.error(message, { code: err.code });
        this.state = { name: 'refused', message };
        return;
      }
      if (this.state.name !== 'offline') log.warn('link error', { error: err.message });
      this.state = { name: 'offline', error: err.message };
    });
  }

  linkState(): LinkState {
    return this.state;
  }

  private async subscribed(client: MqttClient): Promise<void> {
    const { gatewayId, log } = this.options;
    try {
      await client.subscribeAsync(
        [
          gatewayTopics.config(gatewayId),
          gatewayTopics.ack(gatewayId),
          gatewayTopics.request(gatewayId),
        ],
        { qos: 1 },
      );
    } catch (err) {
      log.error('subscribing failed', { error: String(err) });
      return;
    }
    this.state = { name: 'connected' };
    log.info('connected to the server');
    this.inFlight.clear();
    this.options.events.connected();
    this.pump();
  }

  private message(topic: string, payload: Buffer): void {
    const { gatewayId, events, log } = this.options;
    if (topic === gatewayTopics.config(gatewayId)) {
      events.config(payload.toString('utf8'));
    } else if (topic === gatewayTopics.request(gatewayId)) {
      events.request(payload.toString('utf8'));
    } else if (topic === gatewayTopics.ack(gatewayId)) {
      let ack: GatewayAck;
      try {
        ack = gatewayAckSchema.parse(JSON.parse(payload.toString('utf8')));
      } catch {
        log.warn('an acknowledgement could not be read');
        return;
      }
      this.acked(ack);
    }
  }

  private acked(ack: GatewayAck): void {
    const { buffer, log } = this.options;
    this.inFlight.delete(ack.seq);
    if (ack.status === 'deferred') {
      // Not stored: the batch stays in the buffer and goes again once the server's wait is over
      // (its other batches in flight are deferred alike, so the window waits as a whole).
      const now = (this.options.now ?? Date.now)();
      const until = now + (ack.retry_after_ms ?? 1_000);
      if (until > this.holdUntil) {
        if (this.holdUntil <= now) log.info('the server asks to slow down', { seq: ack.seq });
        this.holdUntil = until;
        clearTimeout(this.holdTimer);
        this.holdTimer = setTimeout(() => {
          this.holdTimer = undefined;
          this.pump();
        }, until - now);
      }
      return;
    }
    if (ack.status === 'refused') {
      const dropped = buffer.refused(ack.seq);
      log.error('the server refused a batch; its points are dropped', {
        seq: ack.seq,
        dropped,
        message: ack.message,
      });
    } else {
      buffer.acknowledged(ack.seq);
      if (ack.refused.length > 0) {
        log.warn('the server refused points of a batch', {
          seq: ack.seq,
          refused: ack.refused.length,
          first: ack.refused[0]?.reason,
        });
      }
    }
    this.pump();
  }

  /** New points are in the buffer: send them soon. */
  pointsAdded(): void {
    if (this.pumpTimer !== undefined) return;
    this.pumpTimer = setTimeout(() => {
      this.pumpTimer = undefined;
      this.pump();
    }, GATHER_MS);
  }

  /** Sends what the window allows, oldest first. */
  private pump(): void {
    const client = this.client;
    if (
      this.stopped ||
      client === undefined ||
      !client.connected ||
      this.state.name !== 'connected' ||
      (this.options.now ?? Date.now)() < this.holdUntil
    )
      return;
    const { buffer, gatewayId } = this.options;
    const now = (this.options.now ?? Date.now)();
    for (const batch of buffer.outgoing(SEND_WINDOW, new Set(this.inFlight.keys()))) {
      this.inFlight.set(batch.seq, now);
      const message = JSON.stringify({
        gateway: gatewayId,
        buffer: buffer.id,
        seq: batch.seq,
        points: batch.points,
      });
      client.publish(gatewayTopics.data(gatewayId), message, { qos: 1 }, (err) => {
        // Not sent (the link went): sent again after the reconnect.
        if (err) this.inFlight.delete(batch.seq);
      });
    }
  }

  private resendLate(): void {
    const now = (this.options.now ?? Date.now)();
    let late = false;
    for (const [seq, sentAt] of this.inFlight) {
      if (now - sentAt >= ACK_TIMEOUT_MS) {
        this.inFlight.delete(seq);
        late = true;
      }
    }
    if (late || this.inFlight.size === 0) this.pump();
  }

  /** Sends the agent's status (not buffered: the next one replaces it). */
  status(status: GatewayStatus): void {
    const client = this.client;
    if (client === undefined || !client.connected) return;
    client.publish(gatewayTopics.status(this.options.gatewayId), JSON.stringify(status), {
      qos: 0,
    });
  }

  /** The agent's recent log lines; false when not connected (the caller keeps them). */
  logs(payload: string): boolean {
    const client = this.client;
    if (client === undefined || !client.connected) return false;
    client.publish(gatewayTopics.logs(this.options.gatewayId), payload, { qos: 0 });
    return true;
  }

  /**
   * Where it stands with a rollout's version (GatewayUpdateReport); false when not connected (the
   * retained configuration asks again on reconnect, and the report is made anew from the disk).
   */
  update(payload: string): boolean {
    const client = this.client;
    if (client === undefined || !client.connected) return false;
    client.publish(gatewayTopics.update(this.options.gatewayId), payload, { qos: 1 });
    return true;
  }

  /** Answers a request. */
  respond(payload: string): void {
    const client = this.client;
    if (client === undefined || !client.connected) return;
    client.publish(gatewayTopics.response(this.options.gatewayId), payload, { qos: 1 });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.sweep);
    clearTimeout(this.pumpTimer);
    clearTimeout(this.holdTimer);
    const client = this.client;
    if (client !== undefined) await client.endAsync();
  }
}
