import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, JOB_TEXTS, uuidv7 } from '@plant/shared-schema';
import { DEMO_USERS } from '../seed/demo';
import { DEMO_JOBS, DEMO_THEMES } from '../seed/demo-themes';
import { dataOf, startTestServer, type Answer, type TestServer } from '../testing/harness';

/*
 * The public pages (issue 36 item 3): plain HTML from the server without any script, in the
 * visitor's language, themed, with titles, descriptions and a sitemap; jobs written by the top
 * account only, with an address (slug) of their own, published or not.
 */
let s: TestServer;
let admin = '';
let ids: { root: string; north: string; south: string };

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.signIn(DEMO_USERS.admin);
  ids = await s.demoAccountIds();
});
afterAll(() => s.close());

const page = (path: string, language = 'en') =>
  s.call('GET', path, { headers: { 'Accept-Language': language } });
const errorsOf = (answer: Answer) =>
  (JSON.parse(answer.text) as { errors?: Record<string, string[]> }).errors ?? {};
const post = (json: object) =>
  s.call('POST', apiPaths.collection('jobs'), { token: admin, json: { id: uuidv7(), ...json } });

describe('public pages', () => {
  it('render without any script, themed, with a title, a description and language links', async () => {
    for (const path of ['/', '/about', '/jobs', `/jobs/${DEMO_JOBS[0].slug}`]) {
      const res = await page(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toContain('text/html');
      expect(res.text, path).not.toMatch(/<script/i);
      const policy = res.headers.get('content-security-policy') ?? '';
      expect(policy, path).toContain("default-src 'none'");
      expect(policy, path).not.toContain('script-src');
      expect(res.text, path).toMatch(/<title>[^<]+<\/title>/);
      expect(res.text, path).toMatch(/<meta name="description" content="[^"]+">/);
      expect(res.text, path).toContain('hreflang="de"');
      // The machine builder's theme: its band of Color2.
      expect(res.text, path).toContain(`background: ${DEMO_THEMES.root.color2}`);
    }
  });

  it('speak the visitor’s language, or the one chosen by the switch', async () => {
    const german = await page('/jobs', 'de-DE,de;q=0.9,en;q=0.5');
    expect(german.headers.get('content-language')).toBe('de');
    expect(german.text).toContain('<html lang="de">');
    expect(german.text).toContain('Stellenangebote bei');
    const chosen = await page('/jobs?lang=pt', 'de');
    expect(chosen.text).toContain('<html lang="pt">');
    const english = await page('/jobs', 'fr');
    expect(english.text).toContain('Jobs at');
  });

  it('list the jobs the top account published, each on its own page; a draft stays off', async () => {
    const draft = await post({
      title: 'Secret draft',
      slug: 'secret-draft',
      location: 'Nowhere',
      published: false,
    });
    expect(draft.status).toBe(201);
    const list = await page('/jobs');
    for (const job of DEMO_JOBS) {
      expect(list.text).toContain(`href="/jobs/${job.slug}"`);
      expect(list.text).toContain(job.title);
    }
    expect(list.text).not.toContain('Secret draft');
    expect((await page('/jobs/secret-draft')).status).toBe(404);
    const one = await page(`/jobs/${DEMO_JOBS[1].slug}`);
    expect(one.text).toContain(DEMO_JOBS[1].location);
    expect(one.text).toContain('Part time');
    expect(one.text).toContain('Fixed term');
    expect(one.text).toContain(`href="${DEMO_JOBS[1].apply_url}"`);
    const sitemap = await page('/sitemap.xml');
    expect(sitemap.headers.get('content-type')).toContain('application/xml');
    expect(sitemap.text).toContain(`/jobs/${DEMO_JOBS[0].slug}</loc>`);
    expect(sitemap.text).not.toContain('secret-draft');
    expect((await page('/robots.txt')).text).toContain('Sitemap: ');
  });

  it('escape what a job says', async () => {
    const made = await post({
      title: '<img src=x onerror=alert(1)>',
      slug: 'escaped',
      location: '"Quoted" & <b>bold</b>',
      text: '<script>alert(1)</script>',
      published: true,
    });
    expect(made.status).toBe(201);
    const res = await page('/jobs/escaped');
    expect(res.text).not.toContain('<img src=x');
    expect(res.text).not.toMatch(/<script/i);
    expect(res.text).toContain('&lt;script&gt;');
  });

  it('take jobs from the top account only, each with an address of its own and a valid link', async () => {
    const taken = await post({ title: 'Again', slug: DEMO_JOBS[0].slug, location: 'Here' });
    expect(errorsOf(taken).slug).toEqual([JOB_TEXTS.slugTaken]);
    const link = await post({
      title: 'Link',
      slug: 'link',
      location: 'Here',
      apply_url: 'javascript:alert(1)',
    });
    expect(errorsOf(link).apply_url).toEqual([JOB_TEXTS.link]);
    const noPlace = await post({ title: 'No place', slug: 'no-place', location: ' ' });
    expect(errorsOf(noPlace).location).toEqual(['Please provide an address']);
    // From Customer North, a subaccount: refused.
    const me = dataOf<{ id: string }>(await s.call('GET', apiPaths.user(), { token: admin }));
    await s.call('POST', apiPaths.setActiveAccount(me.id, ids.north), { token: admin });
    const below = await post({ title: 'Below', slug: 'below', location: 'North' });
    expect(below.status).toBe(403);
    expect(below.text).toContain(JOB_TEXTS.topAccount);
    await s.call('POST', apiPaths.setActiveAccount(me.id, ids.root), { token: admin });
  });
});
