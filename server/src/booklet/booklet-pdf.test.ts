import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API_BASE,
  apiPaths,
  BOOKLET_KINDS,
  uuidv7,
  type BookletKind,
  type UploadState,
} from '@plant/shared-schema';
import { DEMO_FORM } from '../seed/demo-forms';
import { DEMO_USERS } from '../seed/demo';
import { demoGateway, linkedAgent } from '../testing/gateway-client';
import { startTestServer, type TestServer } from '../testing/harness';
import { pdfText } from '../testing/pdf-text';
import { roleMember } from '../testing/role-member';

/*
 * The service booklet as a PDF (issue 37 item 3): the real server draws it on its PDF thread from
 * the stored models, cut to the reader: the demo's first machine with its two inspections reads
 * back (pdftotext) with the form's version, labels and answers, newest first, in English or German,
 * and an entry's own photo is embedded (pdfimages) while another entry naming the same file gets
 * none; a machine the technician does not see is 404, a reader without form_entry::view gets no
 * entries (and is told the kind was left out), a role that hides the asset's name does not get it;
 * a bad query is 422.
 */
let s: TestServer;
let admin = '';
let tech = '';
let accountId = '';
let assetId = '';
let assetName = '';

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.signIn(DEMO_USERS.admin);
  tech = await s.signIn(DEMO_USERS.tech);
  accountId = (await s.demoAccountIds()).root;
  // The machine of the demo's two filled-in inspections (demo-forms.ts).
  const entry = await s.db
    .selectFrom('models')
    .select('asset_id')
    .where('account_id', '=', accountId)
    .where('type', '=', 'form_entry')
    .executeTakeFirstOrThrow();
  assetId = entry.asset_id ?? '';
  const asset = await s.db
    .selectFrom('models')
    .select('attributes')
    .where('id', '=', assetId)
    .executeTakeFirstOrThrow();
  assetName = (JSON.parse(asset.attributes) as { name: string }).name;
});
afterAll(() => s.close());

interface Pdf {
  readonly status: number;
  readonly type: string | null;
  readonly bytes: Buffer;
}

async function booklet(
  token: string,
  options: { asset?: string; kinds?: readonly BookletKind[]; lang?: string; query?: string } = {},
): Promise<Pdf> {
  const at =
    options.query === undefined
      ? apiPaths.serviceBookletPdf(options.asset ?? assetId, {
          kinds: options.kinds ?? BOOKLET_KINDS,
          lang: options.lang ?? 'en',
          tz: 'Europe/Berlin',
        })
      : `assets/${options.asset ?? assetId}/servicebooklet.pdf?${options.query}`;
  const res = await fetch(`${s.url}${API_BASE}/${at}`, {
    headers: { Authorization: `Bearer ${token}`, 'X-Requested-With': 'XMLHttpRequest' },
  });
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    bytes: Buffer.from(await res.arrayBuffer()),
  };
}

/** The text of a booklet the caller gets (which must be a PDF). */
async function textOf(token: string, options: Parameters<typeof booklet>[1] = {}) {
  const pdf = await booklet(token, options);
  expect(pdf.status, pdf.bytes.toString()).toBe(200);
  expect(pdf.type).toBe('application/pdf');
  expect(pdf.bytes.subarray(0, 5).toString()).toBe('%PDF-');
  // pdftotext breaks lines where the PDF does: one space for any run of blanks.
  return pdfText(pdf.bytes).replace(/\s+/g, ' ');
}

/** How many images the PDF embeds (`pdfimages -list`, poppler-utils beside pdftotext). */
function imageCount(bytes: Buffer): number {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdf-images-'));
  try {
    const file = path.join(dir, 'in.pdf');
    fs.writeFileSync(file, bytes);
    const list = execFileSync('pdfimages', ['-list', file], { encoding: 'utf8' });
    // Two header lines, then one line per image.
    return list.trim().split('\n').length - 2;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('the service booklet PDF', () => {
  it("holds the asset's filled-in forms with their labels and answers, newest first", async () => {
    const text = await textOf(admin);
    expect(text).toContain(`Service booklet of ${assetName}`);
    expect(text).toContain(`${DEMO_FORM.name} · version 1`);
    expect(text).toContain('Guards and emergency stop work Yes');
    expect(text).toContain('Oil level Low');
    expect(text).toContain('Oil pressure 4.2 bar');
    expect(text).toContain('Time spent in minutes 30 min');
    const older = text.indexOf('Oil was low: refill next time.');
    const newer = text.indexOf('All fine.');
    expect(older).toBeGreaterThan(0);
    expect(newer).toBeGreaterThan(0);
    expect(newer).toBeLessThan(older);

    const german = await textOf(admin, { lang: 'de' });
    expect(german).toContain(`Serviceheft von ${assetName}`);
    expect(german).toContain('Ölstand Niedrig');
    expect(german).toContain('Öldruck 4,2 bar');
    expect(german).toContain('Schutzeinrichtungen und Not-Halt funktionieren Ja');
  });

  it('shows only the kinds asked for: requests and acknowledged alarms with their notes', async () => {
    // An alarm of the machine raised by its gateway's agent, then acknowledged with a note.
    const asset = await s.db
      .selectFrom('models')
      .select('attributes')
      .where('id', '=', assetId)
      .executeTakeFirstOrThrow();
    const gatewayId = (JSON.parse(asset.attributes) as { gateway_id: string }).gateway_id;
    const stream = await s.db
      .selectFrom('models')
      .select('id')
      .where('account_id', '=', accountId)
      .where('type', '=', 'datastream')
      .where('asset_id', '=', assetId)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const alarm = await s.call('POST', apiPaths.collection('alarms'), {
      token: admin,
      json: {
        id: uuidv7(),
        asset_id: assetId,
        datastream_id: stream.id,
        name: 'Belt slipping',
        upper_limit: 1_000_000,
      },
    });
    expect(alarm.status, alarm.text).toBe(201);
    const alarmId = (alarm.json as { data: { id: string } }).data.id;
    const agent = await linkedAgent(s, admin, gatewayId, 'booklet-test');
    try {
      expect(
        (await agent.send([{ stream: stream.id, ts: Date.now(), value: 2_000_000 }])).stored,
      ).toBe(1);
    } finally {
      await agent.close();
    }
    await expect
      .poll(async () => {
        const ack = await s.call('POST', apiPaths.collection('alarm_acks'), {
          token: admin,
          json: { id: uuidv7(), alarm_id: alarmId, asset_id: assetId, note: 'Tightened the belt.' },
        });
        return ack.status;
      })
      .toBe(201);

    const made = await s.call('POST', apiPaths.collection('service_requests'), {
      token: admin,
      json: {
        id: uuidv7(),
        asset_id: assetId,
        title: 'Spindle is noisy',
        description: 'A whine above 3000 rpm.',
      },
    });
    expect(made.status, made.text).toBe(201);
    const both = await textOf(admin);
    expect(both).toContain('Service request: Spindle is noisy');
    // Its state in words, not the stored 'open' (a request in progress read 'in_progress').
    expect(both).toContain('Spindle is noisy State: Open A whine above 3000 rpm.');
    expect(await textOf(admin, { kinds: ['service'], lang: 'de' })).toContain(
      'Spindle is noisy Status: Offen',
    );
    expect(both).toContain('Alarm acknowledged: Belt slipping Tightened the belt.');
    const requests = await textOf(admin, { kinds: ['service'] });
    expect(requests).toContain('Spindle is noisy');
    expect(requests).not.toContain('Oil was low');
    expect(requests).not.toContain('Tightened the belt.');
    const entries = await textOf(admin, { kinds: ['entry'] });
    expect(entries).toContain('Oil was low');
    expect(entries).not.toContain('Spindle is noisy');
  });

  it("embeds an entry's own photo, and no other entry's", async () => {
    const version = await s.db
      .selectFrom('models')
      .select(['id', 'parent_id'])
      .where('account_id', '=', accountId)
      .where('type', '=', 'form_version')
      .executeTakeFirstOrThrow();
    const photoId = uuidv7();
    const entry = (notes: string) =>
      s.call('POST', apiPaths.collection('form_entries'), {
        token: tech,
        json: {
          id: uuidv7(),
          asset_id: assetId,
          form_id: version.parent_id,
          form_version_id: version.id,
          values: { guards_ok: true, oil: 'ok', pressure: 5, notes, photo: [photoId] },
          filled_at: Date.now(),
        },
      });
    const first = await entry('With its photo.');
    expect(first.status, first.text).toBe(201);
    const entryId = (first.json as { data: { id: string } }).data.id;
    const png = await sharp({
      create: { width: 64, height: 48, channels: 3, background: '#d9480f' },
    })
      .png()
      .toBuffer();
    const file = await s.call('POST', apiPaths.collection('files'), {
      token: tech,
      json: {
        id: photoId,
        asset_id: assetId,
        form_entry_id: entryId,
        kind: 'photo',
        name: 'machine.png',
        type: 'image/png',
        size: png.length,
        sha256: createHash('sha256').update(png).digest('hex'),
      },
    });
    expect(file.status, file.text).toBe(201);
    const put = await fetch(`${s.url}${API_BASE}/${apiPaths.fileUpload(photoId, 0)}`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${tech}`, 'Content-Type': 'application/octet-stream' },
      body: png,
    });
    expect(((await put.json()) as { data: UploadState }).data.state).toBe('ready');
    // A later entry naming the same file: the file is the first entry's, not this one's.
    expect((await entry('Naming another entry’s photo.')).status).toBe(201);

    const pdf = await booklet(admin, { kinds: ['entry'] });
    expect(pdf.status).toBe(200);
    expect(imageCount(pdf.bytes)).toBe(1);
    const text = pdfText(pdf.bytes).replace(/\s+/g, ' ');
    expect(text).toContain('With its photo.');
    expect(text).toMatch(
      /Naming another entry’s photo\..*Photo of the machine A photo is not in the PDF\./,
    );
  });

  it('is not found for a machine the technician does not see', async () => {
    const hidden = await demoGateway(s, accountId, 6);
    expect((await booklet(tech, { asset: hidden.assetId })).status).toBe(404);
    expect((await booklet(admin, { asset: hidden.assetId })).status).toBe(200);
    expect((await booklet(admin, { asset: uuidv7() })).status).toBe(404);
    expect(await textOf(tech)).toContain('Oil was low');
  });

  it('leaves out the entries for who may not view them, and fields its role hides', async () => {
    const reader = await roleMember(s, {
      adminToken: admin,
      accountId,
      name: 'Booklets',
      permissions: ['asset::view', 'alarm::view', 'servicerequest::view'],
      domain: 'booklet.test',
      assets: 'all',
    });
    const text = await textOf(reader.token);
    expect(text).toContain(`Service booklet of ${assetName}`);
    expect(text).toContain('Not shown (not permitted): Filled-in forms');
    expect(text).not.toContain(DEMO_FORM.name);
    expect(text).not.toContain('Oil was low');
    // What it may view: the acknowledgement (alarm::view) and the request.
    expect(text).toContain('Tightened the belt.');
    expect(text).toContain('Spindle is noisy');

    const nameless = await roleMember(s, {
      adminToken: admin,
      accountId,
      name: 'Nameless',
      permissions: ['asset::view', 'form::view', 'form_entry::view'],
      domain: 'booklet.test',
      assets: 'all',
    });
    const role = await s.db
      .selectFrom('roles')
      .select('id')
      .where('account_id', '=', accountId)
      .where('name', '=', 'Nameless')
      .executeTakeFirstOrThrow();
    const hide = await s.call('PUT', apiPaths.roleFields(role.id, 'asset'), {
      token: admin,
      json: { fields: ['status'] },
    });
    expect(hide.status, hide.text).toBe(200);
    const without = await textOf(nameless.token);
    expect(without).toContain('Service booklet of –');
    expect(without).not.toContain(assetName);
    expect(without).toContain('Oil was low');
  });

  it('refuses a bad query with 422', async () => {
    for (const query of [
      'kinds=entry,bills',
      'lang=xx',
      'tz=Mars/Olympus',
      `kinds=${'x'.repeat(200)}`,
    ])
      expect((await booklet(admin, { query })).status, query).toBe(422);
    expect((await booklet(admin, { asset: 'not an id!' })).status).toBe(422);
  });
});
