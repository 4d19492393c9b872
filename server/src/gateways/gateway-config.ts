import { createHash } from 'node:crypto';
import { wantedUpdates } from '../releases/wanted';
import {
  assetModel,
  connectionModel,
  datapointModel,
  datastreamModel,
  gatewayModel,
  releaseModel,
  type AgentConnection,
  type AssetAttributes,
  type ConnectionAttributes,
  type DatapointAttributes,
  type DatastreamAttributes,
  type GatewayAttributes,
  type GatewayConfig,
  type GatewayModule,
  type ReleaseAttributes,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import { ConnectionSecretRepository } from '../repositories/connection-secret.repository';
import { ModelRepository, type ModelRow } from '../repositories/model.repository';

/** An account's gateways' configurations without versions, by gateway id. */
export type ConfigBody = Omit<GatewayConfig, 'version'>;

/**
 * Builds the configuration each gateway of an account runs (DESIGN.md §8): its network settings,
 * its connections with their secrets (the gateway needs the OPC UA password; browsers never get
 * it), and under each connection its datapoints with their stream's type. Datapoints without a
 * stream (deleted) are left out.
 */
export async function configsOf(db: Db, accountId: string): Promise<Map<string, ConfigBody>> {
  const models = new ModelRepository(db);
  const rows = await models.allOfTypes(accountId, [
    gatewayModel.type,
    connectionModel.type,
    datapointModel.type,
    datastreamModel.type,
    releaseModel.type,
  ]);
  const secrets = await new ConnectionSecretRepository(db).allIn(accountId);
  const of = <T>(type: string) =>
    rows.filter((r) => r.type === type).map((r) => ({ row: r, a: JSON.parse(r.attributes) as T }));
  const streamTypes = new Map(
    of<DatastreamAttributes>(datastreamModel.type).map(({ row, a }) => [row.id, a.type]),
  );
  const pointsByConnection = new Map<string, AgentConnection['datapoints'][number][]>();
  for (const { row, a } of of<DatapointAttributes>(datapointModel.type)) {
    const streamType = a.datastream_id === null ? undefined : streamTypes.get(a.datastream_id);
    if (a.datastream_id === null || streamType === undefined) continue;
    const list = pointsByConnection.get(a.connection_id) ?? [];
    list.push({
      id: row.id,
      datastream_id: a.datastream_id,
      stream_type: streamType,
      tag: a.tag,
      address: a.address,
      deadband: a.deadband,
      scale: a.scale,
      offset: a.offset,
    });
    pointsByConnection.set(a.connection_id, list);
  }
  const connectionsByGateway = new Map<string, AgentConnection[]>();
  for (const { row, a } of of<ConnectionAttributes>(connectionModel.type)) {
    const settings = Object.fromEntries(
      Object.entries(a.settings).filter(([k]) => k !== 'password_set'),
    );
    const secret = secrets.get(row.id);
    const list = connectionsByGateway.get(a.gateway_id) ?? [];
    list.push({
      id: row.id,
      name: a.name,
      protocol: a.protocol,
      settings:
        secret?.password === undefined ? settings : { ...settings, password: secret.password },
      interval_ms: a.interval_ms,
      enabled: a.enabled,
      datapoints: (pointsByConnection.get(row.id) ?? []).sort(byId),
    });
    connectionsByGateway.set(a.gateway_id, list);
  }
  const wanted = await wantedUpdates(db, accountId);
  // The assets are read only when a module version is active on some.
  const active = of<ReleaseAttributes>(releaseModel.type).filter(
    ({ a }) => a.target === 'module' && a.state === 'active' && a.assets.length > 0,
  );
  const assets =
    active.length === 0
      ? []
      : (await models.allOfTypes(accountId, [assetModel.type])).map((row) => ({
          row,
          a: JSON.parse(row.attributes) as AssetAttributes,
        }));
  const modules = activeModules(active, assets);
  const out = new Map<string, ConfigBody>();
  for (const { row, a } of of<GatewayAttributes>(gatewayModel.type)) {
    out.set(row.id, {
      gateway: row.id,
      network: {
        ip_assignment: a.ip_assignment,
        ip: a.ip,
        subnet_mask: a.subnet_mask,
        dns1: a.dns1,
        dns2: a.dns2,
      },
      connections: (connectionsByGateway.get(row.id) ?? []).sort(byId),
      update: wanted.get(row.id)?.update ?? null,
      release_key: wanted.get(row.id)?.release_key ?? null,
      modules: modules.get(row.id) ?? [],
    });
  }
  return out;
}

/**
 * The module versions active on assets (DESIGN.md §15), by the gateway of each asset: a version
 * made active on assets is applied to their gateways' configuration (a configuration rollout).
 */
function activeModules(
  releases: readonly { row: ModelRow; a: ReleaseAttributes }[],
  assets: readonly { row: ModelRow; a: AssetAttributes }[],
): Map<string, GatewayModule[]> {
  const gatewayOf = new Map(assets.map(({ row, a }) => [row.id, a.gateway_id]));
  const out = new Map<string, GatewayModule[]>();
  for (const { row, a } of releases) {
    if (a.target !== 'module' || a.state !== 'active') continue;
    const byGateway = new Map<string, string[]>();
    for (const assetId of a.assets) {
      const gateway = gatewayOf.get(assetId);
      if (gateway === null || gateway === undefined) continue;
      byGateway.set(gateway, [...(byGateway.get(gateway) ?? []), assetId]);
    }
    for (const [gateway, assetIds] of byGateway) {
      const list = out.get(gateway) ?? [];
      list.push({
        release_id: row.id,
        name: a.name,
        version: a.version,
        asset_ids: assetIds.sort(),
        datapoints: a.interface.datapoints,
        feature_flags: Object.fromEntries(a.feature_flags.map((f) => [f.key, f.enabled])),
        actions: a.actions,
        datastreams: a.datastreams,
      });
      out.set(
        gateway,
        list.sort((x, y) => x.name.localeCompare(y.name)),
      );
    }
  }
  return out;
}

function byId(a: { id: string }, b: { id: string }): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The content hash that decides whether a configuration changed. */
export function configHash(body: ConfigBody): string {
  return createHash('sha256').update(JSON.stringify(body)).digest('hex');
}

export type { ModelRow };
