import { terminalOutSchema, topics, uuidv7, type TerminalOut } from '@plant/shared-schema';
import type { Result } from '../api';
import type { Logger } from '../log';
import { TabChannel, TabWants } from '../tab-relay';

/** A follower says which gateways' terminals it shows this often; the leader forgets after 3. */
const WANT_EVERY_MS = 10_000;

type ChannelMessage =
  | { readonly t: 'want'; readonly tab: string; readonly gateways: readonly string[] }
  | { readonly t: 'send'; readonly gateway: string; readonly id: string; readonly line: string }
  | { readonly t: 'taken'; readonly id: string }
  | { readonly t: 'out'; readonly message: TerminalOut }
  | { readonly t: 'leader' };

/** The leader's broker, as far as the terminal goes. */
export interface TerminalBroker {
  setTerminalGateways(gateways: ReadonlySet<string>): void;
  /** Publishes once the subscription to `needs` is in place (the answers' topic). */
  publishAfter(needs: string, topic: string, payload: string): void;
}

/**
 * The gateway terminal in the worker (spec 000 §2): commands go out on the account's terminal
 * topic, answers come back on its `out` topic for every watching page. Only the leader tab holds
 * the broker; followers send and watch through it over a BroadcastChannel, like live values.
 */
export class TerminalHub {
  private readonly watchers = new Map<string, Set<(message: TerminalOut) => void>>();
  private readonly remote = new TabWants(3 * WANT_EVERY_MS);
  private readonly tab = Math.random().toString(36).slice(2);
  private readonly channel: TabChannel<ChannelMessage>;
  private readonly timer: ReturnType<typeof setInterval>;
  /**
   * Lines typed here that no leader has taken yet: a tab reloaded while the old page still
   * holds the lock has no leader for a moment, and a line typed then must not be lost. They go
   * out when this tab leads, or again to each leader that announces itself.
   */
  private readonly unsent = new Map<string, { readonly gateway: string; readonly line: string }>();
  /** Ids the leader published lately: a line offered twice (again to a new leader) goes once. */
  private readonly published = new Set<string>();
  private broker: TerminalBroker | undefined;
  private stopped = false;

  constructor(
    private readonly accountId: string,
    channelName: string,
    log: Logger,
  ) {
    this.channel = new TabChannel(channelName, (m) => this.heard(m), log);
    this.timer = setInterval(() => this.changed(), WANT_EVERY_MS);
  }

  lead(broker: TerminalBroker): void {
    this.broker = broker;
    this.post({ t: 'leader' });
    this.changed();
    for (const [id, { gateway, line }] of [...this.unsent]) this.publish(gateway, id, line);
  }

  /** An answer from the leader's broker. */
  received(message: TerminalOut): void {
    this.post({ t: 'out', message });
    this.deliver(message);
  }

  watch(gatewayId: string, callback: (message: TerminalOut) => void): () => void {
    let set = this.watchers.get(gatewayId);
    if (set === undefined) this.watchers.set(gatewayId, (set = new Set()));
    set.add(callback);
    this.changed();
    return () => {
      set.delete(callback);
      if (set.size === 0) this.watchers.delete(gatewayId);
      this.changed();
    };
  }

  /** Sends a command line; its answer comes to the watchers with the id answered here. */
  send(gatewayId: string, line: string): Result<{ id: string }> {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(gatewayId) || line.length > 500) {
      return { error: { kind: 'invalid', message: 'The given data was invalid.' } };
    }
    const id = uuidv7();
    if (this.broker !== undefined) this.publish(gatewayId, id, line);
    else {
      this.unsent.set(id, { gateway: gatewayId, line });
      this.post({ t: 'send', gateway: gatewayId, id, line });
    }
    return { data: { id } };
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
    this.watchers.clear();
    this.channel.close();
  }

  private publish(gatewayId: string, id: string, line: string): void {
    this.unsent.delete(id);
    if (this.broker === undefined || this.published.has(id)) return;
    this.published.add(id);
    if (this.published.size > 200) {
      const oldest = this.published.values().next();
      if (oldest.done !== true) this.published.delete(oldest.value);
    }
    this.broker.publishAfter(
      topics.terminalOut(this.accountId, gatewayId),
      topics.terminalIn(this.accountId, gatewayId),
      JSON.stringify({ id, line }),
    );
  }

  private deliver(message: TerminalOut): void {
    for (const cb of this.watchers.get(message.gateway) ?? []) cb(message);
  }

  /** The watched gateways changed (or the time came to say them again). */
  private changed(): void {
    if (this.stopped) return;
    if (this.broker === undefined) {
      this.post({ t: 'want', tab: this.tab, gateways: [...this.watchers.keys()] });
      return;
    }
    this.broker.setTerminalGateways(this.remote.union(this.watchers.keys()));
  }

  private heard(message: ChannelMessage): void {
    if (this.stopped) return;
    switch (message.t) {
      case 'want':
        if (this.broker === undefined) return;
        this.remote.note(message.tab, message.gateways);
        this.changed();
        return;
      case 'send':
        if (this.broker === undefined) return;
        this.publish(message.gateway, message.id, message.line);
        this.post({ t: 'taken', id: message.id });
        return;
      case 'taken':
        this.unsent.delete(message.id);
        return;
      case 'out': {
        const parsed = terminalOutSchema.safeParse(message.message);
        if (parsed.success && this.broker === undefined) this.deliver(parsed.data);
        return;
      }
      case 'leader':
        this.changed();
        for (const [id, { gateway, line }] of this.unsent) {
          this.post({ t: 'send', gateway, id, line });
        }
        return;
    }
  }

  private post(message: ChannelMessage): void {
    if (!this.stopped) this.channel.post(message);
  }
}
