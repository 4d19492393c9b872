import type { Db } from '../db/database';
import type { Clock } from '../lib/clock';
import { ChangeFeed } from '../services/change-feed';
import { ModelService } from '../services/model.service';

const MACHINES = [
  'Press line 1',
  'Press line 2',
  'Laser cutter LC-3000',
  'Bending cell B4',
  'Paint shop conveyor',
  'Injection moulder IM-250',
  'CNC mill M12',
  'Welding robot W7',
  'Packaging line P1',
  'Compressor station',
  'Cooling tower CT-2',
  'Assembly cell A9',
];

/** A seeded gateway: the demo agents of `npm start` run those of active accounts. */
export interface DemoGateway {
  readonly accountId: string;
  readonly gatewayId: string;
  readonly active: boolean;
  /** The machine (asset) the gateway collects for, one per gateway. */
  readonly assetId: string;
}

interface Streams {
  readonly group: string;
  readonly open: boolean;
  /** Each stream with the simulated curve its demo datapoint reads (spec 001 §9). */
  readonly streams: readonly (Record<string, unknown> & { simulate: Record<string, unknown> })[];
}

const GROUPS: readonly Streams[] = [
  {
    group: 'Drive',
    open: true,
    streams: [
      {
        name: 'Motor temperature',
        unit: '°C',
        type: 'number',
        vis_min: 0,
        vis_max: 120,
        simulate: { shape: 'sine', min: 45, max: 85, period_s: 1_800 },
      },
      {
        name: 'Spindle speed',
        unit: 'rpm',
        type: 'number',
        vis_min: 0,
        vis_max: 6000,
        simulate: { shape: 'random-walk', min: 800, max: 5_200 },
      },
      { name: 'Running', unit: '', type: 'boolean', simulate: { shape: 'boolean' } },
    ],
  },
  {
    group: 'Hydraulics',
    open: false,
    streams: [
      {
        name: 'Oil pressure',
        unit: 'bar',
        type: 'number',
        vis_min: 0,
        vis_max: 250,
        simulate: { shape: 'sine', min: 120, max: 185, period_s: 600 },
      },
      {
        name: 'Operating mode',
        unit: '',
        type: 'state',
        state_texts: { '0': 'Off', '1': 'Automatic', '2': 'Manual', '3': 'Fault' },
        simulate: { shape: 'state', states: [1, 1, 2, 1, 0, 1, 3] },
      },
    ],
  },
];

/**
 * The demo machines: gateways, assets, stream groups and streams, and on each gateway a simulator
 * connection with a datapoint for each of its machine's streams (the demo agents that `npm start`
 * runs read them), written through the same code as every client write, so that the change log
 * and every model's last_seq are as real ones.
 */
export async function seedDemoModels(
  trx: Db,
  clock: Clock,
  accounts: readonly { id: string; machines: number; prefix: string; active: boolean }[],
): Promise<DemoGateway[]> {
  const gateways: DemoGateway[] = [];
  const models = new ModelService(trx, clock, new ChangeFeed());
  const create = async (accountId: string, collection: string, body: Record<string, unknown>) => {
    const { answer } = await models.applyIn(trx, accountId, { kind: 'create', collection, body });
    return answer.body.data?.id ?? '';
  };
  for (const account of accounts) {
    for (let i = 0; i < account.machines; i++) {
      const name = `${account.prefix}${MACHINES[i % MACHINES.length] ?? 'Machine'}`;
      const dhcp = i % 3 !== 0;
      const gatewayId = await create(account.id, 'gateways', {
        name: `Gateway ${String(i + 1).padStart(2, '0')}`,
        serial: `GW-${(1000 + i).toString()}`,
        ip_assignment: dhcp ? 'dhcp' : 'static',
        ...(dhcp
          ? {}
          : { ip: `10.20.0.${10 + i}`, subnet_mask: '255.255.255.0', dns1: '10.20.0.1' }),
      });
      const connectionId = await create(account.id, 'connections', {
        gateway_id: gatewayId,
        name: 'Simulator',
        protocol: 'simulator',
        settings: {},
        interval_ms: 10_000,
      });
      const assetId = await create(account.id, 'assets', {
        name,
        description: `${name}: demo machine with live data streams.`,
        gateway_id: gatewayId,
        mac: `00:1b:44:11:3a:${(0xb0 + i).toString(16)}`,
        status: i % 5 === 4 ? 'warning' : 'ok',
        tags: i % 2 === 0 ? ['production'] : ['production', 'hall-2'],
      });
      gateways.push({ accountId: account.id, gatewayId, active: account.active, assetId });
      for (const [order, group] of GROUPS.entries()) {
        const groupId = await create(account.id, 'datastreamgroups', {
          asset_id: assetId,
          name: group.group,
          collapsible: true,
          open_by_default: group.open,
          order,
        });
        for (const { simulate, ...stream } of group.streams) {
          const streamId = await create(account.id, 'datastreams', {
            asset_id: assetId,
            group_id: groupId,
            ...stream,
          });
          await create(account.id, 'datapoints', {
            connection_id: connectionId,
            datastream_id: streamId,
            address: simulate,
          });
        }
      }
    }
  }
  return gateways;
}
