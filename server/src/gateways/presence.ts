import {
  CONNECTION_STATUS_REFRESH_MS,
  connectionModel,
  gatewayModel,
  gatewayStatusSchema,
  type ConnectionState,
  type GatewayAttributes,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import { isoAt, type Clock } from '../lib/clock';
import type { Logger } from '../logger';
import { ModelRepository } from '../repositories/model.repository';
import type { GatewayIdentity } from '../services/gateway-credential.service';
import type { ModelService } from '../services/model.service';

/**
 * last_seen and last_read are written again at most this often while nothing else changes (the
 * shared freshness rule counts on it: a healthy connection's last_read is never much older).
 */
export const SEEN_EVERY_MS = CONNECTION_STATUS_REFRESH_MS;

/**
 * A gateway's presence and what its agent reports (DESIGN.md §8, spec 001 §4): online while its
 * agent is connected to the broker, offline when it leaves (the broker's keepalive notices a
 * dead link), `last_seen` from the connection and its heartbeats, the agent's version, running
 * configuration and real addresses, and each connection's state. These are model changes like
 * any other (logged, synced to browsers), written only when something changed, or at most once
 * a minute for the times.
 */
/** Gateway links over the processes of a cluster (cluster.ts keeps them in Redis). */
export interface GatewayLinkCounts {
  /** This process's links to the gateway now (0: none). */
  set(gatewayId: string, links: number): Promise<void>;
  /** Whether another live process holds a link to it. */
  linkedElsewhere(gatewayId: string): Promise<boolean>;
}

export class GatewayPresence {
  /** Open connections per gateway: a reconnect is admitted before the old link is dropped. */
  private readonly links = new Map<string, number>();
  private readonly queues = new Map<string, Promise<void>>();
  private readonly seenAt = new Map<string, number>();
  private readonly models: ModelRepository;

  constructor(
    db: Db,
    private readonly modelService: ModelService,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {
    this.models = new ModelRepository(db);
  }

  /** At start no agent is connected yet: gateways left online by a stopped server go offline. */
  async start(): Promise<void> {
    for (const accountId of await this.models.accountsWithType(gatewayModel.type)) {
      for (const row of await this.models.allOfTypes(accountId, [gatewayModel.type])) {
        const a = JSON.parse(row.attributes) as GatewayAttributes;
        if (a.connection === 'online' && !this.links.has(row.id))
          await this.write(accountId, gatewayModel.collection, row.id, { connection: 'offline' });
      }
    }
  }

  /**
   * Set in a cluster (DESIGN.md §11): this process's link count of a gateway, told to the others,
   * and whether another live process holds a link. An agent moves between processes (a restart,
   * a takeover of its client id) and the old process may notice its link ended after the new one
   * wrote "online": it must not write "offline" over it.
   */
  cluster: GatewayLinkCounts | undefined;

  /** Told after a connection's state changed (written): its no-data alarms are judged at once. */
  connectionStateChanged: ((accountId: string) => void) | undefined;

  connected(identity: GatewayIdentity): void {
    const n = (this.links.get(identity.gatewayId) ?? 0) + 1;
    this.links.set(identity.gatewayId, n);
    if (n !== 1) return;
    this.serially(identity, async () => {
      // Counted for the others before "online" is written (see disconnected).
      await this.tellCluster(identity.gatewayId, 1);
      await this.write(identity.accountId, gatewayModel.collection, identity.gatewayId, {
        connection: 'online',
        last_seen: this.nowIso(),
      });
    });
    this.seenAt.set(identity.gatewayId, this.clock.now());
  }

  disconnected(identity: GatewayIdentity): void {
    const n = (this.links.get(identity.gatewayId) ?? 1) - 1;
    if (n > 0) {
      this.links.set(identity.gatewayId, n);
      return;
    }
    this.links.delete(identity.gatewayId);
    this.serially(identity, async () => {
      await this.tellCluster(identity.gatewayId, 0);
      if (await this.linkedElsewhere(identity.gatewayId)) {
        this.log.info('gateway link moved to another process', { gateway: identity.gatewayId });
        return;
      }
      await this.write(identity.accountId, gatewayModel.collection, identity.gatewayId, {
        connection: 'offline',
        last_seen: this.nowIso(),
      });
      this.log.info('gateway link ended', { gateway: identity.gatewayId });
      // A link made elsewhere between the look above and this write wrote "online" first or
      // after: if it is there now, "online" again (whichever order, the last word is online).
      if (await this.linkedElsewhere(identity.gatewayId)) {
        await this.write(identity.accountId, gatewayModel.collection, identity.gatewayId, {
          connection: 'online',
        });
      }
    });
  }

  /** Tells the cluster this process's links; Redis failing must not stop the database write. */
  private async tellCluster(gatewayId: string, links: number): Promise<void> {
    try {
      await this.cluster?.set(gatewayId, links);
    } catch (err) {
      this.log.warn('gateway links not told to the cluster', { error: String(err) });
    }
  }

  /** Whether another process links the gateway; unknown (Redis failing) counts as no. */
  private async linkedElsewhere(gatewayId: string): Promise<boolean> {
    try {
      return (await this.cluster?.linkedElsewhere(gatewayId)) === true;
    } catch (err) {
      this.log.warn('gateway links unknown', { error: String(err) });
      return false;
    }
  }

  /**
   * The cluster's sweep (run by the leader): gateways stored online that no live process holds
   * a link to (their process died) go offline. Alone, `start` does this once.
   */
  async sweep(): Promise<void> {
    const cluster = this.cluster;
    if (cluster === undefined) return;
    for (const accountId of await this.models.accountsWithType(gatewayModel.type)) {
      for (const row of await this.models.allOfTypes(accountId, [gatewayModel.type])) {
        const a = JSON.parse(row.attributes) as GatewayAttributes;
        if (a.connection !== 'online' || this.links.has(row.id)) continue;
        if (await cluster.linkedElsewhere(row.id)) continue;
        await this.write(accountId, gatewayModel.collection, row.id, { connection: 'offline' });
        // A link made meanwhile wrote "online" before this or will after: online either way.
        if (await cluster.linkedElsewhere(row.id)) {
          await this.write(accountId, gatewayModel.collection, row.id, { connection: 'online' });
          continue;
        }
        this.log.info('gateway left online by a stopped process is offline', { gateway: row.id });
      }
    }
  }

  isOnline(gatewayId: string): boolean {
    return (this.links.get(gatewayId) ?? 0) > 0;
  }

  /**
   * Whether the gateway's stored presence says online: in a cluster, a link to another process
   * (that process wrote it). Read from the database, the one place every process shares.
   */
  async storedOnline(gatewayId: string): Promise<boolean> {
    const row = await this.models.findAnyById(gatewayModel.type, gatewayId);
    if (row === undefined) return false;
    return (JSON.parse(row.attributes) as GatewayAttributes).connection === 'online';
  }

  /** A status message (`up/status`): at start, after a configuration, on changes, heartbeats. */
  status(identity: GatewayIdentity, payload: Buffer): void {
    let json: unknown;
    try {
      json = JSON.parse(payload.toString('utf8'));
    } catch {
      this.log.warn('gateway status is not JSON', { gateway: identity.gatewayId });
      return;
    }
    const parsed = gatewayStatusSchema.safeParse(json);
    if (!parsed.success) {
      this.log.warn('gateway status refused', { gateway: identity.gatewayId });
      return;
    }
    const status = parsed.data;
    this.serially(identity, async () => {
      const gateway = await this.models.find(
        identity.accountId,
        gatewayModel.type,
        identity.gatewayId,
      );
      if (gateway === undefined) return;
      const before = JSON.parse(gateway.attributes) as GatewayAttributes;
      const agent = {
        version: status.agent_version,
        config_version: status.config_version,
        started_at: status.started_at,
        addresses: status.addresses,
        problems: status.problems,
      };
      const changes: Record<string, unknown> = {};
      if (JSON.stringify(before.agent) !== JSON.stringify(agent)) changes.agent = agent;
      const now = this.clock.now();
      if (now - (this.seenAt.get(identity.gatewayId) ?? 0) >= SEEN_EVERY_MS) {
        changes.last_seen = isoAt(now);
        this.seenAt.set(identity.gatewayId, now);
      }
      if (Object.keys(changes).length > 0)
        await this.write(identity.accountId, gatewayModel.collection, identity.gatewayId, changes);
      for (const reported of status.connections) {
        const row = await this.models.find(identity.accountId, connectionModel.type, reported.id);
        if (row === undefined) continue;
        const a = JSON.parse(row.attributes) as {
          gateway_id: string;
          status: ConnectionState | null;
        };
        // Only this gateway's own connections.
        if (a.gateway_id !== identity.gatewayId) continue;
        const prev = a.status;
        const next: ConnectionState = {
          state: reported.state,
          error: reported.error,
          last_read: reported.last_read,
          at: now,
          // Since when the state holds: a failure's start is what a failing value's mark shows.
          since: prev !== null && prev.state === reported.state ? (prev.since ?? prev.at) : now,
        };
        const same =
          prev !== null &&
          prev.state === next.state &&
          prev.error === next.error &&
          now - prev.at < SEEN_EVERY_MS;
        if (!same)
          await this.write(identity.accountId, connectionModel.collection, reported.id, {
            status: next,
          });
        if (prev?.state !== next.state) this.connectionStateChanged?.(identity.accountId);
      }
    });
  }

  private nowIso(): string {
    return isoAt(this.clock.now());
  }

  private async write(
    accountId: string,
    collection: string,
    id: string,
    changes: Record<string, unknown>,
  ): Promise<void> {
    try {
      await this.modelService.serverUpdate(accountId, collection, id, changes);
    } catch (err) {
      // A gateway deleted meanwhile, say: its state has nowhere to go.
      this.log.warn('gateway state not written', { id, error: String(err) });
    }
  }

  private serially(identity: GatewayIdentity, op: () => Promise<void>): void {
    const key = identity.gatewayId;
    const next = (this.queues.get(key) ?? Promise.resolve()).then(op, op);
    const tail = next.catch(() => undefined);
    this.queues.set(key, tail);
    void tail.then(() => {
      if (this.queues.get(key) === tail) this.queues.delete(key);
    });
  }

  /** Resolves when every state change so far is written (stop, tests). */
  async idle(): Promise<void> {
    await Promise.all([...this.queues.values()]);
  }
}
