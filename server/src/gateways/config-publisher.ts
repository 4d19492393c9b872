import {
  assetModel,
  connectionModel,
  datapointModel,
  datastreamModel,
  deploymentGatewayModel,
  deploymentModel,
  gatewayModel,
  gatewayTopics,
  releaseModel,
  type GatewayConfig,
  type ModelUpdate,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import { isoAt, type Clock } from '../lib/clock';
import type { Logger } from '../logger';
import { GatewayConfigRepository } from '../repositories/gateway-config.repository';
import { ModelRepository } from '../repositories/model.repository';
import type { ChangeFeed } from '../services/change-feed';
import { configHash, configsOf } from './gateway-config';

/** Types whose change can change a gateway's configuration. */
const CONFIG_TYPES: ReadonlySet<string> = new Set([
  gatewayModel.type,
  // A rollout's version wanted of a gateway (releases/wanted.ts).
  deploymentModel.type,
  deploymentGatewayModel.type,
  connectionModel.type,
  datapointModel.type,
  datastreamModel.type,
  // A module version made active on assets (gateway-config.ts).
  releaseModel.type,
]);

/**
 * Whether a change can change a configuration: an asset's only when it moves to another gateway
 * or goes (a module version active on it leaves its gateway's configuration).
 */
function touchesConfig(u: ModelUpdate): boolean {
  if (CONFIG_TYPES.has(u.type) || CONFIG_TYPES.has(u.child_type ?? '')) return true;
  if (u.type !== assetModel.type) return false;
  return (
    u.action === 'item_deleted' || (u.attributes !== undefined && 'gateway_id' in u.attributes)
  );
}

/** Changes in one account are gathered this long, then its gateways' configurations are built once. */
const SETTLE_MS = 200;

export interface ConfigPublisherDeps {
  readonly db: Db;
  readonly feed: ChangeFeed;
  readonly clock: Clock;
  readonly log: Logger;
  /** Sends a retained message on a gateway's config topic (an empty payload clears it). */
  readonly publish: (topic: string, payload: string) => void;
  /** A deleted gateway's credentials end with it. */
  readonly gatewayDeleted: (accountId: string, gatewayId: string) => Promise<void>;
}

/**
 * Sends each gateway its whole configuration with a version, retained on
 * `gateway/{id}/down/config` (DESIGN.md §8): at start (the broker keeps retained messages only
 * in memory) and after every committed change that alters it. A change that leaves a gateway's
 * configuration as it was sends nothing; the version grows by one with each one that does not.
 */
export class ConfigPublisher {
  private readonly configs: GatewayConfigRepository;
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly running = new Map<string, Promise<void>>();
  private unsubscribe: (() => void) | undefined;

  constructor(private readonly deps: ConfigPublisherDeps) {
    this.configs = new GatewayConfigRepository(deps.db);
  }

  async start(): Promise<void> {
    this.unsubscribe = this.deps.feed.subscribe((accountId, updates) => {
      if (updates.some(touchesConfig)) this.soon(accountId);
    });
    const accounts = new Set([
      ...(await new ModelRepository(this.deps.db).accountsWithType(gatewayModel.type)),
      ...(await this.configs.accounts()),
    ]);
    for (const accountId of accounts) await this.sync(accountId, true);
  }

  /** Builds and sends the account's configurations now (and waits for a build under way). */
  sync(accountId: string, resend = false): Promise<void> {
    const previous = this.running.get(accountId) ?? Promise.resolve();
    const next = previous
      .then(() => this.syncNow(accountId, resend))
      .catch((err: unknown) =>
        this.deps.log.error('gateway configuration failed', { accountId, error: String(err) }),
      );
    this.running.set(accountId, next);
    return next;
  }

  private soon(accountId: string): void {
    if (this.timers.has(accountId)) return;
    this.timers.set(
      accountId,
      setTimeout(() => {
        this.timers.delete(accountId);
        void this.sync(accountId);
      }, SETTLE_MS),
    );
  }

  private async syncNow(accountId: string, resend: boolean): Promise<void> {
    const bodies = await configsOf(this.deps.db, accountId);
    const at = isoAt(this.deps.clock.now());
    for (const [gatewayId, body] of bodies) {
      const hash = configHash(body);
      const sent = await this.configs.find(accountId, gatewayId);
      if (sent !== undefined && sent.hash === hash && !resend) continue;
      const version = sent === undefined ? 1 : sent.hash === hash ? sent.version : sent.version + 1;
      if (sent?.hash !== hash) await this.configs.put(accountId, gatewayId, version, hash, at);
      const config: GatewayConfig = { ...body, version };
      this.deps.publish(gatewayTopics.config(gatewayId), JSON.stringify(config));
      if (!resend) this.deps.log.info('gateway configuration sent', { gatewayId, version });
    }
    for (const gatewayId of await this.configs.gatewaysOf(accountId)) {
      if (bodies.has(gatewayId)) continue;
      // Deleted: its retained configuration is cleared and its credentials end.
      this.deps.publish(gatewayTopics.config(gatewayId), '');
      await this.configs.remove(accountId, gatewayId);
      await this.deps.gatewayDeleted(accountId, gatewayId);
    }
  }

  /** Builds what is waiting to settle now, and resolves when every build is done (tests). */
  async flush(): Promise<void> {
    const waiting = [...this.timers.entries()];
    for (const [accountId, timer] of waiting) {
      clearTimeout(timer);
      this.timers.delete(accountId);
      void this.sync(accountId);
    }
    await Promise.all([...this.running.values()]);
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    await Promise.all([...this.running.values()]);
  }
}
