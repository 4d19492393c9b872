import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API_BASE,
  apiPaths,
  uuidv7,
  type ArticleSearchHit,
  type SyncedModel,
} from '@plant/shared-schema';
import { DEMO_USERS } from '../seed/demo';
import { roleId } from '../testing/access';
import { DEMO_TAG_TABLE_ARTICLE } from '../seed/demo-help';
import { seedWrites } from '../seed/seed-writes';
import { systemClock } from '../lib/clock';
import { dataOf, startTestServer, type TestServer } from '../testing/harness';

/*
 * The help centre on the server (issue 33): articles as three models (the reader's article, the
 * published texts, the authors' drafts), the numbers, the sanitiser at write time and the
 * database's full-text search, against the demo's articles.
 */
let s: TestServer;
let admin = '';
let tech = '';

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.signIn(DEMO_USERS.admin);
  tech = await s.signIn(DEMO_USERS.tech);
});
afterAll(() => s.close());

const search = (token: string, q: string, lang = 'en') =>
  s.call('GET', apiPaths.articleSearch(q, lang), { token });
const found = async (token: string, q: string, lang = 'en') => {
  const answer = await search(token, q, lang);
  expect(answer.status).toBe(200);
  return dataOf<ArticleSearchHit[]>(answer);
};
const create = (collection: string, json: unknown, token = admin) =>
  s.call('POST', apiPaths.collection(collection), { token, json });

describe('help centre articles', () => {
  it('finds the demo articles by their words, ß as ss and umlauts as their plain spellings', async () => {
    const street = await found(tech, 'Strasse', 'de');
    expect(street.map((h) => h.title)).toEqual(['Anlieferung von der Straßenseite']);
    expect(street[0]?.snippet).toContain('Straßenseite');
    expect((await found(tech, 'Straße', 'de')).map((h) => h.number)).toEqual([103]);
    expect((await found(tech, 'Oelwechsel', 'de')).map((h) => h.number)).toEqual([102]);

    // Article 136 in the reader's language: the German text for a German reader.
    const de = await found(tech, 'variablentabelle export', 'de');
    expect(de).toEqual([
      expect.objectContaining({
        number: DEMO_TAG_TABLE_ARTICLE,
        lang: 'de',
        title: 'Variablentabelle aus dem TIA Portal exportieren',
      }),
    ]);
    const en = await found(tech, 'tag table', 'en');
    expect(en.map((h) => [h.number, h.lang])).toEqual([[DEMO_TAG_TABLE_ARTICLE, 'en']]);
    // A word found in both languages answers once, in the reader's.
    const both = await found(tech, 'TIA Portal', 'de');
    expect(both.map((h) => [h.number, h.lang])).toEqual([[DEMO_TAG_TABLE_ARTICLE, 'de']]);
  });

  it('numbers new articles, publishes only with a text, one text per language', async () => {
    const made = await create('articles', { number: 5, tags: ['Pump'], languages: ['en'] });
    expect(made.status).toBe(201);
    const article = dataOf<SyncedModel>(made);
    // The client's number is ignored: the next free one is the server's.
    expect(article.attributes.number).toBe(DEMO_TAG_TABLE_ARTICLE + 1);
    expect(article.attributes.state).toBe('draft');
    const publish = () =>
      s.call('PUT', apiPaths.model('articles', article.id), {
        token: admin,
        json: { state: 'published' },
      });
    const early = await publish();
    expect(early.status).toBe(422);
    expect(JSON.stringify(early.json)).toContain('Please fill in at least one translation');

    const noTitle = await create('article_texts', {
      article_id: article.id,
      lang: 'en',
      title: '',
    });
    expect(JSON.stringify(noTitle.json)).toContain('Title is required');
    const text = await create('article_texts', {
      article_id: article.id,
      lang: 'en',
      title: 'Pump seal',
      content: {
        time: 1,
        version: '2.27.0',
        blocks: [{ type: 'paragraph', data: { text: 'Replace the pump seal yearly.' } }],
      },
    });
    expect(text.status).toBe(201);
    expect(dataOf<SyncedModel>(text).attributes.changed_by).not.toBeNull();
    const twice = await create('article_texts', {
      article_id: article.id,
      lang: 'en',
      title: 'Again',
    });
    expect(twice.status).toBe(422);
    expect((await publish()).status).toBe(200);
    expect((await found(tech, 'pump seal')).map((h) => h.number)).toEqual([
      DEMO_TAG_TABLE_ARTICLE + 1,
    ]);

    // Unpublished (its text deleted, the article a draft again): no longer found.
    expect(
      (
        await s.call('DELETE', apiPaths.model('article_texts', dataOf<SyncedModel>(text).id), {
          token: admin,
        })
      ).status,
    ).toBe(200);
    expect(await found(tech, 'pump seal')).toEqual([]);

    // Numbers only go up: a deleted article's number is not given again (old links stay dead).
    const gone = await s.call('DELETE', apiPaths.model('articles', article.id), { token: admin });
    expect(gone.status).toBe(200);
    const next = dataOf<SyncedModel>(await create('articles', { languages: ['en'] }));
    expect(next.attributes.number).toBe(DEMO_TAG_TABLE_ARTICLE + 2);
  });

  it('readers get articles and published texts, never drafts, and may not write', async () => {
    const readers = await s.snapshot(tech);
    const types = (models: readonly SyncedModel[]) => new Set(models.map((m) => m.type));
    expect(types(readers).has('article')).toBe(true);
    expect(types(readers).has('article_text')).toBe(true);
    expect(types(readers).has('article_draft')).toBe(false);
    expect(types(await s.snapshot(admin)).has('article_draft')).toBe(true);
    const refused = await create('articles', { languages: ['en'] }, tech);
    expect(refused.status).toBe(403);
  });

  it('stores hostile content sanitised: no script, no handler, no javascript: or data: link', async () => {
    const article = dataOf<SyncedModel>(await create('articles', { languages: ['en'] }));
    const hostile = await create('article_drafts', {
      article_id: article.id,
      lang: 'en',
      title: 'Hostile <script>alert(1)</script>',
      content: {
        time: 1,
        version: '2.27.0',
        blocks: [
          {
            type: 'paragraph',
            data: {
              text: '<script>alert(1)</script><img src=x onerror=alert(2)>Hi <a href="javascript:alert(3)">there</a> <a href="data:text/html,x">data</a>',
            },
          },
          {
            type: 'image',
            data: { file: { url: 'javascript:alert(4)' }, caption: '<svg onload=alert(5)>' },
          },
          { type: 'raw', data: { html: '<iframe src="javascript:alert(6)">' } },
          {
            type: 'list',
            data: { style: 'unordered', items: ['<a href=" jAvAsCrIpT:alert(7)">x</a>'] },
          },
        ],
      },
    });
    expect(hostile.status).toBe(201);
    const stored = (await s.snapshot(admin)).find((m) => m.id === dataOf<SyncedModel>(hostile).id);
    const json = JSON.stringify(stored?.attributes.content);
    expect(json).not.toMatch(/javascript:|data:text|<script|onerror|onload|<img|<svg|<iframe/i);
    expect(json).toContain('Hi there data');
  });
  it('an alarm links an article the account has (the demo oil pressure alarm: 136)', async () => {
    const alarms = (await s.snapshot(admin)).filter((m) => m.type === 'alarm');
    const oil = alarms.find((a) => a.attributes.name === 'Oil pressure low');
    expect(oil?.attributes.help_article).toBe(DEMO_TAG_TABLE_ARTICLE);
    const refused = await s.call('PUT', apiPaths.model('alarms', oil?.id ?? ''), {
      token: admin,
      json: { help_article: 99_999 },
    });
    expect(refused.status).toBe(422);
    expect(JSON.stringify(refused.json)).toContain('No help article has this number.');

    // A stream links one the same way (its page shows the link).
    const stream = (await s.snapshot(admin)).find((m) => m.type === 'datastream');
    const link = (help_article: number) =>
      s.call('PUT', apiPaths.model('datastreams', stream?.id ?? ''), {
        token: admin,
        json: { help_article },
      });
    const linked = await link(DEMO_TAG_TABLE_ARTICLE);
    expect(linked.status, linked.text).toBe(200);
    expect(dataOf<SyncedModel>(linked).attributes.help_article).toBe(DEMO_TAG_TABLE_ARTICLE);
    expect(JSON.stringify((await link(99_999)).json)).toContain('No help article has this number.');
  });

  it('a 3D hotspot links an article the account has (item 5)', async () => {
    // A scene with a hotspot, placed as the demo's seed places its own (no model to process).
    const { root } = await s.demoAccountIds();
    const asset = (await s.snapshot(tech)).find((m) => m.type === 'asset')?.id;
    const { create: serverCreate } = seedWrites(s.db, systemClock, root, 'hotspot test');
    const file = await serverCreate('files', {
      asset_id: asset,
      kind: 'model',
      name: 'press.glb',
      type: 'model/gltf-binary',
      size: 4,
      sha256: '0'.repeat(64),
      state: 'ready',
    });
    const model = await serverCreate('threedmodels', {
      asset_id: asset,
      name: 'Press',
      sources: [{ file_id: file, path: 'press.glb' }],
    });
    const scene = await serverCreate('scenes', {
      asset_id: asset,
      name: 'Press scene',
      models: [{ threedmodel_id: model }],
    });
    const hotspot = await serverCreate('hotspots', {
      scene_id: scene,
      name: 'Valve',
      threedmodel_id: model,
      point: [0, 0.5, 0],
      normal: [0, 1, 0],
    });
    const link = (help_article: number | null) =>
      s.call('PUT', apiPaths.model('hotspots', hotspot), { token: admin, json: { help_article } });
    const linked = await link(DEMO_TAG_TABLE_ARTICLE);
    expect(linked.status, linked.text).toBe(200);
    // Who syncs the scene gets the link with the hotspot (its panel shows it as help/136).
    const read = (await s.snapshot(admin)).find((m) => m.id === hotspot);
    expect(read?.attributes.help_article).toBe(DEMO_TAG_TABLE_ARTICLE);
    const unknown = await link(99_999);
    expect(unknown.status).toBe(422);
    expect(JSON.stringify(unknown.json)).toContain('No help article has this number.');
    expect((await link(null)).status).toBe(200);
  });

  it('100,000 nested list items: refused when written; stored behind its back, every sync still answers', async () => {
    const article = dataOf<SyncedModel>(await create('articles', { languages: ['en'] }));
    const content = {
      time: 1,
      version: '2.27.0',
      blocks: [{ id: 'p', type: 'paragraph', data: { text: 'Above the list.' } }],
    };
    const deep = { article_id: article.id, lang: 'en', title: 'Deep list', content };
    let json = '';
    for (let d = 0; d < 100_000; d++) json += '{"content":"","items":[';
    for (let d = 0; d < 100_000; d++) json += ']}';
    const deepBlocks = `"blocks":[{"id":"p","type":"paragraph","data":{"text":"Above the list."}},{"id":"l","type":"list","data":{"style":"unordered","items":[${json}]}}]`;
    const deepText = JSON.stringify({ ...deep, content: { ...content, blocks: [] } }).replace(
      '"blocks":[]',
      deepBlocks,
    );
    // Through the API: refused with a reason, nothing stored.
    const refused = await s.call('POST', apiPaths.collection('article_texts'), {
      token: admin,
      body: deepText,
      headers: { 'Content-Type': 'application/json' },
    });
    expect([413, 422]).toContain(refused.status);
    expect(refused.text).toMatch(/too large|nested/i);
    expect(
      (await s.snapshot(admin)).filter(
        (m) => m.type === 'article_text' && m.attributes.article_id === article.id,
      ),
    ).toEqual([]);
    // A shallow text, then its content made 100,000 deep in the database (a hostile import).
    const text = dataOf<SyncedModel>(
      await create('article_texts', {
        ...deep,
        content,
      }),
    );
    await s.db
      .updateTable('models')
      .set({ attributes: deepText })
      .where('id', '=', text.id)
      .execute();
    // The readers' and the authors' syncs still answer (one deep text must not stop an account).
    for (const token of [tech, admin]) {
      const stored = (await s.snapshot(token)).find((m) => m.id === text.id);
      expect(stored?.attributes.title).toBe('Deep list');
      // The readable blocks stay; the list too deep is an unknown block (the reader's quiet note).
      expect((stored?.attributes.content as { blocks: unknown[] }).blocks).toEqual([
        { id: 'p', type: 'paragraph', data: { text: 'Above the list.' } },
        { type: 'unknown', data: { type: 'list' } },
      ]);
    }
    // Put back as written: SQLite's JSON functions refuse a row that deep (json_extract over the
    // type's rows fails while it is stored), which would fail the next tests' article writes.
    await s.db
      .updateTable('models')
      .set({ attributes: JSON.stringify({ ...deep, changed_by: null, changed_at: null }) })
      .where('id', '=', text.id)
      .execute();
  });

  it('an article’s pictures are files of the article: its authors add them, its readers read them', async () => {
    const article = dataOf<SyncedModel>(await create('articles', { languages: ['en'] })).id;
    const png = new Uint8Array(
      await sharp({
        create: { width: 8, height: 8, channels: 3, background: { r: 200, g: 40, b: 40 } },
      })
        .png()
        .toBuffer(),
    );
    const picture = (token: string, json: Record<string, unknown> = {}) =>
      create(
        'files',
        {
          id: uuidv7(),
          article_id: article,
          kind: 'photo',
          name: 'seal.png',
          type: 'image/png',
          size: png.length,
          sha256: createHash('sha256').update(png).digest('hex'),
          ...json,
        },
        token,
      );
    const upload = (id: string, token: string) =>
      fetch(`${s.url}${API_BASE}/${apiPaths.fileUpload(id, 0)}`, {
        method: 'PUT',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/octet-stream' },
        body: png,
      });
    const made = await picture(admin);
    expect(made.status, made.text).toBe(201);
    const fileId = dataOf<SyncedModel>(made).id;
    expect((await upload(fileId, admin)).status).toBe(200);

    // The technician edits its machines' files, not the help centre: refused.
    expect((await picture(tech)).status).toBe(403);
    // An SVG (it may carry script) is no picture of an article.
    const svg = await picture(admin, { name: 'x.svg', type: 'image/svg+xml' });
    expect(svg.status).toBe(422);
    // Neither an asset's and an article's at once.
    const asset = (await s.snapshot(admin)).find((m) => m.type === 'asset')?.id;
    expect((await picture(admin, { asset_id: asset })).status).toBe(422);

    // A reader gets the picture's model and its bytes.
    expect((await s.snapshot(tech)).some((m) => m.id === fileId)).toBe(true);
    const read = await fetch(`${s.url}${API_BASE}/${apiPaths.fileContent(fileId)}`, {
      headers: { Authorization: `Bearer ${tech}` },
    });
    expect(read.status).toBe(200);
    expect(new Uint8Array(await read.arrayBuffer())).toEqual(png);

    // An author of the help centre who may not change machines' files adds pictures all the same.
    const roles = (await s.snapshot(admin)).filter((m) => m.type === 'role');
    const technician = roles.find((r) => r.attributes.slug === 'technician');
    const held = (technician?.attributes.permissions ?? []) as string[];
    const changed = await s.call('PUT', apiPaths.model('roles', technician?.id ?? ''), {
      token: admin,
      json: {
        permissions: [...held.filter((p) => p !== 'asset::edit'), 'helpcenter::edit'],
      },
    });
    expect(changed.status, changed.text).toBe(200);
    await expect.poll(async () => (await picture(tech)).status).toBe(201);
    const authored = dataOf<SyncedModel>(await picture(tech)).id;
    expect((await upload(authored, tech)).status).toBe(200);
    // …and no file of a machine.
    const machineFile = await picture(tech, {
      article_id: null,
      asset_id: asset,
      kind: 'document',
      name: 'a.png',
    });
    expect(machineFile.status).toBe(403);

    // The article goes: its pictures with it.
    const gone = await s.call('DELETE', apiPaths.model('articles', article), { token: admin });
    expect(gone.status, gone.text).toBe(200);
    const left = (await s.snapshot(admin)).filter(
      (m) => m.type === 'file' && m.attributes.article_id === article,
    );
    expect(left).toEqual([]);
  });

  it('needs 3 characters and helpcenter::view (last: it takes the technician’s)', async () => {
    const short = await search(tech, 'ab');
    expect(short.status).toBe(422);
    expect(JSON.stringify(short.json)).toContain('Search needs at least 3 characters');
    // Without helpcenter::view (taken from the technician's role): refused.
    const technician = await roleId(s.db, (await s.demoAccountIds()).root, 'technician');
    await s.db
      .deleteFrom('permissions')
      .where('role_id', '=', technician)
      .where('name', '=', 'helpcenter::view')
      .execute();
    await expect.poll(async () => (await search(tech, 'Strasse')).status).toBe(403);
  });
});
