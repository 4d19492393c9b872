import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiPaths,
  FILE_KINDS,
  FORM_TEXTS,
  type FormEntryAttributes,
  type FormFieldInput,
  type FormVersionAttributes,
  type TaskStateAttributes,
  uuidv7,
} from '@plant/shared-schema';
import { createHash } from 'node:crypto';
import { DEMO_USERS } from '../seed/demo';
import { dataOf, startTestServer, type Answer, type TestServer } from '../testing/harness';
import { demoGateway, linkedAgent } from '../testing/gateway-client';
import { taskStateId } from '../tasks/task-states';
import { DEMO_FORM, DEMO_TASK_NAME } from '../seed/demo-forms';
import { DEMO_DIAGRAM_NAME } from '../seed/demo-diagram';

/*
 * Forms on the server (issue 37 items 1 and 2): a published version is numbered by the server and
 * kept as it is; an entry is checked against the version it names, its formulas computed, and
 * never changed; the technician fills in a form on a machine it sees without edit rights and adds
 * its photo as a file of the entry, which nobody else may; a task by counter comes due when the
 * counter stream passes its step, and is done by an entry.
 */
let s: TestServer;
let admin = '';
let tech = '';
let accountId = '';
let gw: Awaited<ReturnType<typeof demoGateway>>;
let agent: Awaited<ReturnType<typeof linkedAgent>>;

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.signIn(DEMO_USERS.admin);
  tech = await s.signIn(DEMO_USERS.tech);
  accountId = (await s.demoAccountIds()).root;
  // The technician sees the first four machines and edits only the first: the second.
  gw = await demoGateway(s, accountId, 1);
  agent = await linkedAgent(s, admin, gw.gatewayId, 'forms-test');
});
afterAll(async () => {
  await agent.close();
  await s.close();
});

const create = (collection: string, json: object, token = admin) =>
  s.call('POST', apiPaths.collection(collection), { token, json: { id: uuidv7(), ...json } });
const errorsOf = (answer: Answer) =>
  (JSON.parse(answer.text) as { errors?: Record<string, string[]> }).errors ?? {};
const attributesOf = <T>(answer: Answer) => dataOf<{ id: string; attributes: T }>(answer);

const FIELDS: FormFieldInput[] = [
  { id: 'oil_ok', type: 'checkbox', label: { en: 'Oil level fine', de: 'Ölstand in Ordnung' } },
  { id: 'hours', type: 'number', label: { en: 'Hours worked' }, min: 0, required: true },
  { id: 'minutes', type: 'formula', label: { en: 'Minutes' }, formula: 'hours * 60' },
  { id: 'photo', type: 'photo', label: { en: 'Photo' }, required: true },
];

async function publishedForm(fields: FormFieldInput[] = FIELDS) {
  const form = attributesOf<object>(await create('forms', { name: 'Inspection', fields }));
  const version = await create('form_versions', { form_id: form.id, name: 'Inspection', fields });
  expect(version.status).toBe(201);
  return { formId: form.id, version: attributesOf<FormVersionAttributes>(version) };
}

describe('forms', () => {
  it('number their versions and keep them as published', async () => {
    const { formId, version } = await publishedForm();
    expect(version.attributes.number).toBe(1);
    const second = await create('form_versions', { form_id: formId, name: 'x', fields: FIELDS });
    expect(attributesOf<FormVersionAttributes>(second).attributes.number).toBe(2);
    const changed = await s.call('PUT', apiPaths.model('form_versions', version.id), {
      token: admin,
      json: { name: 'Changed' },
    });
    expect(changed.status).toBe(403);
    const bad = await create('forms', {
      name: 'Bad',
      fields: [{ id: 'm', type: 'formula', label: { en: 'M' }, formula: 'x +' }],
    });
    expect(bad.status).toBe(422);
    expect(errorsOf(bad)['fields.0']).toEqual([FORM_TEXTS.formula]);
  });

  it('take an entry from a technician who sees the machine, checked against its version', async () => {
    const { formId, version } = await publishedForm();
    const entryOf = (values: object) =>
      create(
        'form_entries',
        {
          asset_id: gw.assetId,
          form_id: formId,
          form_version_id: version.id,
          values,
          filled_at: Date.now(),
        },
        tech,
      );
    const wrong = await entryOf({ hours: -2, photo: [] });
    expect(wrong.status).toBe(422);
    expect(errorsOf(wrong)['values.hours']).toEqual(['Must be at least 0']);
    expect(errorsOf(wrong)['values.photo']).toEqual([FORM_TEXTS.required]);

    const photoId = uuidv7();
    const made = await entryOf({ hours: 1.5, minutes: 1, photo: [photoId] });
    expect(made.status).toBe(201);
    const entry = attributesOf<FormEntryAttributes>(made);
    expect(entry.attributes.values).toEqual({ hours: 1.5, minutes: 90, photo: [photoId] });
    expect(entry.attributes.filled_by).not.toBeNull();

    // Its photo: a file of the entry and of its machine, added by who filled it in.
    const bytes = Buffer.from('a photo');
    const file = (token: string, extra: object = {}) =>
      s.call('POST', apiPaths.collection('files'), {
        token,
        json: {
          id: photoId,
          asset_id: gw.assetId,
          form_entry_id: entry.id,
          kind: FILE_KINDS[0],
          name: 'photo.jpg',
          type: 'image/jpeg',
          size: bytes.length,
          sha256: createHash('sha256').update(bytes).digest('hex'),
          ...extra,
        },
      });
    expect((await file(admin)).status).toBe(403);
    expect((await file(tech, { asset_id: null })).status).toBe(422);
    expect((await file(tech)).status).toBe(201);

    // Filled in is filled in.
    const change = await s.call('PUT', apiPaths.model('form_entries', entry.id), {
      token: admin,
      json: { values: { hours: 3, photo: [photoId] } },
    });
    expect(change.status).toBe(422);
  });

  it('refuse an entry of a machine the technician does not see', async () => {
    const { formId, version } = await publishedForm();
    const hidden = await demoGateway(s, accountId, 6);
    const answer = await create(
      'form_entries',
      {
        asset_id: hidden.assetId,
        form_id: formId,
        form_version_id: version.id,
        values: { hours: 1, photo: ['x'] },
        filled_at: Date.now(),
      },
      tech,
    );
    expect([403, 404]).toContain(answer.status);
  });
});

describe('a task by counter', () => {
  it('comes due when the counter passes its step, and an entry does it', async () => {
    const { formId, version } = await publishedForm([
      { id: 'done', type: 'checkbox', label: { en: 'Done' }, required: true },
    ]);
    const counter = gw.streams['Spindle speed'] ?? '';
    const task = attributesOf<object>(
      await create('tasks', {
        name: 'Every 500',
        form_id: formId,
        asset_ids: [gw.assetId],
        schedule: { kind: 'counter', stream_name: 'Spindle speed', step: 500, start: 0 },
      }),
    );
    const stateId = taskStateId(task.id, gw.assetId);
    const state = async () => {
      await s.tasks.idle();
      const row = await s.db
        .selectFrom('models')
        .select('attributes')
        .where('id', '=', stateId)
        .executeTakeFirst();
      return row === undefined ? undefined : (JSON.parse(row.attributes) as TaskStateAttributes);
    };
    await expect.poll(async () => (await state())?.next_counter).toBe(500);
    let ts = Date.now() - 60_000;
    const send = async (value: number) => {
      ts += 1000;
      expect((await agent.send([{ stream: counter, ts, value }])).stored).toBe(1);
    };
    await send(499);
    await expect.poll(async () => (await state())?.counter_value).toBe(499);
    expect((await state())?.due).toBe(false);
    await send(501);
    await expect.poll(async () => (await state())?.due).toBe(true);

    // The technician's entry for the task does it; the next is due at 1000.
    const done = await create(
      'form_entries',
      {
        asset_id: gw.assetId,
        form_id: formId,
        form_version_id: version.id,
        task_id: task.id,
        values: { done: true },
        filled_at: Date.now(),
      },
      tech,
    );
    expect(done.status).toBe(201);
    await expect.poll(async () => (await state())?.due).toBe(false);
    expect((await state())?.next_counter).toBe(1000);
    // The technician syncs the state, and may not write it.
    const snapshot = await s.snapshot(tech);
    expect(snapshot.some((m) => m.id === stateId)).toBe(true);
    const write = await s.call('PUT', apiPaths.model('task_states', stateId), {
      token: admin,
      json: { due: true },
    });
    expect([403, 422]).toContain(write.status);
    await send(1200);
    await expect.poll(async () => (await state())?.due).toBe(true);
  });
});

describe('the demo', () => {
  it('has a weekly inspection of the technician’s machines, two entries and a live diagram', async () => {
    const models = await s.snapshot(admin);
    const of = (type: string) => models.filter((m) => m.type === type);
    const form = of('form').find((m) => m.attributes.name === DEMO_FORM.name);
    expect(form).toBeDefined();
    expect(of('form_version').filter((v) => v.attributes.form_id === form?.id)).toHaveLength(1);
    const task = of('task').find((t) => t.attributes.name === DEMO_TASK_NAME);
    expect(task?.attributes.schedule).toMatchObject({ kind: 'date', every: 1, unit: 'week' });
    const targets = task?.attributes.asset_ids as string[];
    expect(targets).toHaveLength(4);
    const entries = of('form_entry').filter((e) => e.attributes.task_id === task?.id);
    expect(entries).toHaveLength(2);
    expect(new Set(entries.map((e) => e.attributes.asset_id))).toEqual(new Set([targets[0]]));
    // Done on the first machine, due on the other three.
    const due = of('task_state').filter((t) => t.attributes.task_id === task?.id);
    expect(
      due
        .filter((t) => t.attributes.due)
        .map((t) => t.attributes.asset_id)
        .sort(),
    ).toEqual(targets.slice(1).sort());
    // The diagram of the first machine: its motor, temperature, speed and mode bound to its
    // own streams, which the demo agents feed.
    const diagram = of('diagram').find((d) => d.attributes.name === DEMO_DIAGRAM_NAME);
    expect(diagram?.attributes.asset_id).toBe(targets[0]);
    const bindings = diagram?.attributes.bindings as { element: string; stream_id: string }[];
    expect(bindings.map((b) => b.element).sort()).toEqual(['mode', 'motor', 'speed', 'temp']);
    const streamsOfMachine = new Set(
      of('datastream')
        .filter((d) => d.attributes.asset_id === targets[0])
        .map((d) => d.id),
    );
    expect(bindings.every((b) => streamsOfMachine.has(b.stream_id))).toBe(true);
  });
});
