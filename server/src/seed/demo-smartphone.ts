import {
  assetModel,
  connectionModel,
  datapointModel,
  datastreamGroupModel,
  datastreamModel,
  gatewayModel,
  templateModel,
  type TemplateGroup,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import type { Clock } from '../lib/clock';
import { ChangeFeed } from '../services/change-feed';
import { ModelService } from '../services/model.service';
import type { DemoGateway } from './demo-models';

/** The names of the smartphone demo (spec 000 §2 /app/templates/demo/smartphone). */
export const DEMO_SMARTPHONE = {
  template: 'Smartphone',
  asset: 'Demo smartphone',
  gateway: 'Smartphone gateway',
} as const;

interface PhoneStream {
  readonly name: string;
  readonly unit: string;
  readonly type: 'number' | 'boolean';
  readonly vis_min?: number;
  readonly vis_max?: number;
  /** The simulated curve its datapoint reads (spec 001 §9). */
  readonly simulate: Record<string, unknown>;
}

/** A phone's sensors as the browser reports them (motion, orientation, battery). */
const PHONE: readonly { name: string; open: boolean; streams: readonly PhoneStream[] }[] = [
  {
    name: 'Motion',
    open: true,
    streams: (['x', 'y', 'z'] as const).map((axis, i) => ({
      name: `Acceleration ${axis}`,
      unit: 'm/s²',
      type: 'number',
      vis_min: -20,
      vis_max: 20,
      simulate:
        axis === 'z'
          ? { shape: 'random-walk', min: 8.5, max: 11, period_s: 300 }
          : { shape: 'sine', min: -4, max: 4, period_s: 60 + 30 * i },
    })),
  },
  {
    name: 'Orientation',
    open: true,
    streams: [
      {
        name: 'Alpha',
        unit: '°',
        type: 'number',
        vis_min: 0,
        vis_max: 360,
        simulate: { shape: 'ramp', min: 0, max: 360, period_s: 120 },
      },
      {
        name: 'Beta',
        unit: '°',
        type: 'number',
        vis_min: -180,
        vis_max: 180,
        simulate: { shape: 'sine', min: -45, max: 45, period_s: 90 },
      },
      {
        name: 'Gamma',
        unit: '°',
        type: 'number',
        vis_min: -90,
        vis_max: 90,
        simulate: { shape: 'random-walk', min: -30, max: 30, period_s: 240 },
      },
    ],
  },
  {
    name: 'Battery',
    open: false,
    streams: [
      {
        name: 'Battery level',
        unit: '%',
        type: 'number',
        vis_min: 0,
        vis_max: 100,
        simulate: { shape: 'sine', min: 20, max: 100, period_s: 7_200 },
      },
      { name: 'Charging', unit: '', type: 'boolean', simulate: { shape: 'boolean' } },
    ],
  },
];

/** The layout of the demo template: the groups and streams above, without their curves. */
export function smartphoneLayout(): TemplateGroup[] {
  return PHONE.map((group) => ({
    name: group.name,
    collapsible: true,
    open_by_default: group.open,
    streams: group.streams.map((s) => ({
      name: s.name,
      unit: s.unit,
      type: s.type,
      vis_min: s.vis_min ?? null,
      vis_max: s.vis_max ?? null,
      state_texts: {},
      preprocessing: '',
    })),
  }));
}

/**
 * The smartphone demo in an account: the template "Smartphone" (demo 'smartphone', a server
 * field) and the asset "Demo smartphone" made from it, whose streams a gateway's simulator feeds
 * like the demo machines' (so its page shows live values while the demo agents run). The
 * template names the asset as its source: that is how the app finds the demo asset.
 */
export async function seedDemoSmartphone(
  trx: Db,
  clock: Clock,
  accountId: string,
): Promise<DemoGateway> {
  const models = new ModelService(trx, clock, new ChangeFeed());
  const create = async (collection: string, body: Record<string, unknown>) => {
    const op = { kind: 'create', collection, body } as const;
    const { answer } = await models.applyIn(trx, accountId, op, true);
    return answer.body.data?.id ?? '';
  };
  const gatewayId = await create(gatewayModel.collection, {
    name: DEMO_SMARTPHONE.gateway,
    serial: 'GW-PHONE-1',
    ip_assignment: 'dhcp',
  });
  const connectionId = await create(connectionModel.collection, {
    gateway_id: gatewayId,
    name: 'Simulator',
    protocol: 'simulator',
    settings: {},
    interval_ms: 10_000,
  });
  const assetId = await create(assetModel.collection, {
    name: DEMO_SMARTPHONE.asset,
    description: 'A smartphone made from the Smartphone template: motion, orientation, battery.',
    gateway_id: gatewayId,
    status: 'ok',
  });
  for (const [order, group] of PHONE.entries()) {
    const groupId = await create(datastreamGroupModel.collection, {
      asset_id: assetId,
      name: group.name,
      collapsible: true,
      open_by_default: group.open,
      order,
    });
    for (const { simulate, ...stream } of group.streams) {
      const streamId = await create(datastreamModel.collection, {
        asset_id: assetId,
        group_id: groupId,
        ...stream,
      });
      await create(datapointModel.collection, {
        connection_id: connectionId,
        datastream_id: streamId,
        address: simulate,
      });
    }
  }
  await create(templateModel.collection, {
    name: DEMO_SMARTPHONE.template,
    description: 'A smartphone as a demo device: its motion, orientation and battery.',
    source_asset_id: assetId,
    groups: smartphoneLayout(),
    demo: 'smartphone',
  });
  return { accountId, gatewayId, active: true, assetId };
}
