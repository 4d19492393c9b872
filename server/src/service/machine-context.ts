import {
  alarmModel,
  assetModel,
  CONTEXT_MAX_VALUES,
  datastreamModel,
  gatewayModel,
  type AlarmAttributes,
  type AssetAttributes,
  type DatastreamAttributes,
  type GatewayAttributes,
  type MachineContext,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import { scopeTo } from '../repositories/account-scope';
import { ModelRepository, type ModelRow } from '../repositories/model.repository';
import type { TimeSeriesStore } from '../timeseries/time-series-store';
import type { MachineContextSource } from './service-rules';

/*
 * A machine's context for a service request (issue 34 item 2), as the server knows it when the
 * request arrives: the asset, its active alarms, the latest value of its first streams (by name),
 * and the agent version its gateway last reported. Read inside the request's transaction (the
 * models) and from the time-series store (the values).
 */
export class MachineContexts implements MachineContextSource {
  constructor(private readonly store: TimeSeriesStore) {}

  async contextOf(
    trx: Db,
    accountId: string,
    assetId: string,
    now: number,
  ): Promise<MachineContext> {
    const models = new ModelRepository(trx);
    const asset = await models.find(accountId, assetModel.type, assetId);
    const assetAttributes = parsed<AssetAttributes>(asset);
    const [alarms, streams] = await Promise.all([
      this.ofAsset(trx, accountId, alarmModel.type, assetId),
      this.ofAsset(trx, accountId, datastreamModel.type, assetId),
    ]);
    const active = alarms
      .map((row) => ({ id: row.id, a: parsed<AlarmAttributes>(row) }))
      .filter(({ a }) => a?.status?.state === 'active')
      .map(({ id, a }) => ({
        id,
        name: a?.name ?? '',
        state: a?.status?.state ?? 'active',
        since: a?.status?.since ?? null,
      }));
    const named = streams
      .map((row) => ({ id: row.id, a: parsed<DatastreamAttributes>(row) }))
      .sort((x, y) => (x.a?.name ?? '').localeCompare(y.a?.name ?? ''))
      .slice(0, CONTEXT_MAX_VALUES);
    const latest = await this.store.latest(named.map((s) => s.id));
    const values = named.flatMap(({ id, a }) => {
      const point = latest.get(id);
      return point === undefined
        ? []
        : [
            {
              stream_id: id,
              name: a?.name ?? '',
              unit: a?.unit ?? '',
              ...point,
              type: a?.type ?? 'number',
              state_texts: a?.state_texts ?? {},
            },
          ];
    });
    const gatewayId = assetAttributes?.gateway_id ?? null;
    const gateway =
      gatewayId === null ? undefined : await models.find(accountId, gatewayModel.type, gatewayId);
    return {
      taken_at: now,
      asset: { id: assetId, name: assetAttributes?.name ?? '' },
      alarms: active,
      values,
      agent_version: parsed<GatewayAttributes>(gateway)?.agent?.version ?? null,
    };
  }

  private ofAsset(trx: Db, accountId: string, type: string, assetId: string): Promise<ModelRow[]> {
    return scopeTo(trx, accountId)
      .selectFrom('models')
      .selectAll()
      .where('asset_id', '=', assetId)
      .where('type', '=', type)
      .execute();
  }
}

function parsed<A>(row: ModelRow | undefined): A | undefined {
  return row === undefined ? undefined : (JSON.parse(row.attributes) as A);
}
