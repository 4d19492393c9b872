import {
  countStates,
  DEPLOYMENT_TEXTS,
  deploymentGatewayModel,
  deploymentModel,
  failuresPassLimit,
  GATEWAY_UPDATE_ENDS,
  gatewayModel,
  gatewayUpdateReportSchema,
  type DeploymentAttributes,
  type DeploymentGatewayAttributes,
  type GatewayAttributes,
  type GatewayUpdateState,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import type { Clock } from '../lib/clock';
import { Periodic } from '../lib/periodic';
import type { Logger } from '../logger';
import { ModelRepository } from '../repositories/model.repository';
import type { GatewayIdentity } from '../services/gateway-credential.service';
import type { ModelService } from '../services/model.service';

/*
 * Rollouts under way (DESIGN.md §15, issue 35 item 3). A gateway's agent reports where it stands
 * with the version its configuration wants (`up/update`); its part of the rollout follows, and
 * the rollout is weighed again at once: past its failure limit it halts (no further gateway is
 * offered the version: releases/wanted.ts), else when its batch is over (each part ended, or its
 * gateway offline: that one keeps the version wanted and gets it when it comes back) the next
 * batch begins, and when every part has ended it is done. A tick weighs every running rollout
 * again (a gateway that went offline lets its batch go on).
 */

/** How often running rollouts are weighed without a report (gateways gone offline). */
export const ROLLOUT_TICK_MS = 5_000;

/** A part's moves: an end is final; a report never goes back to pending. */
function mayMove(from: GatewayUpdateState, to: GatewayUpdateState): boolean {
  if (from === to) return false;
  if (GATEWAY_UPDATE_ENDS.includes(from)) return false;
  const order: GatewayUpdateState[] = ['pending', 'downloading', 'installing'];
  return GATEWAY_UPDATE_ENDS.includes(to) || order.indexOf(to) > order.indexOf(from);
}

export interface RolloutsDeps {
  readonly db: Db;
  readonly models: ModelService;
  readonly clock: Clock;
  readonly log: Logger;
}

export class Rollouts {
  /** One weighing at a time per account (reports and ticks of one process). */
  private readonly chains = new Map<string, Promise<void>>();
  private readonly tick: Periodic;

  constructor(private readonly deps: RolloutsDeps) {
    this.tick = new Periodic(
      () => this.weighAll(),
      ROLLOUT_TICK_MS,
      (err) => deps.log.error('rollout tick failed', { error: String(err) }),
    );
  }

  // ClusterWork: the leader weighs rollouts on its tick; every process takes its agents' reports.
  start(): void {
    this.tick.start();
  }

  async stop(): Promise<void> {
    await this.tick.stop();
    await Promise.all([...this.chains.values()]);
  }

  /** An agent's report on `up/update`: its part moves, its rollout is weighed. */
  reported(identity: GatewayIdentity, payload: Buffer): Promise<void> {
    let report;
    try {
      report = gatewayUpdateReportSchema.parse(JSON.parse(payload.toString('utf8')));
    } catch {
      this.deps.log.warn('gateway update report refused', { gatewayId: identity.gatewayId });
      return Promise.resolve();
    }
    return this.serial(identity.accountId, async () => {
      const models = new ModelRepository(this.deps.db);
      // Its part, as stored: of this account's rollout, and of this gateway.
      const part = (
        await models.children(identity.accountId, deploymentModel.type, report.deployment_id)
      ).find(
        (row) =>
          row.type === deploymentGatewayModel.type &&
          (JSON.parse(row.attributes) as DeploymentGatewayAttributes).gateway_id ===
            identity.gatewayId,
      );
      if (part === undefined) return;
      const before = JSON.parse(part.attributes) as DeploymentGatewayAttributes;
      if (!mayMove(before.state, report.state)) return;
      await this.deps.models.serverUpdate(
        identity.accountId,
        deploymentGatewayModel.collection,
        part.id,
        {
          state: report.state,
          message: report.message,
          changed_at: this.deps.clock.now(),
        } satisfies Partial<DeploymentGatewayAttributes>,
      );
      await this.weigh(identity.accountId, report.deployment_id);
    });
  }

  /** Weighs every running rollout of every account now (the tick; tests). */
  async weighAll(): Promise<void> {
    const models = new ModelRepository(this.deps.db);
    for (const accountId of await models.accountsWithType(deploymentModel.type)) {
      const running = (await models.allOfTypes(accountId, [deploymentModel.type])).filter(
        (row) => (JSON.parse(row.attributes) as DeploymentAttributes).state === 'running',
      );
      for (const row of running) await this.serial(accountId, () => this.weigh(accountId, row.id));
    }
  }

  private serial(accountId: string, work: () => Promise<void>): Promise<void> {
    const next = (this.chains.get(accountId) ?? Promise.resolve())
      .then(work)
      .catch((err) => this.deps.log.error('rollout failed', { accountId, error: String(err) }));
    this.chains.set(accountId, next);
    void next.finally(() => {
      if (this.chains.get(accountId) === next) this.chains.delete(accountId);
    });
    return next;
  }

  /** The rollout's counts, halt, next batch or end, written when they change. */
  private async weigh(accountId: string, deploymentId: string): Promise<void> {
    const models = new ModelRepository(this.deps.db);
    const row = await models.find(accountId, deploymentModel.type, deploymentId);
    if (row === undefined) return;
    const rollout = JSON.parse(row.attributes) as DeploymentAttributes;
    const parts = (await models.children(accountId, deploymentModel.type, deploymentId))
      .filter((r) => r.type === deploymentGatewayModel.type)
      .map((r) => JSON.parse(r.attributes) as DeploymentGatewayAttributes);
    const counts = countStates(parts.map((p) => p.state));
    const change: Partial<DeploymentAttributes> = {};
    if (JSON.stringify(counts) !== JSON.stringify(rollout.counts)) change.counts = counts;
    if (rollout.state === 'running') {
      if (failuresPassLimit(counts, rollout.max_failure_rate)) {
        change.state = 'halted';
        change.reason = DEPLOYMENT_TEXTS.halted;
      } else if (parts.every((p) => GATEWAY_UPDATE_ENDS.includes(p.state))) {
        change.state = 'done';
      } else {
        const online = await this.onlineGateways(models, accountId);
        let batch = rollout.batch;
        const last = Math.max(...parts.map((p) => p.batch));
        // Over: each part of the batch ended, or its gateway offline (it gets it later).
        const over = (b: number) =>
          parts
            .filter((p) => p.batch === b)
            .every((p) => GATEWAY_UPDATE_ENDS.includes(p.state) || !online.has(p.gateway_id));
        while (batch < last && over(batch)) batch += 1;
        if (batch !== rollout.batch) change.batch = batch;
      }
    }
    if (Object.keys(change).length === 0) return;
    await this.deps.models.serverUpdate(
      accountId,
      deploymentModel.collection,
      deploymentId,
      change,
    );
  }

  private async onlineGateways(models: ModelRepository, accountId: string): Promise<Set<string>> {
    const rows = await models.allOfTypes(accountId, [gatewayModel.type]);
    return new Set(
      rows
        .filter((r) => (JSON.parse(r.attributes) as GatewayAttributes).connection === 'online')
        .map((r) => r.id),
    );
  }

  /** Resolves when every weighing started so far is done (tests). */
  async idle(): Promise<void> {
    await Promise.all([...this.chains.values()]);
  }
}
