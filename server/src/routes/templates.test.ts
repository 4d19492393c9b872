import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiPaths,
  TEMPLATE_TOO_LARGE,
  uuidv7,
  type SyncedModel,
  type TemplateGroup,
} from '@plant/shared-schema';
import { DEMO_USERS } from '../seed/demo';
import { DEMO_SMARTPHONE } from '../seed/demo-smartphone';
import { dataOf, startTestServer, type TestServer } from '../testing/harness';

/*
 * Layouts and templates (spec 001 §1, §3; issue 16 item 5): a synced model written through the
 * generic routes like any other, with its groups and streams checked by the shared schema; the
 * demo seed makes the Smartphone template and the demo asset made from it.
 */
let s: TestServer;
let admin = '';
let tech = '';
let south = '';

const snapshotOf = (token: string) => s.snapshot(token);

const LAYOUT: TemplateGroup[] = [
  {
    name: 'Drive',
    collapsible: true,
    open_by_default: false,
    streams: [
      {
        name: 'Motor temperature',
        unit: '°C',
        type: 'number',
        vis_min: 0,
        vis_max: 120,
        state_texts: {},
        preprocessing: 'return $value / 10;',
      },
      {
        name: 'Mode',
        unit: '',
        type: 'state',
        vis_min: null,
        vis_max: null,
        state_texts: { '0': 'Off', '1': 'On' },
        preprocessing: '',
      },
    ],
  },
  { name: 'Empty', collapsible: false, open_by_default: true, streams: [] },
];

const post = (json: unknown, token = admin) =>
  s.call('POST', apiPaths.collection('templates'), { token, json });

beforeAll(async () => {
  s = await startTestServer();
  [admin, tech, south] = await Promise.all([
    s.signIn(DEMO_USERS.admin),
    s.signIn(DEMO_USERS.tech),
    s.signIn(DEMO_USERS.south),
  ]);
});
afterAll(() => s.close());

describe('templates', () => {
  it('a layout is created through the generic routes and read back whole, through the snapshot and the graph', async () => {
    const source = (await snapshotOf(admin)).find((m) => m.type === 'asset');
    if (source === undefined) throw new Error('no demo asset');
    const id = uuidv7();
    const made = await post({
      id,
      name: '  Press layout  ',
      source_asset_id: source.id,
      groups: LAYOUT,
    });
    expect(made.status).toBe(201);
    const expected = {
      name: 'Press layout',
      description: '',
      source_asset_id: source.id,
      groups: LAYOUT,
      demo: null,
    };
    expect(dataOf<SyncedModel>(made).attributes).toEqual(expected);

    const stored = (await snapshotOf(admin)).find((m) => m.id === id);
    expect(stored).toMatchObject({
      type: 'template',
      parent_type: 'account',
      attributes: expected,
    });
    const graph = dataOf<{ model: SyncedModel }>(
      await s.call('GET', apiPaths.graph('template', id), { token: admin }),
    );
    expect(graph.model.attributes).toEqual(expected);

    // Defaults: a group's flags and a stream's settings may be left out.
    const minimal = await post({
      name: 'Minimal',
      groups: [{ name: 'G', streams: [{ name: 'S' }] }],
    });
    expect(minimal.status).toBe(201);
    expect(dataOf<SyncedModel>(minimal).attributes.groups).toEqual([
      {
        name: 'G',
        collapsible: true,
        open_by_default: true,
        streams: [
          {
            name: 'S',
            unit: '',
            type: 'number',
            vis_min: null,
            vis_max: null,
            state_texts: {},
            preprocessing: '',
          },
        ],
      },
    ]);

    // Deleting the asset it came from keeps the layout and forgets the asset.
    const asset = await s.call('POST', apiPaths.collection('assets'), {
      token: admin,
      json: { name: 'Short-lived' },
    });
    const from = await post({
      name: 'From short-lived',
      source_asset_id: dataOf<SyncedModel>(asset).id,
    });
    const fromId = dataOf<SyncedModel>(from).id;
    expect(
      (
        await s.call('DELETE', apiPaths.model('assets', dataOf<SyncedModel>(asset).id), {
          token: admin,
        })
      ).status,
    ).toBe(200);
    const kept = (await snapshotOf(admin)).find((m) => m.id === fromId);
    expect(kept?.attributes.source_asset_id).toBeNull();
  });

  it('refuses invalid layouts with a message per field, and a layout too large for one write', async () => {
    const before = await s.contentHashes();
    const empty = await post({ name: ' ', groups: [] });
    expect(empty.status).toBe(422);
    expect((empty.json as { errors: Record<string, string[]> }).errors.name).toEqual([
      'Name is required',
    ]);

    const badStream = await post({
      name: 'Bad',
      groups: [
        {
          name: '',
          streams: [{ name: 'S', type: 'colour', preprocessing: 'x = 1' }],
        },
      ],
    });
    expect(badStream.status).toBe(422);
    const errors = (badStream.json as { errors: Record<string, string[]> }).errors;
    expect(Object.keys(errors).sort()).toEqual([
      'groups.0.name',
      'groups.0.streams.0.preprocessing',
      'groups.0.streams.0.type',
    ]);
    expect(errors['groups.0.name']).toEqual(['Name is required']);
    expect(errors['groups.0.streams.0.preprocessing']).toEqual(['This code is not valid']);

    const unknownAsset = await post({ name: 'Orphan', source_asset_id: uuidv7() });
    expect(unknownAsset.status).toBe(422);

    // Under the body limit, over the layout's own: refused by the schema, with its text.
    const code = `return $value;${' '.repeat(9_000)}`;
    const big = await post({
      name: 'Big',
      groups: [
        {
          name: 'G',
          streams: Array.from({ length: 6 }, (_, i) => ({ name: `S${i}`, preprocessing: code })),
        },
      ],
    });
    expect(big.status).toBe(422);
    expect((big.json as { errors: Record<string, string[]> }).errors.groups).toEqual([
      TEMPLATE_TOO_LARGE,
    ]);
    expect(await s.contentHashes()).toEqual(before);
  });

  it('demo is the server’s: a client cannot make or turn a template into a demo', async () => {
    const made = await post({ name: 'Not a demo', demo: 'smartphone' });
    expect(made.status).toBe(201);
    const { id, attributes } = dataOf<SyncedModel>(made);
    expect(attributes.demo).toBeNull();
    const changed = await s.call('PUT', apiPaths.model('templates', id), {
      token: admin,
      json: { demo: 'smartphone', description: 'Still not' },
    });
    expect(changed.status).toBe(200);
    expect(dataOf<SyncedModel>(changed).attributes).toMatchObject({
      demo: null,
      description: 'Still not',
    });
  });

  it('checks permissions: the technician neither sees nor makes templates; another account’s is unknown', async () => {
    const mine = dataOf<SyncedModel>(await post({ name: 'Root layout' }));
    const refused = await post({ name: 'Technician layout' }, tech);
    expect(refused.status).toBe(403);
    expect((await snapshotOf(tech)).filter((m) => m.type === 'template')).toEqual([]);
    // A type it may not view is one it knows nothing of.
    expect((await s.call('GET', apiPaths.graph('template', mine.id), { token: tech })).status).toBe(
      404,
    );

    // South's admin holds every permission, in its own account only.
    for (const [method, json] of [
      ['PUT', { name: 'Taken over' }],
      ['DELETE', undefined],
    ] as const) {
      const answer = await s.call(method, apiPaths.model('templates', mine.id), {
        token: south,
        ...(json === undefined ? {} : { json }),
      });
      expect(answer.status, method).toBe(404);
    }
    expect(
      (await s.call('GET', apiPaths.graph('template', mine.id), { token: south })).status,
    ).toBe(404);
    expect((await snapshotOf(south)).some((m) => m.id === mine.id)).toBe(false);
    expect((await snapshotOf(admin)).find((m) => m.id === mine.id)?.attributes.name).toBe(
      'Root layout',
    );
  });

  it('the demo seed makes the Smartphone template and the demo smartphone from it, fed by a simulator', async () => {
    const models = await snapshotOf(admin);
    const demo = models.filter((m) => m.type === 'template' && m.attributes.demo === 'smartphone');
    expect(demo).toHaveLength(1);
    const template = demo[0];
    const asset = models.find((m) => m.id === template?.attributes.source_asset_id);
    expect(template?.attributes.name).toBe(DEMO_SMARTPHONE.template);
    expect(asset?.attributes.name).toBe(DEMO_SMARTPHONE.asset);

    // The asset has the template's groups, in order, with its streams.
    const groups = models
      .filter((m) => m.type === 'datastreamgroup' && m.attributes.asset_id === asset?.id)
      .sort((a, b) => Number(a.attributes.order) - Number(b.attributes.order));
    const layout = template?.attributes.groups as TemplateGroup[];
    expect(groups.map((g) => g.attributes.name)).toEqual(['Motion', 'Orientation', 'Battery']);
    expect(layout.map((g) => g.name)).toEqual(['Motion', 'Orientation', 'Battery']);
    for (const [i, group] of groups.entries()) {
      const streams = models.filter(
        (m) => m.type === 'datastream' && m.attributes.group_id === group.id,
      );
      expect(streams.map((m) => m.attributes.name).sort()).toEqual(
        layout[i]?.streams.map((st) => st.name).sort(),
      );
      for (const stream of streams) {
        const spec = layout[i]?.streams.find((st) => st.name === stream.attributes.name);
        expect(stream.attributes).toMatchObject({ unit: spec?.unit, type: spec?.type });
      }
    }
    const motion = layout[0]?.streams.map((st) => [st.name, st.unit]);
    expect(motion).toEqual([
      ['Acceleration x', 'm/s²'],
      ['Acceleration y', 'm/s²'],
      ['Acceleration z', 'm/s²'],
    ]);

    // Every stream of the asset is read by a simulator datapoint of the asset's gateway.
    const streams = models.filter(
      (m) => m.type === 'datastream' && m.attributes.asset_id === asset?.id,
    );
    expect(streams).toHaveLength(8);
    const simulators = models.filter(
      (m) =>
        m.type === 'connection' &&
        m.attributes.protocol === 'simulator' &&
        m.attributes.gateway_id === asset?.attributes.gateway_id,
    );
    expect(simulators).toHaveLength(1);
    const read = models
      .filter((m) => m.type === 'datapoint' && m.attributes.connection_id === simulators[0]?.id)
      .map((m) => m.attributes.datastream_id);
    expect(read.sort()).toEqual(streams.map((m) => m.id).sort());

    // The supervisor sees it too (template::view); the technician does not.
    const supervisor = await s.signIn(DEMO_USERS.internal);
    expect((await snapshotOf(supervisor)).some((m) => m.id === template?.id)).toBe(true);
  });
});
