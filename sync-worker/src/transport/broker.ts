import type * as Mqtt from 'mqtt';
import type { MqttClient } from 'mqtt';
import {
  deferred,
  apiPaths,
  brokerCredentialsSchema,
  envelopeSchema,
  liveValuesSchema,
  terminalOutSchema,
  TIMINGS,
  topics,
  updateMessageSchema,
  uploadProgressSchema,
  type LiveValues,
  type TerminalOut,
  type UpdateMessage,
  type UploadProgress,
} from '@plant/shared-schema';
import type { Logger } from '../log';
import type { ApiClient, ApiError } from './http';

/**
 * mqtt.js, loaded once on the first connect (a chunk of its own in the worker's build); a load
 * that failed (the chunk not reachable) is tried again at the next connect. Undefined: failed.
 */
let mqttModule: Promise<typeof Mqtt> | undefined;
async function loadMqtt(): Promise<typeof Mqtt | undefined> {
  mqttModule ??= import('mqtt');
  try {
    return await mqttModule;
  } catch {
    mqttModule = undefined;
    return undefined;
  }
}

/**
 * The broker connection as the UI shows it.
 *
 * ```
 *   stopped ──start()──► credentials ──ok──► connecting ──CONNACK──► connected
 *                          │  ▲  │                │                     │
 *               401/403    │  │  │ offline, 5xx   │ refused, closed     │ closed
 *                          ▼  │  ▼                ▼                     ▼
 *                   signed-out  └─── waiting (reconnect in 5 s) ◄───────┘
 * ```
 * Every attempt fetches fresh credentials: the server revokes a browser's earlier ones when it
 * issues new ones, and on an account switch, so old ones are never worth retrying.
 */
export type BrokerState =
  | { readonly name: 'stopped' }
  | { readonly name: 'credentials'; readonly attempt: number }
  | { readonly name: 'connecting'; readonly attempt: number }
  | { readonly name: 'connected'; readonly since: number; readonly subscribed: boolean }
  | {
      readonly name: 'waiting';
      readonly attempt: number;
      readonly retryAt: number;
      readonly reason: string;
    }
  | { readonly name: 'signed-out'; readonly reason: string }
  /** Another tab of this user and account holds the connection; this one reads the store. */
  | { readonly name: 'follower' };

export interface BrokerEvents {
  state?(state: BrokerState): void;
  /** A model update (or its stand-in) from `_modelupdates`, parsed. */
  update?(message: UpdateMessage): void;
  upload?(progress: UploadProgress): void;
  /** Live values of an asset (`account/{id}/values/{asset}`), parsed. */
  values?(message: LiveValues): void;
  /** A gateway terminal's answer (`account/{id}/terminal/{gateway}/out`), parsed. */
  terminal?(message: TerminalOut): void;
  /** The connection is up (CONNACK): the server is reachable again. */
  connected?(): void;
  /**
   * The subscription is in place (SUBACK): the time to look for missed updates (DESIGN.md
   * invariant 4). Not at CONNACK: what is published between the two reaches no one, and a
   * look taken before the subscription would not see it either.
   */
  subscribed?(): void;
  /** The credentials call was refused: spec 000 §8 signs the user out. */
  refused?(error: ApiError): void;
  /** What the user may see changed (`_notify/access`, DESIGN.md §10). */
  accessChanged?(): void;
}

export interface BrokerTimings {
  readonly keepaliveS: number;
  readonly reconnectMs: number;
  readonly resubscribeAfterConnectMs: number;
  readonly subscriptionCheckMs: number;
  readonly publishRetryMs: number;
  readonly connectTimeoutMs: number;
}

export interface BrokerOptions {
  /** ws(s)://host/mqtt */
  readonly url: string;
  readonly accountId: string;
  readonly browserId: string;
  readonly api: ApiClient;
  readonly log: Logger;
  readonly events: BrokerEvents;
  readonly timings?: Partial<BrokerTimings>;
}

const DEFAULT_TIMINGS: BrokerTimings = {
  keepaliveS: TIMINGS.brokerKeepaliveS,
  reconnectMs: TIMINGS.brokerReconnectMs,
  resubscribeAfterConnectMs: TIMINGS.brokerResubscribeAfterConnectMs,
  subscriptionCheckMs: TIMINGS.brokerSubscriptionCheckMs,
  publishRetryMs: TIMINGS.brokerPublishRetryMs,
  connectTimeoutMs: 10_000,
};

const credentialsAnswer = /* @__PURE__ */ deferred(() => envelopeSchema(brokerCredentialsSchema));
const decoder = new TextDecoder();

/**
 * mqtt.js over WebSocket to the server's /mqtt with per-browser credentials (spec 000 §7, §9):
 * keepalive 55 s, reconnect every 5 s, subscribe 2 s after connecting and check the subscription
 * every second, failed publishes kept and retried every 5 s. MQTT 3.1.1 (aedes speaks no 5).
 */
export class BrokerConnection {
  private readonly timings: BrokerTimings;
  private client: MqttClient | undefined;
  private current: BrokerState = { name: 'stopped' };
  private attempt = 0;
  private running = false;
  private subscribed = false;
  private subscribing = false;
  private subscribeAfter = 0;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  private checkTimer: ReturnType<typeof setInterval> | undefined;
  private retryTimer: ReturnType<typeof setInterval> | undefined;
  private readonly unsent: { topic: string; payload: string }[] = [];
  /** The assets whose live values are wanted, the gateways whose terminal answers are. */
  private valueAssets: ReadonlySet<string> = new Set();
  private terminalGateways: ReadonlySet<string> = new Set();
  /** The topics of those subscribed on this connection (asked), and those granted (SUBACK). */
  private readonly extraTopics = new Set<string>();
  private readonly grantedTopics = new Set<string>();
  /** Publishes that wait for a subscription (a terminal command waits for its answers' topic). */
  private readonly afterGrant: { needs: string; topic: string; payload: string }[] = [];

  constructor(private readonly options: BrokerOptions) {
    this.timings = { ...DEFAULT_TIMINGS, ...options.timings };
  }

  get state(): BrokerState {
    return this.current;
  }

  /** Messages waiting for a connection to be published. */
  get unsentCount(): number {
    return this.unsent.length;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.checkTimer = setInterval(() => this.checkSubscription(), this.timings.subscriptionCheckMs);
    this.retryTimer = setInterval(() => this.flushUnsent(), this.timings.publishRetryMs);
    void this.connect();
  }

  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.reconnectTimer);
    clearInterval(this.checkTimer);
    clearInterval(this.retryTimer);
    const client = this.client;
    this.client = undefined;
    if (client !== undefined) await client.endAsync(true).catch(() => undefined);
    this.setState({ name: 'stopped' });
  }

  /** Publishes now when connected, else keeps the message and retries every 5 s (spec 000 §8). */
  publish(topic: string, payload: string): void {
    const client = this.client;
    if (client === undefined || !client.connected) {
      this.unsent.push({ topic, payload });
      return;
    }
    client.publish(topic, payload, { qos: 0 }, (err) => {
      if (err === undefined || err === null) return;
      this.options.log.warn('broker publish failed, kept for retry', { topic, error: err.message });
      this.unsent.push({ topic, payload });
    });
  }

  private flushUnsent(): void {
    if (this.client?.connected !== true) return;
    for (const message of this.unsent.splice(0)) this.publish(message.topic, message.payload);
  }

  private async connect(): Promise<void> {
    if (!this.running) return;
    this.attempt += 1;
    const attempt = this.attempt;
    this.setState({ name: 'credentials', attempt });
    const answer = await this.options.api.get(apiPaths.browserMqtt(this.options.browserId), {
      schema: credentialsAnswer,
      quiet: true,
      background: true,
    });
    if (!this.running) return;
    if (!answer.ok) {
      const { error } = answer;
      if (error.kind === 'http' && (error.status === 401 || error.status === 403)) {
        this.setState({ name: 'signed-out', reason: error.message });
        this.options.events.refused?.(error);
        return;
      }
      this.waitAndRetry(error.message);
      return;
    }
    const creds = answer.data.data;
    this.setState({ name: 'connecting', attempt });
    // mqtt.js is a chunk of its own, loaded at the first connect: it was a third of the worker's
    // code to compile before the app's first answer from disk, which needs no broker.
    // Its browser build exports the default only.
    const loaded = await loadMqtt();
    if (!this.running) return;
    if (loaded === undefined) {
      this.waitAndRetry('the broker client did not load');
      return;
    }
    const mqtt = loaded.default;
    const client = mqtt.connect(this.options.url, {
      protocolVersion: 4,
      clientId: creds.clientid,
      username: creds.username,
      password: creds.password,
      keepalive: this.timings.keepaliveS,
      // Reconnects are ours: each one fetches fresh credentials first.
      reconnectPeriod: 0,
      connectTimeout: this.timings.connectTimeoutMs,
      clean: true,
      resubscribe: false,
    });
    this.client = client;
    this.subscribed = false;
    this.extraTopics.clear();
    this.grantedTopics.clear();
    client.on('connect', () => {
      if (this.client !== client) return;
      this.attempt = 0;
      this.subscribeAfter = Date.now() + this.timings.resubscribeAfterConnectMs;
      this.setState({ name: 'connected', since: Date.now(), subscribed: false });
      this.options.events.connected?.();
      this.flushUnsent();
    });
    client.on('message', (topic, payload) => this.receive(topic, payload));
    client.on('error', (err) => this.options.log.warn('broker error', { error: err.message }));
    client.on('close', () => {
      if (this.client !== client) return;
      this.client = undefined;
      this.subscribed = false;
      this.extraTopics.clear();
      this.grantedTopics.clear();
      client.removeAllListeners();
      client.end(true);
      this.waitAndRetry('connection closed');
    });
  }

  private waitAndRetry(reason: string): void {
    if (!this.running) return;
    const retryAt = Date.now() + this.timings.reconnectMs;
    this.setState({ name: 'waiting', attempt: this.attempt, retryAt, reason });
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => void this.connect(), this.timings.reconnectMs);
  }

  /** Every second: subscribe when connected long enough and not (or no longer) subscribed. */
  private checkSubscription(): void {
    const client = this.client;
    if (client?.connected !== true || this.subscribed || this.subscribing) return;
    if (Date.now() < this.subscribeAfter) return;
    this.subscribing = true;
    const wanted = [
      topics.modelUpdates(this.options.accountId),
      topics.uploadProgress(this.options.accountId),
      topics.accessChanged(this.options.accountId),
    ];
    client.subscribe(wanted, { qos: 0 }, (err, granted) => {
      this.subscribing = false;
      if (this.client !== client) return;
      const refused = (granted ?? []).filter((g) => g.qos === 128).map((g) => g.topic);
      if (err !== null && err !== undefined) {
        this.options.log.warn('broker subscribe failed', { error: err.message, refused });
        return;
      }
      this.subscribed = true;
      this.setState({ name: 'connected', since: Date.now(), subscribed: true });
      this.options.events.subscribed?.();
      this.syncExtraTopics();
    });
  }

  /**
   * The assets whose live values this connection should carry (DESIGN.md §8: only those on
   * screen, in any tab). Subscribed once the model updates are; a reconnect subscribes again.
   */
  setValueAssets(assets: ReadonlySet<string>): void {
    this.valueAssets = new Set(assets);
    this.syncExtraTopics();
  }

  /** The gateways whose terminal answers this connection should carry (internal tag only). */
  setTerminalGateways(gateways: ReadonlySet<string>): void {
    this.terminalGateways = new Set(gateways);
    this.syncExtraTopics();
  }

  /** The topics wanted beyond the model updates: live values and terminal answers. */
  private wantedExtraTopics(): Set<string> {
    const { accountId } = this.options;
    return new Set([
      ...[...this.valueAssets].map((a) => topics.assetValues(accountId, a)),
      ...[...this.terminalGateways].map((g) => topics.terminalOut(accountId, g)),
    ]);
  }

  private syncExtraTopics(): void {
    const client = this.client;
    if (client?.connected !== true || !this.subscribed) return;
    const wanted = this.wantedExtraTopics();
    const added = [...wanted].filter((t) => !this.extraTopics.has(t));
    const removed = [...this.extraTopics].filter((t) => !wanted.has(t));
    for (const t of added) this.extraTopics.add(t);
    for (const t of removed) this.extraTopics.delete(t);
    if (added.length > 0) {
      client.subscribe(added, { qos: 0 }, (err, granted) => {
        const refused = (granted ?? []).filter((g) => g.qos === 128).map((g) => g.topic);
        if ((err !== null && err !== undefined) || refused.length > 0) {
          this.options.log.warn('subscription refused', { refused });
          // Not kept as subscribed: the next change or reconnect tries again.
          for (const t of refused) this.extraTopics.delete(t);
        }
        if (this.client !== client) return;
        for (const g of granted ?? []) if (g.qos !== 128) this.grantedTopics.add(g.topic);
        this.flushAfterGrant();
      });
    }
    if (removed.length > 0) {
      for (const t of removed) this.grantedTopics.delete(t);
      client.unsubscribe(removed);
    }
  }

  /**
   * Publishes once the subscription to `needs` is granted on this connection: a terminal
   * command sent before its answers' topic is subscribed would be answered to no one.
   */
  publishAfter(needs: string, topic: string, payload: string): void {
    if (this.afterGrant.length >= 50) this.afterGrant.shift();
    this.afterGrant.push({ needs, topic, payload });
    this.flushAfterGrant();
  }

  private flushAfterGrant(): void {
    if (this.client?.connected !== true) return;
    const ready = this.afterGrant.filter((m) => this.grantedTopics.has(m.needs));
    if (ready.length === 0) return;
    this.afterGrant.splice(
      0,
      this.afterGrant.length,
      ...this.afterGrant.filter((m) => !ready.includes(m)),
    );
    for (const m of ready) this.publish(m.topic, m.payload);
  }

  private receive(topic: string, payload: Uint8Array): void {
    let json: unknown;
    try {
      // TextDecoder, not toString(): in the browser build the payload is a plain Uint8Array.
      json = JSON.parse(decoder.decode(payload));
    } catch {
      this.options.log.warn('broker message is not JSON', { topic });
      return;
    }
    if (topic === topics.modelUpdates(this.options.accountId)) {
      const parsed = updateMessageSchema.safeParse(json);
      if (parsed.success) this.options.events.update?.(parsed.data);
      else this.options.log.warn('model update does not match its schema', { topic });
    } else if (topic === topics.uploadProgress(this.options.accountId)) {
      const parsed = uploadProgressSchema.safeParse(json);
      if (parsed.success) this.options.events.upload?.(parsed.data);
    } else if (topic === topics.accessChanged(this.options.accountId)) {
      this.options.events.accessChanged?.();
    } else if (this.extraTopics.has(topic) && topic.endsWith('/out')) {
      const parsed = terminalOutSchema.safeParse(json);
      if (parsed.success) this.options.events.terminal?.(parsed.data);
      else this.options.log.warn('terminal answer does not match its schema', { topic });
    } else if (this.extraTopics.has(topic)) {
      const parsed = liveValuesSchema.safeParse(json);
      if (parsed.success) this.options.events.values?.(parsed.data);
      else this.options.log.warn('live values do not match their schema', { topic });
    }
  }

  private setState(state: BrokerState): void {
    this.current = state;
    this.options.events.state?.(state);
  }
}
