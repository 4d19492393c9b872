import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiPaths,
  currentUserSchema,
  INSPECTION_LIMITS,
  INSPECTION_TEXTS,
  uuidv7,
  type InspectionAttributes,
  type InspectionNoteAttributes,
  type SyncedModel,
} from '@plant/shared-schema';
import { DEMO_USERS } from '../seed/demo';
import { dataOf, startTestServer, type TestServer } from '../testing/harness';

/*
 * Event inspection on the server (issue 37 item 5): whoever sees an asset opens an inspection of
 * it, moves its window and adds notes, without the asset's edit right; who does not see the
 * asset gets nothing (404, as for another account's); the server stamps who and when; the
 * alarm must be one of the inspection's asset as stored (a missing one and another asset's are
 * told alike); notes are bounded; deleting needs the asset's edit right.
 */
let s: TestServer;
let admin = '';
let tech = '';
let techId = '';
/** A machine the technician sees but may not change, one it does not see. */
let viewed = '';
let hidden = '';
let viewedAlarm = '';
let hiddenAlarm = '';

const post = (collection: string, json: unknown, token: string) =>
  s.call('POST', apiPaths.collection(collection), { token, json });
const put = (collection: string, id: string, json: unknown, token: string) =>
  s.call('PUT', apiPaths.model(collection, id), { token, json });
const del = (collection: string, id: string, token: string) =>
  s.call('DELETE', apiPaths.model(collection, id), { token });

async function alarmOn(asset: string, models: readonly SyncedModel[]): Promise<string> {
  const stream = models.find((m) => m.type === 'datastream' && m.attributes.asset_id === asset);
  const made = await post(
    'alarms',
    { datastream_id: stream?.id, name: 'Too hot', upper_limit: 90 },
    admin,
  );
  expect(made.status, made.text).toBe(201);
  return dataOf<SyncedModel>(made).id;
}

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.signIn(DEMO_USERS.admin);
  tech = await s.signIn(DEMO_USERS.tech);
  const user = currentUserSchema.parse(
    dataOf(await s.call('GET', apiPaths.user(), { token: tech })),
  );
  techId = user.id;
  const everything = await s.snapshot(admin);
  const seen = new Set((await s.snapshot(tech)).filter((m) => m.type === 'asset').map((m) => m.id));
  const machines = everything.filter(
    (m) => m.type === 'asset' && typeof m.attributes.gateway_id === 'string',
  );
  viewed = machines.find((m) => seen.has(m.id) && !user.access?.edit.includes(m.id))?.id ?? '';
  hidden = machines.find((m) => !seen.has(m.id))?.id ?? '';
  expect(viewed).not.toBe('');
  expect(hidden).not.toBe('');
  viewedAlarm = await alarmOn(viewed, everything);
  hiddenAlarm = await alarmOn(hidden, everything);
});
afterAll(async () => {
  await s.close();
});

async function inspection(token: string, json: Record<string, unknown> = {}): Promise<string> {
  const made = await post(
    'inspections',
    { asset_id: viewed, at: Date.now() - 60_000, alarm_id: viewedAlarm, ...json },
    token,
  );
  expect(made.status, made.text).toBe(201);
  return dataOf<SyncedModel>(made).id;
}

describe('event inspection', () => {
  it('who sees the asset without edit rights opens one, moves its window and adds notes; the server stamps who and when', async () => {
    const before = Date.now();
    const id = uuidv7();
    const made = await post(
      'inspections',
      {
        id,
        asset_id: viewed,
        at: before - 120_000,
        alarm_id: viewedAlarm,
        created_by: 'someone-else',
        created_at: 1,
      },
      tech,
    );
    expect(made.status, made.text).toBe(201);
    const stored = dataOf<SyncedModel>(made).attributes as InspectionAttributes;
    expect(stored).toMatchObject({
      asset_id: viewed,
      alarm_id: viewedAlarm,
      before_ms: 30 * 60_000,
      after_ms: 30 * 60_000,
      created_by: techId,
    });
    expect(stored.created_at).toBeGreaterThanOrEqual(before);

    const moved = await put(
      'inspections',
      id,
      { before_ms: 45 * 60_000, after_ms: 15 * 60_000 },
      tech,
    );
    expect(moved.status, moved.text).toBe(200);
    const fixedAt = await put('inspections', id, { at: before }, tech);
    expect(fixedAt.status).toBe(422);

    const note = await post(
      'inspection_notes',
      { inspection_id: id, text: '  Pressure dropped first.  ', by_user: 'x', at: 1 },
      tech,
    );
    expect(note.status, note.text).toBe(201);
    const noted = dataOf<SyncedModel>(note).attributes as InspectionNoteAttributes;
    expect(noted).toMatchObject({
      text: 'Pressure dropped first.',
      asset_id: viewed,
      by_user: techId,
    });
    expect(noted.at).toBeGreaterThanOrEqual(before);
    // The note's asset is its stored inspection's, never the one a client names beside it.
    const elsewhere = await post(
      'inspection_notes',
      { inspection_id: id, asset_id: hidden, text: 'Here?' },
      tech,
    );
    expect(elsewhere.status).toBe(422);

    // The colleague's sync carries the inspection and the note.
    const synced = await s.snapshot(tech);
    expect(synced.find((m) => m.id === id)?.attributes).toMatchObject({ before_ms: 45 * 60_000 });
    expect(
      synced.some((m) => m.type === 'inspection_note' && m.attributes.inspection_id === id),
    ).toBe(true);
  });

  it('who does not see the asset can neither open one nor read or note one', async () => {
    const refused = await post('inspections', { asset_id: hidden, at: Date.now() }, tech);
    expect(refused.status).toBe(404);
    const theirs = await inspection(admin, { asset_id: hidden, alarm_id: hiddenAlarm });
    expect((await s.snapshot(tech)).some((m) => m.id === theirs)).toBe(false);
    const note = await post('inspection_notes', { inspection_id: theirs, text: 'Hello' }, tech);
    expect(note.status).toBe(404);
    expect((await put('inspections', theirs, { before_ms: 60_000 }, tech)).status).toBe(404);
  });

  it("the alarm is one of the inspection's asset: a missing one and another asset's are told alike", async () => {
    const other = await post(
      'inspections',
      { asset_id: viewed, at: Date.now(), alarm_id: hiddenAlarm },
      tech,
    );
    const missing = await post(
      'inspections',
      { asset_id: viewed, at: Date.now(), alarm_id: uuidv7() },
      tech,
    );
    for (const answer of [other, missing]) {
      expect(answer.status, answer.text).toBe(422);
      expect(answer.json).toMatchObject({
        errors: { alarm_id: [INSPECTION_TEXTS.alarmNotOfAsset] },
      });
    }
    expect(other.text).toBe(missing.text);
  });

  it('the window is bounded', async () => {
    for (const side of [-1, INSPECTION_LIMITS.maxSideMs + 1, 1.5]) {
      const answer = await post(
        'inspections',
        { asset_id: viewed, at: Date.now(), before_ms: side },
        tech,
      );
      expect(answer.status, answer.text).toBe(422);
      expect(answer.json).toMatchObject({ errors: { before_ms: [INSPECTION_TEXTS.window] } });
    }
  });

  it('an inspection holds at most its bound of notes', async () => {
    const id = await inspection(tech);
    const batch = Array.from({ length: INSPECTION_LIMITS.maxNotes }, (_, i) => ({
      batch_id: i,
      data: { inspection_id: id, text: `Note ${i}` },
    }));
    const filled = await post('inspection_notes', batch, tech);
    expect(filled.status, filled.text.slice(0, 300)).toBe(200);
    expect(filled.json).toMatchObject({ success: true });
    const over = await post('inspection_notes', { inspection_id: id, text: 'One more' }, tech);
    expect(over.status).toBe(422);
    expect(over.json).toMatchObject({ errors: { text: [INSPECTION_TEXTS.tooManyNotes] } });
  });

  it("deleting takes the asset's edit right; the notes go with their inspection", async () => {
    const id = await inspection(tech);
    const note = await post('inspection_notes', { inspection_id: id, text: 'Mine' }, tech);
    const noteId = dataOf<SyncedModel>(note).id;
    expect((await del('inspection_notes', noteId, tech)).status).toBe(403);
    expect((await del('inspections', id, tech)).status).toBe(403);
    const gone = await del('inspections', id, admin);
    expect(gone.status, gone.text).toBe(200);
    const left = (await s.snapshot(admin)).filter((m) => m.id === id || m.id === noteId);
    expect(left).toEqual([]);
  });
});
