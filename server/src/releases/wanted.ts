import {
  apiPaths,
  datapointModel,
  datastreamModel,
  deploymentGatewayModel,
  deploymentModel,
  GATEWAY_UPDATE_ENDS,
  releaseModel,
  type DatapointAttributes,
  type DatastreamAttributes,
  type DeploymentAttributes,
  type DeploymentGatewayAttributes,
  type GatewayUpdate,
  type ReleaseAttributes,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import { ModelRepository } from '../repositories/model.repository';

/** What a gateway's configuration carries of a rollout (DESIGN.md §15). */
export interface Wanted {
  readonly update: GatewayUpdate;
  readonly release_key: { readonly public_key: string; readonly key_id: string };
}

/** The rollouts that offer their version to their gateways now: running (a halt stops them). */
const OFFERING: ReadonlySet<string> = new Set(['running']);

/**
 * The version each gateway of the account is wanted to run: a running rollout's, for each of its
 * gateways whose part is not over and whose batch has begun; the newest rollout's when several
 * want one. A gateway offline now keeps it in its retained configuration. A rollout that waits
 * for idle machines offers it to a gateway only with the stream of that name it reads.
 */
export async function wantedUpdates(db: Db, accountId: string): Promise<Map<string, Wanted>> {
  const models = new ModelRepository(db);
  const rollouts = (await models.allOfTypes(accountId, [deploymentModel.type]))
    .map((row) => ({ id: row.id, d: JSON.parse(row.attributes) as DeploymentAttributes }))
    .filter((r) => OFFERING.has(r.d.state))
    .sort((a, b) => (b.d.created_at ?? 0) - (a.d.created_at ?? 0));
  const out = new Map<string, Wanted>();
  if (rollouts.length === 0) return out;
  const releases = new Map(
    (
      await models.findMany(
        accountId,
        releaseModel.type,
        rollouts.map((r) => r.d.release_id),
      )
    ).map((row) => [row.id, JSON.parse(row.attributes) as ReleaseAttributes]),
  );
  const waitsForIdle = rollouts.some((r) => r.d.idle_stream !== null);
  const streamsOf = waitsForIdle
    ? await idleStreams(models, accountId)
    : new Map<string, Map<string, string>>();
  for (const rollout of rollouts) {
    const release = releases.get(rollout.d.release_id);
    if (
      release === undefined ||
      release.artifact_sha256 === null ||
      release.signature === null ||
      release.key_id === null ||
      release.public_key === null ||
      release.artifact_file_id === null ||
      release.target === 'module'
    )
      continue;
    const parts = await models.children(accountId, deploymentModel.type, rollout.id);
    for (const row of parts) {
      if (row.type !== deploymentGatewayModel.type) continue;
      const part = JSON.parse(row.attributes) as DeploymentGatewayAttributes;
      if (part.batch > rollout.d.batch || GATEWAY_UPDATE_ENDS.includes(part.state)) continue;
      if (out.has(part.gateway_id)) continue;
      let idle: GatewayUpdate['idle'] = null;
      if (rollout.d.idle_stream !== null) {
        const stream = streamsOf.get(part.gateway_id)?.get(rollout.d.idle_stream);
        if (stream === undefined || rollout.d.idle_value === null) continue;
        idle = { datastream_id: stream, value: rollout.d.idle_value };
      }
      out.set(part.gateway_id, {
        update: {
          deployment_id: rollout.id,
          release_id: rollout.d.release_id,
          account_id: accountId,
          target: release.target,
          name: release.name,
          version: release.version,
          sha256: release.artifact_sha256,
          signature: release.signature,
          key_id: release.key_id,
          size: await artifactSize(models, accountId, release.artifact_file_id),
          artifact_path: apiPaths.gatewayArtifact(rollout.d.release_id),
          idle,
        },
        release_key: { public_key: release.public_key, key_id: release.key_id },
      });
    }
  }
  return out;
}

async function artifactSize(models: ModelRepository, accountId: string, fileId: string) {
  const row = await models.find(accountId, 'file', fileId);
  return row === undefined ? 1 : Math.max(1, (JSON.parse(row.attributes) as { size: number }).size);
}

/** Per gateway, the streams its datapoints feed, by name: name -> stream id. */
async function idleStreams(
  models: ModelRepository,
  accountId: string,
): Promise<Map<string, Map<string, string>>> {
  const rows = await models.allOfTypes(accountId, [
    datapointModel.type,
    datastreamModel.type,
    'connection',
  ]);
  const names = new Map<string, string>();
  const gatewayOfConnection = new Map<string, string>();
  for (const row of rows) {
    if (row.type === datastreamModel.type)
      names.set(row.id, (JSON.parse(row.attributes) as DatastreamAttributes).name);
    if (row.type === 'connection')
      gatewayOfConnection.set(
        row.id,
        (JSON.parse(row.attributes) as { gateway_id: string }).gateway_id,
      );
  }
  const out = new Map<string, Map<string, string>>();
  for (const row of rows) {
    if (row.type !== datapointModel.type) continue;
    const point = JSON.parse(row.attributes) as DatapointAttributes;
    const gateway = gatewayOfConnection.get(point.connection_id);
    const name = point.datastream_id === null ? undefined : names.get(point.datastream_id);
    if (gateway === undefined || name === undefined || point.datastream_id === null) continue;
    const of = out.get(gateway) ?? new Map<string, string>();
    of.set(name, point.datastream_id);
    out.set(gateway, of);
  }
  return out;
}
