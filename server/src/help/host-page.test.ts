import { createHash } from 'node:crypto';
import http from 'node:http';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API_BASE,
  apiPaths,
  HELP_HOST_TEXTS,
  LANGUAGES,
  uuidv7,
  type SyncedModel,
} from '@plant/shared-schema';
import { DEMO_USERS } from '../seed/demo';
import { DEMO_TAG_TABLE_ARTICLE } from '../seed/demo-help';
import { dataOf, startTestServer, type TestServer } from '../testing/harness';
import { HELP_CATALOGUE_DIR, loadHelpCatalogue } from './host-catalogue';

/*
 * The help centre's own host (issue 33 item 6): a request whose Host is HELPCENTER_HOST gets the
 * root screen (published articles, search, language switch; an article and its pictures on the
 * same root) or the error screen, server-rendered, without a script, the app or the API.
 */
const HELP_HOST = 'help.plant.test';
let s: TestServer;
let admin = '';

beforeAll(async () => {
  s = await startTestServer({ env: { HELPCENTER_HOST: HELP_HOST } });
  admin = await s.signIn(DEMO_USERS.admin);
});
afterAll(() => s.close());

interface Got {
  readonly status: number;
  readonly type: string;
  readonly csp: string;
  readonly body: Buffer;
  readonly text: string;
}

/** A request as a browser on the help centre's host sends it (fetch cannot set Host). */
function onHost(
  path: string,
  options: { method?: string; lang?: string; host?: string } = {},
): Promise<Got> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${s.url}${path}`,
      {
        method: options.method ?? 'GET',
        headers: {
          Host: options.host ?? `${HELP_HOST}:443`,
          ...(options.lang === undefined ? {} : { 'Accept-Language': options.lang }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          resolve({
            status: res.statusCode ?? 0,
            type: String(res.headers['content-type'] ?? ''),
            csp: String(res.headers['content-security-policy'] ?? ''),
            body,
            text: body.toString('utf8'),
          });
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const create = async (collection: string, json: unknown) => {
  const made = await s.call('POST', apiPaths.collection(collection), { token: admin, json });
  expect(made.status, made.text).toBe(201);
  return dataOf<SyncedModel>(made);
};

/**
 * A published article with one English text of these blocks (made once the article is, with
 * its id: its pictures); answers its id and number.
 */
async function publishedArticle(title: string, blocksOf: (id: string) => Promise<unknown[]>) {
  const article = await create('articles', { languages: ['en'] });
  const blocks = await blocksOf(article.id);
  await create('article_texts', {
    article_id: article.id,
    lang: 'en',
    title,
    content: { time: 1, version: '2.27.0', blocks },
  });
  const published = await s.call('PUT', apiPaths.model('articles', article.id), {
    token: admin,
    json: { state: 'published' },
  });
  expect(published.status, published.text).toBe(200);
  return { id: article.id, number: article.attributes.number as number };
}

/** A picture of an article, uploaded; answers the file's id. */
async function picture(articleId: string): Promise<string> {
  const png = await sharp({
    create: { width: 6, height: 4, channels: 3, background: { r: 0, g: 120, b: 60 } },
  })
    .png()
    .toBuffer();
  const file = await create('files', {
    id: uuidv7(),
    article_id: articleId,
    kind: 'photo',
    name: 'p.png',
    type: 'image/png',
    size: png.length,
    sha256: createHash('sha256').update(png).digest('hex'),
  });
  const put = await fetch(`${s.url}${API_BASE}/${apiPaths.fileUpload(file.id, 0)}`, {
    method: 'PUT',
    headers: { Authorization: `Bearer ${admin}`, 'Content-Type': 'application/octet-stream' },
    body: new Uint8Array(png),
  });
  expect(put.status).toBe(200);
  return file.id;
}

const isErrorScreen = (got: Got) =>
  got.status === 404 &&
  got.type.startsWith('text/html') &&
  got.text.includes('data-screen="error"') &&
  !got.text.includes('<script');

describe('the help centre’s own host', () => {
  it('serves the root screen: published articles in the reader’s language, the switch and the search, no script', async () => {
    const root = await onHost('/', { lang: 'de-DE,de;q=0.9,en;q=0.5' });
    expect(root.status).toBe(200);
    expect(root.type).toMatch(/^text\/html/);
    expect(root.text).toContain('<html lang="de">');
    expect(root.text).toContain('Variablentabelle aus dem TIA Portal exportieren');
    expect(root.text).toContain('Anlieferung von der Straßenseite');
    // The help centre's words in German, from its catalogue.
    const de = loadHelpCatalogue();
    expect(root.text).toContain(de('de', HELP_HOST_TEXTS.title));
    expect(de('de', HELP_HOST_TEXTS.title)).not.toBe(HELP_HOST_TEXTS.title);
    // Each language a link away; no app, no script, nothing from elsewhere.
    for (const lang of LANGUAGES) expect(root.text).toContain(`href="/?lang=${lang}"`);
    expect(root.text).not.toMatch(/<script|\/assets\/|manifest|serviceWorker/i);
    expect(root.csp).toContain("default-src 'none'");
    expect(root.csp).not.toContain('script-src');
    // Small: a page, not an app.
    expect(root.body.length).toBeLessThan(20_000);

    // An article on the same root, by its number.
    const article = await onHost(`/?article=${DEMO_TAG_TABLE_ARTICLE}&lang=de`);
    expect(article.status).toBe(200);
    expect(article.text).toMatch(
      new RegExp(
        `data-number="${DEMO_TAG_TABLE_ARTICLE}" lang="de">\\s*<h1>Variablentabelle aus dem TIA Portal exportieren</h1>`,
      ),
    );
    expect(article.text).toMatch(/<ol>(<li>.*?<\/li>){4}<\/ol>/s);
    // Portuguese is not written: the German text, and the reader is told so.
    const pt = await onHost(`/?article=${DEMO_TAG_TABLE_ARTICLE}&lang=pt`);
    expect(pt.text).toContain('data-fallback');
    expect(pt.text).toContain('<html lang="pt">');
    expect(pt.text).toContain('Deutsch');

    // The search: the database's index, ß found by ss, the match marked.
    const hits = await onHost('/?q=Strasse&lang=de');
    expect(hits.status).toBe(200);
    expect(hits.text).toContain('<mark>Straße</mark>');
    const short = await onHost('/?q=ab&lang=de');
    expect(short.text).toContain(de('de', HELP_HOST_TEXTS.tooShort));
    expect(de('de', HELP_HOST_TEXTS.tooShort)).not.toBe(HELP_HOST_TEXTS.tooShort);
    // A query is shown as text, never as markup.
    const hostile = await onHost(`/?q=${encodeURIComponent('"><script>alert(1)</script>')}`);
    expect(hostile.text).not.toContain('<script');
  });

  it('serves its error screen for everything else: the app, the API, the worker, drafts, other methods', async () => {
    const draft = await create('articles', { languages: ['en'] });
    for (const path of [
      '/app',
      '/app/helpcenter/default/en',
      `${API_BASE}/user`,
      `${API_BASE}/articles/search?q=pump&lang=en`,
      '/sw.js',
      '/index.html',
      '/manifest.webmanifest',
      '/staticconf',
      '/mqtt',
      '/?article=99999',
      `/?article=${draft.attributes.number as number}`,
      '/?article=1e3',
      `/?picture=${uuidv7()}`,
    ]) {
      const got = await onHost(path);
      expect(isErrorScreen(got), `${path}: ${got.status} ${got.text.slice(0, 80)}`).toBe(true);
    }
    expect(isErrorScreen(await onHost('/', { method: 'POST' }))).toBe(true);
    expect(isErrorScreen(await onHost('/', { method: 'DELETE' }))).toBe(true);
    // Another host of the same server is the product as before.
    const app = await onHost('/staticconf', { host: '127.0.0.1' });
    expect(app.status).toBe(200);
    expect(app.type).toMatch(/json/);
  });

  it('shows stored hostile content as text, and pictures of published articles only', async () => {
    const { number } = await publishedArticle('Hostile', () =>
      Promise.resolve([
        {
          type: 'paragraph',
          data: {
            text: 'Hi <script>alert(1)</script><img src=x onerror=alert(2)><a href="javascript:alert(3)">js</a> <a href="data:text/html,x">data</a> <a href="https://example.com/a?b=1&c=2">ok</a> <b onclick="x()">bold</b>',
          },
        },
        { type: 'raw', data: { html: '<iframe srcdoc="<script>alert(4)</script>">' } },
        {
          type: 'image',
          data: { file: { url: 'javascript:alert(5)' }, caption: '<svg onload=alert(6)>' },
        },
        {
          type: 'list',
          data: {
            style: 'unordered',
            items: [{ content: '<a href="help/136">see 136</a>', items: [] }],
          },
        },
      ]),
    );
    const page = await onHost(`/?article=${number}&lang=en`);
    expect(page.status).toBe(200);
    expect(page.text).not.toMatch(
      /<script|onerror|onload|onclick|javascript:|data:text|<iframe|<svg/i,
    );
    expect(page.text).toContain(
      '<a href="https://example.com/a?b=1&amp;c=2" rel="noopener noreferrer nofollow">ok</a>',
    );
    expect(page.text).toContain('<b>bold</b>');
    expect(page.text).toContain(`<a href="/?article=136&amp;lang=en">see 136</a>`);
    expect(page.text).toContain(HELP_HOST_TEXTS.unknownBlock);

    // An article's picture, then the article back to draft: the picture is gone from the host.
    let other = '';
    const withPicture = await publishedArticle('Pictured', async (articleId) => {
      other = await picture(articleId);
      return [{ type: 'image', data: { file: { file_id: other }, caption: 'Front' } }];
    });
    expect(withPicture.number).toBeGreaterThan(number);
    const pictured = await onHost(`/?article=${withPicture.number}&lang=en`);
    expect(pictured.text).toContain(`<img src="/?picture=${other}" alt="Front" loading="lazy">`);
    expect(pictured.text).toContain('<figcaption>Front</figcaption>');
    const got = await onHost(`/?picture=${other}`);
    expect(got.status).toBe(200);
    expect(got.type).toBe('image/png');
    expect((await sharp(got.body).metadata()).width).toBe(6);
    const back = await s.call('PUT', apiPaths.model('articles', withPicture.id), {
      token: admin,
      json: { state: 'draft' },
    });
    expect(back.status).toBe(200);
    expect(isErrorScreen(await onHost(`/?picture=${other}`))).toBe(true);
    // An asset's photo is no article's picture.
    const assetPhoto = (await s.snapshot(admin)).find(
      (m) => m.type === 'file' && m.attributes.asset_id !== null,
    );
    if (assetPhoto !== undefined)
      expect(isErrorScreen(await onHost(`/?picture=${assetPhoto.id}`))).toBe(true);
  });

  it('has every word of the page in the help centre’s catalogues', () => {
    const translate = loadHelpCatalogue(HELP_CATALOGUE_DIR);
    for (const lang of ['de', 'pt', 'ru'] as const)
      for (const text of Object.values(HELP_HOST_TEXTS))
        expect(translate(lang, text, 'A', 'B'), `${lang}: ${text}`).not.toBe(
          text.replace('{0}', 'A').replace('{1}', 'B'),
        );
  });
});
