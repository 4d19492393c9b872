import {
  countStates,
  DEPLOYMENT_MOVES,
  DEPLOYMENT_TEXTS,
  gatewayModel,
  releaseModel,
  type DeploymentAttributes,
  type DeploymentGatewayAttributes,
  type GatewayAttributes,
  type ReleaseAttributes,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import { ModelRepository } from '../repositories/model.repository';
import type { AccessDecision } from '../services/access-decision';
import { forbidden, invalidInput } from '../services/domain-error';

/*
 * What the server holds a rollout to when it is made and moved (DESIGN.md §15, issue 35 item 3),
 * in the write's transaction. Made: the stored release must be released (or active) and not a
 * module's; its gateways, chosen by list, tag or all, are the account's that the writer may
 * manage and whose board the release fits, else 'Deployment not possible' says why; each gets
 * its part (`deployment_gateway`, pending, in its batch). Moved: a user pauses, resumes or
 * cancels; the rest (halted, done) is the server's.
 */

/** A gateway's part as the rollout is made: written after the rollout itself. */
export type PlannedPart = Omit<DeploymentGatewayAttributes, 'changed_at'>;

function chosen(
  targets: DeploymentAttributes['targets'],
  rows: readonly { id: string; gateway: GatewayAttributes }[],
) {
  if (targets.kind === 'all') return rows;
  if (targets.kind === 'tag') return rows.filter((r) => r.gateway.tags.includes(targets.tag));
  const byId = new Map(rows.map((r) => [r.id, r]));
  const picked = [...new Set(targets.gateway_ids)].map((id) => byId.get(id));
  // A gateway of another account, or none: not one the writer may manage.
  if (picked.some((r) => r === undefined))
    throw invalidInput({ targets: [DEPLOYMENT_TEXTS.noAccess] });
  return picked as { id: string; gateway: GatewayAttributes }[];
}

export async function deploymentCreate(
  trx: Db,
  accountId: string,
  id: string,
  deployment: DeploymentAttributes,
  access: AccessDecision | undefined,
  asServer: boolean,
  now: number,
): Promise<PlannedPart[]> {
  if (!asServer && !['running', 'paused'].includes(deployment.state))
    throw invalidInput({ state: [DEPLOYMENT_TEXTS.moveNotAllowed] });
  const models = new ModelRepository(trx);
  const stored = await models.find(accountId, releaseModel.type, deployment.release_id);
  const release =
    stored === undefined ? undefined : (JSON.parse(stored.attributes) as ReleaseAttributes);
  if (release === undefined || release.state === 'draft')
    throw invalidInput({ release_id: [DEPLOYMENT_TEXTS.notReleased] });
  if (release.target === 'module')
    throw invalidInput({ release_id: [DEPLOYMENT_TEXTS.moduleTarget] });
  // Who manages gateways (their edit permission) rolls out to them.
  if (access !== undefined && !access.permits(gatewayModel.permissions.update))
    throw invalidInput({ targets: [DEPLOYMENT_TEXTS.noAccess] });
  const rows = (await models.allOfTypes(accountId, [gatewayModel.type])).map((row) => ({
    id: row.id,
    gateway: JSON.parse(row.attributes) as GatewayAttributes,
  }));
  const gateways = chosen(deployment.targets, rows);
  if (gateways.length === 0) throw invalidInput({ targets: [DEPLOYMENT_TEXTS.noGateways] });
  if (
    release.boards.length > 0 &&
    gateways.some(
      (g) => g.gateway.board_id === null || !release.boards.includes(g.gateway.board_id),
    )
  )
    throw invalidInput({ targets: [DEPLOYMENT_TEXTS.notCompatible] });
  deployment.created_by = access?.userId ?? null;
  deployment.created_at = now;
  deployment.changed_by = deployment.created_by;
  deployment.changed_at = now;
  deployment.batch = 0;
  deployment.counts = countStates(gateways.map(() => 'pending'));
  deployment.reason = null;
  // In the order chosen (a list's), else by name: the first batch is the first gateways.
  const ordered =
    deployment.targets.kind === 'list'
      ? gateways
      : [...gateways].sort((a, b) => a.gateway.name.localeCompare(b.gateway.name));
  return ordered.map((g, i) => ({
    deployment_id: id,
    gateway_id: g.id,
    batch: Math.floor(i / deployment.batch_size),
    state: 'pending',
    from_version: g.gateway.agent?.version ?? null,
    message: null,
  }));
}

/** A user's move of a rollout (pause, resume, cancel), by the stored rollout. */
export function deploymentUpdate(
  before: DeploymentAttributes,
  after: DeploymentAttributes,
  changed: readonly string[],
  asServer: boolean,
  writer: string | null,
  now: number,
): void {
  if (
    !asServer &&
    changed.includes('state') &&
    !DEPLOYMENT_MOVES[before.state].includes(after.state)
  )
    throw invalidInput({ state: [DEPLOYMENT_TEXTS.moveNotAllowed] });
  // Resumed after a halt: the reason is gone with it.
  if (!asServer && changed.includes('state') && after.state === 'running') after.reason = null;
  if (!asServer) {
    after.changed_by = writer;
    after.changed_at = now;
  }
}

/** A gateway's part of a rollout is the server's to write (its agent reports it). */
export function mayWriteDeploymentGateway(asServer: boolean): void {
  if (!asServer) throw forbidden();
}
