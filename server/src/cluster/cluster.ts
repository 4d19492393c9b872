import { randomUUID } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';
import MQEmitterRedis from 'mqemitter-redis';
import type { AedesOptions } from 'aedes';
import type { GatewayResponse } from '@plant/shared-schema';
import { MemoryRateCounters, RedisRateCounters, type RateCounters } from '../lib/rate-limiter';
import type { Logger } from '../logger';
import type { GatewayLinkCounts } from '../gateways/presence';
import { RedisBrokerPersistence } from './broker-persistence';

/** What one process tells the others (DESIGN.md §11). */
export interface ClusterMessages {
  /** Credentials revoked here: a process with a connection that used one closes it. */
  revoked: { readonly ids: readonly string[] };
  /**
   * Model types changed by writes committed here: caches kept from models elsewhere (the stream
   * directory) drop what they hold of them. Types, not the updates: a batch can be 50,000.
   */
  changed: { readonly accountId: string; readonly types: readonly string[] };
  /**
   * A gateway's answer received here that no request of this process waits for: the process
   * that asked resolves it (the agent may be linked to any process).
   */
  'gateway-answer': { readonly gatewayId: string; readonly answer: GatewayResponse };
  /** Access in the account changed here (a role's assets, fields, permissions): re-check now. */
  access: { readonly accountId: string };
}

export type ClusterChannel = keyof ClusterMessages;

/**
 * The link between server processes. Alone (no REDIS_URL) it is a no-op: this process's own
 * listeners already hear everything. With Redis: what a process broadcasts reaches every other
 * process's handlers (never its own), and the embedded brokers share their messages and retained
 * messages through Redis (mqemitter-redis, aedes' own cluster path), so a browser connected to
 * one process gets what another publishes.
 */
export interface Cluster {
  /** Whether other processes may share the work (REDIS_URL is set). */
  readonly shared: boolean;
  broadcast<C extends ClusterChannel>(channel: C, message: ClusterMessages[C]): void;
  /** What other processes broadcast on `channel`. */
  on<C extends ClusterChannel>(
    channel: C,
    handler: (message: ClusterMessages[C]) => void,
  ): () => void;
  /** Where rate limits count: Redis for the cluster, this process's memory (by `now`) alone. */
  rateCounters(now: () => number): RateCounters;
  /** What aedes needs to be one broker across the processes ({} alone). */
  brokerOptions(): Partial<Pick<AedesOptions, 'mq' | 'persistence'>>;
  /** Gateway links counted over the processes (undefined alone: presence counts them itself). */
  gatewayLinks(): GatewayLinkCounts | undefined;
  close(): Promise<void>;
}

/** A process on its own. */
export class SingleProcess implements Cluster {
  readonly shared = false;
  broadcast(): void {
    // Nobody else to tell.
  }
  on(): () => void {
    return () => undefined;
  }
  rateCounters(now: () => number): RateCounters {
    return new MemoryRateCounters(now);
  }
  brokerOptions(): Partial<Pick<AedesOptions, 'mq' | 'persistence'>> {
    return {};
  }
  gatewayLinks(): GatewayLinkCounts | undefined {
    return undefined;
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}

const PREFIX = 'plant:';
/**
 * A process counts as alive while its key lives; it renews the key every heartbeat
 * (CLUSTER_HEARTBEAT_MS, 5 s by default), and the key lives this many heartbeats (15 s): two
 * renewals may be late or lost before others count it dead.
 */
const ALIVE_HEARTBEATS = 3;
const aliveKey = (process: string) => `${PREFIX}alive:${process}`;
const linksKey = (gatewayId: string) => `${PREFIX}links:${gatewayId}`;

interface Envelope {
  readonly from: string;
  readonly body: unknown;
}

/** Processes linked through one Redis. */
export class RedisCluster implements Cluster {
  readonly shared = true;
  /** This process, so that it skips its own broadcasts. */
  private readonly id = randomUUID();
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly handlers = new Map<string, Set<(message: never) => void>>();
  private readonly closers: (() => Promise<void>)[] = [];
  private alive: NodeJS.Timeout | undefined;

  private constructor(
    private readonly url: string,
    private readonly log: Logger,
    private readonly heartbeatMs: number,
  ) {
    // A lost link is retried by ioredis; commands wait for it meanwhile (offline queue).
    this.pub = new Redis(url, { lazyConnect: true });
    this.sub = new Redis(url, { lazyConnect: true });
    for (const conn of [this.pub, this.sub]) {
      conn.on('error', (err: Error) => this.log.warn('redis link failed', { error: err.message }));
    }
    this.sub.on('messageBuffer', (channel: Buffer, payload: Buffer) =>
      this.deliver(channel.toString(), payload),
    );
  }

  /** Connects and subscribes; fails when Redis does not answer. */
  static async connect(url: string, log: Logger, heartbeatMs: number): Promise<RedisCluster> {
    const cluster = new RedisCluster(url, log, heartbeatMs);
    await Promise.all([cluster.pub.connect(), cluster.sub.connect()]);
    const channels: ClusterChannel[] = ['revoked', 'changed', 'gateway-answer'];
    await cluster.sub.subscribe(...channels.map((c) => PREFIX + c));
    await cluster.renewAlive();
    // The id names this process in Redis (its gateway links, its heartbeat).
    log.info('joined the cluster', { process: cluster.id });
    cluster.alive = setInterval(() => void cluster.renewAlive(), heartbeatMs);
    cluster.alive.unref();
    return cluster;
  }

  private async renewAlive(): Promise<void> {
    await this.pub
      .set(aliveKey(this.id), '1', 'PX', ALIVE_HEARTBEATS * this.heartbeatMs)
      .catch((err: unknown) => this.log.warn('cluster heartbeat failed', { error: String(err) }));
  }

  gatewayLinks(): GatewayLinkCounts {
    return {
      set: async (gatewayId, links) => {
        if (links > 0) await this.pub.hset(linksKey(gatewayId), this.id, String(links));
        else await this.pub.hdel(linksKey(gatewayId), this.id);
      },
      linkedElsewhere: async (gatewayId) => {
        const counts = await this.pub.hgetall(linksKey(gatewayId));
        for (const [process, links] of Object.entries(counts)) {
          if (process === this.id || Number(links) <= 0) continue;
          // A process that died without telling keeps its field until its key expires; then
          // the field goes.
          if ((await this.pub.exists(aliveKey(process))) === 1) return true;
          await this.pub.hdel(linksKey(gatewayId), process);
        }
        return false;
      },
    };
  }

  broadcast<C extends ClusterChannel>(channel: C, message: ClusterMessages[C]): void {
    const envelope: Envelope = { from: this.id, body: message };
    this.pub.publish(PREFIX + channel, JSON.stringify(envelope)).catch((err: unknown) => {
      // Others catch up without it: the broker's re-check closes revoked connections, caches
      // expire; so a lost broadcast costs time, not correctness.
      this.log.warn('cluster broadcast failed', { channel, error: String(err) });
    });
  }

  on<C extends ClusterChannel>(
    channel: C,
    handler: (message: ClusterMessages[C]) => void,
  ): () => void {
    let set = this.handlers.get(channel);
    if (set === undefined) {
      set = new Set();
      this.handlers.set(channel, set);
    }
    const added = handler as (message: never) => void;
    set.add(added);
    return () => set.delete(added);
  }

  rateCounters(): RateCounters {
    // Windows end by Redis's clock: the same for every process.
    return new RedisRateCounters(this.pub);
  }

  brokerOptions(): Partial<Pick<AedesOptions, 'mq' | 'persistence'>> {
    const mq = MQEmitterRedis({ connectionString: this.url });
    // mqemitter-redis reports its links' errors (a Redis restart) on `state`: unheard, they
    // would be thrown and end the process. ioredis reconnects meanwhile.
    (mq as unknown as { state: EventEmitter }).state.on('error', (err: Error) =>
      this.log.warn('redis broker link failed', { error: err.message }),
    );
    const persistence = new RedisBrokerPersistence(this.url, (err) =>
      this.log.warn('redis broker persistence failed', { error: err.message }),
    );
    this.closers.push(
      () => new Promise<void>((resolve) => mq.close(() => resolve())),
      () => persistence.close(),
    );
    return { mq, persistence: persistence.forAedes() };
  }

  private deliver(channel: string, payload: Buffer): void {
    if (!channel.startsWith(PREFIX)) return;
    let envelope: Envelope;
    try {
      envelope = JSON.parse(payload.toString()) as Envelope;
    } catch {
      return;
    }
    if (envelope.from === this.id) return;
    for (const handler of this.handlers.get(channel.slice(PREFIX.length)) ?? []) {
      try {
        handler(envelope.body as never);
      } catch (err) {
        this.log.error('cluster handler failed', { channel, error: String(err) });
      }
    }
  }

  async close(): Promise<void> {
    if (this.alive !== undefined) clearInterval(this.alive);
    await this.pub.del(aliveKey(this.id)).catch(() => undefined);
    for (const close of this.closers.splice(0)) await close().catch(() => undefined);
    await Promise.all([this.pub.quit(), this.sub.quit()]).catch(() => undefined);
  }
}

/**
 * The cluster the configuration names: Redis when REDIS_URL is set, else this process alone.
 * `heartbeatMs`: CLUSTER_HEARTBEAT_MS (config.ts).
 */
export async function joinCluster(
  redisUrl: string | undefined,
  log: Logger,
  heartbeatMs: number,
): Promise<Cluster> {
  return redisUrl === undefined
    ? new SingleProcess()
    : RedisCluster.connect(redisUrl, log, heartbeatMs);
}
