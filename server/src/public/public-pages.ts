import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Hono, type Context } from 'hono';
import {
  jobAttributesSchema,
  jobModel,
  LANGUAGE_ENDONYMS,
  LANGUAGES,
  PUBLIC_TEXTS,
  type AccountDesign,
  type JobAttributes,
  type Language,
} from '@plant/shared-schema';
import type { Db } from '../db/database';
import type { Translate } from '../help/host-catalogue';
import { escapeHtml } from '../help/host-render';
import type { AppEnv } from '../http/context';
import { readerLang } from '../http/reader-language';
import { AccountRepository } from '../repositories/account.repository';
import { ModelRepository } from '../repositories/model.repository';
import type { AccountService } from '../services/account.service';

/*
 * The public pages (issue 36 item 3, spec 001 §1: landing, about, jobs with location, scope, full
 * time, permanent): plain HTML from the server, without the app's JavaScript, in the visitor's
 * language (Accept-Language, or the switch's ?lang=), in the theme of the host's account (else
 * the machine builder's), with titles, descriptions, canonical and language links for search
 * engines, a sitemap and robots.txt. Their content: the top account's name and its published
 * jobs. Nothing runs on them: one style sheet, allowed by its hash.
 */

/** Where `lingui extract` writes the themes' catalogues, which hold the public pages' words. */
export const THEMES_CATALOGUE_DIR = fileURLToPath(
  new URL('../../../client/src/features/themes/locales', import.meta.url),
);

export interface PublicPagesDeps {
  readonly db: Db;
  readonly accounts: AccountService;
  readonly translate: Translate;
}

/** A published job as the pages show it. */
interface Job extends JobAttributes {
  readonly id: string;
}

/** The paths the public pages answer (the service worker leaves them to the network). */
export const PUBLIC_PATHS = ['/', '/about', '/jobs', '/sitemap.xml', '/robots.txt'] as const;

const DEFAULT_COLOR1 = '#1c7ed6';
const DEFAULT_COLOR2 = '#343a40';

function style(design: AccountDesign): string {
  const color1 = design.color1 ?? DEFAULT_COLOR1;
  const color2 = design.color2 ?? DEFAULT_COLOR2;
  return `
:root { font-family: system-ui, sans-serif; line-height: 1.5; color: #1a1b1e; background: #fff; }
body { margin: 0; }
header { background: ${color2}; color: #fff; }
header .bar, main, footer { max-width: 56rem; margin: 0 auto; padding: 1rem; }
header .bar { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; justify-content: space-between; }
header a { color: #fff; }
header .brand { font-size: 1.3rem; font-weight: 700; text-decoration: none; display: inline-flex; align-items: center; }
header .brand img { max-height: 40px; max-width: 220px; }
nav ul { list-style: none; display: flex; flex-wrap: wrap; gap: 1rem; margin: 0; padding: 0; }
nav [aria-current] { font-weight: 700; text-decoration: underline; }
a { color: ${color1}; }
.button { display: inline-block; background: ${color1}; color: #fff; padding: .5rem 1rem; border-radius: 4px; text-decoration: none; font-weight: 600; }
.jobs { list-style: none; padding: 0; }
.jobs li { border-bottom: 1px solid #ddd; padding: .75rem 0; }
.facts { color: #555; margin: .25rem 0; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; }
dt { font-weight: 600; }
footer { color: #555; border-top: 1px solid #ddd; }
footer ul { list-style: none; display: flex; flex-wrap: wrap; gap: .75rem; padding: 0; }
footer [aria-current] { font-weight: 700; }
`;
}

/** The page's Content-Security-Policy: nothing runs; its style allowed by its hash. */
function policy(css: string): string {
  return [
    "default-src 'none'",
    `style-src 'sha256-${createHash('sha256').update(css).digest('base64')}'`,
    "img-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** A path with the language the visitor chose (none: the browser's). */
function href(path: string, lang: Language | null): string {
  return lang === null ? path : `${path}?lang=${lang}`;
}

/** A job's text as paragraphs: blank lines part them, line breaks stay. */
function paragraphs(text: string): string {
  return text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
    .join('\n');
}

export function publicPagesApp(deps: PublicPagesDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const accounts = new AccountRepository(deps.db);
  const models = new ModelRepository(deps.db);

  /** The top account (its name, its jobs): the installation's first top-level account. */
  const topAccount = async () => {
    const id = await accounts.helpCentreAccount(undefined);
    if (id === undefined) return undefined;
    return deps.db
      .selectFrom('accounts')
      .select(['id', 'name'])
      .where('id', '=', id)
      .executeTakeFirst();
  };

  const publishedJobs = async (accountId: string): Promise<Job[]> =>
    (await models.allOfTypes(accountId, [jobModel.type]))
      .flatMap((row) => {
        const parsed = jobAttributesSchema.safeParse(JSON.parse(row.attributes));
        return parsed.success && parsed.data.published ? [{ id: row.id, ...parsed.data }] : [];
      })
      .sort((a, b) => a.title.localeCompare(b.title));

  interface Page {
    readonly path: string;
    readonly title: string;
    readonly description: string;
    readonly body: string;
    readonly status?: 200 | 404;
  }

  /** The whole page around `page.body`, and its headers. */
  const render = async (
    c: Context<AppEnv>,
    make: (
      t: (s: string, ...v: string[]) => string,
      lang: Language,
      chosen: Language | null,
      name: string,
      jobs: Job[],
    ) => Page,
  ) => {
    const lang = readerLang(c);
    const chosen = c.req.query('lang') === lang ? lang : null;
    const t = (source: string, ...values: string[]) => deps.translate(lang, source, ...values);
    const { design } = await deps.accounts.designForHost(c.req.header('host'));
    const top = await topAccount();
    const name = design.title ?? top?.name ?? 'Machine Platform';
    const jobs = top === undefined ? [] : await publishedJobs(top.id);
    const page = make(t, lang, chosen, name, jobs);
    const origin = new URL(c.req.url).origin;
    const css = style(design);
    const logo =
      design.logoDesktopDark ?? design.logoMobileDark ?? design.logoDesktop ?? design.logoMobile;
    const brand =
      logo === null
        ? escapeHtml(name)
        : `<img src="${escapeHtml(logo)}" alt="${escapeHtml(name)}">`;
    const current = (path: string) => (path === page.path ? ' aria-current="page"' : '');
    const nav = [
      ['/', t(PUBLIC_TEXTS.home)],
      ['/about', t(PUBLIC_TEXTS.about)],
      ['/jobs', t(PUBLIC_TEXTS.jobs)],
    ]
      .map(
        ([path = '', label = '']) =>
          `<li><a href="${escapeHtml(href(path, chosen))}"${current(path)}>${escapeHtml(label)}</a></li>`,
      )
      .join('');
    const languages = LANGUAGES.filter((l) => l !== 'plain')
      .map(
        (l) =>
          `<li><a href="${escapeHtml(href(page.path, l))}" hreflang="${l}" lang="${l}"${
            l === lang ? ' aria-current="true"' : ''
          }>${escapeHtml(LANGUAGE_ENDONYMS[l])}</a></li>`,
      )
      .join('');
    const alternates = LANGUAGES.filter((l) => l !== 'plain')
      .map(
        (l) =>
          `<link rel="alternate" hreflang="${l}" href="${escapeHtml(origin + href(page.path, l))}">`,
      )
      .join('\n');
    const html = `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)}</title>
<meta name="description" content="${escapeHtml(page.description)}">
<link rel="canonical" href="${escapeHtml(origin + page.path)}">
${alternates}
<meta property="og:title" content="${escapeHtml(page.title)}">
<meta property="og:description" content="${escapeHtml(page.description)}">
<style>${css}</style>
</head>
<body>
<header><div class="bar">
<a class="brand" href="${escapeHtml(href('/', chosen))}">${brand}</a>
<nav aria-label="${escapeHtml(name)}"><ul>${nav}<li><a class="button" href="/user/login">${escapeHtml(t(PUBLIC_TEXTS.signIn))}</a></li></ul></nav>
</div></header>
<main>
${page.body}
</main>
<footer><nav aria-label="${escapeHtml(t(PUBLIC_TEXTS.language))}"><ul>${languages}</ul></nav></footer>
</body>
</html>
`;
    c.header('Content-Security-Policy', policy(css));
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Referrer-Policy', 'strict-origin-when-cross-origin');
    c.header('X-Frame-Options', 'DENY');
    c.header('Content-Language', lang);
    // Per language and host: a shared cache keeps them apart.
    c.header('Vary', 'Accept-Language, Host');
    c.header('Cache-Control', 'no-cache');
    return c.html(html, page.status ?? 200);
  };

  const jobFacts = (t: (s: string) => string, job: Job) =>
    [
      job.location,
      job.scope,
      t(job.full_time ? PUBLIC_TEXTS.fullTime : PUBLIC_TEXTS.partTime),
      t(job.permanent ? PUBLIC_TEXTS.permanent : PUBLIC_TEXTS.fixedTerm),
    ]
      .filter((f) => f !== '')
      .map(escapeHtml)
      .join(' · ');

  app.get('/', (c) =>
    render(c, (t, _lang, chosen, name, jobs) => ({
      path: '/',
      title: t(PUBLIC_TEXTS.landingTitle, name),
      description: t(PUBLIC_TEXTS.landingLead),
      body: `<h1>${escapeHtml(t(PUBLIC_TEXTS.landingTitle, name))}</h1>
<p>${escapeHtml(t(PUBLIC_TEXTS.landingLead))}</p>
<p><a class="button" href="/user/login">${escapeHtml(t(PUBLIC_TEXTS.signIn))}</a></p>
${jobs.length === 0 ? '' : `<p><a href="${escapeHtml(href('/jobs', chosen))}">${escapeHtml(t(PUBLIC_TEXTS.landingJobs))}</a></p>`}`,
    })),
  );

  app.get('/about', (c) =>
    render(c, (t, _lang, _chosen, name) => ({
      path: '/about',
      title: t(PUBLIC_TEXTS.aboutTitle, name),
      description: t(PUBLIC_TEXTS.aboutText, name),
      body: `<h1>${escapeHtml(t(PUBLIC_TEXTS.aboutTitle, name))}</h1>
<p>${escapeHtml(t(PUBLIC_TEXTS.aboutText, name))}</p>`,
    })),
  );

  app.get('/jobs', (c) =>
    render(c, (t, _lang, chosen, name, jobs) => ({
      path: '/jobs',
      title: t(PUBLIC_TEXTS.jobsTitle, name),
      description: t(PUBLIC_TEXTS.jobsLead),
      body: `<h1>${escapeHtml(t(PUBLIC_TEXTS.jobsTitle, name))}</h1>
<p>${escapeHtml(t(PUBLIC_TEXTS.jobsLead))}</p>
${
  jobs.length === 0
    ? `<p>${escapeHtml(t(PUBLIC_TEXTS.noJobs))}</p>`
    : `<ul class="jobs">${jobs
        .map(
          (job) =>
            `<li><h2><a href="${escapeHtml(href(`/jobs/${job.slug}`, chosen))}">${escapeHtml(job.title)}</a></h2><p class="facts">${jobFacts(t, job)}</p></li>`,
        )
        .join('')}</ul>`
}`,
    })),
  );

  app.get('/jobs/:slug', (c) =>
    render(c, (t, _lang, chosen, name, jobs) => {
      const slug = c.req.param('slug');
      const job = jobs.find((j) => j.slug === slug);
      if (job === undefined)
        return {
          path: `/jobs/${slug}`,
          title: t(PUBLIC_TEXTS.notFound),
          description: t(PUBLIC_TEXTS.notFound),
          status: 404,
          body: `<h1>${escapeHtml(t(PUBLIC_TEXTS.notFound))}</h1>
<p><a href="${escapeHtml(href('/jobs', chosen))}">${escapeHtml(t(PUBLIC_TEXTS.allJobs))}</a></p>`,
        };
      const fact = (label: string, value: string) =>
        value === '' ? '' : `<dt>${escapeHtml(label)}</dt><dd>${escapeHtml(value)}</dd>`;
      const summary = paragraphs(job.text)
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim();
      return {
        path: `/jobs/${job.slug}`,
        title: `${job.title} · ${name}`,
        description: (summary === '' ? jobFacts(t, job) : summary).slice(0, 160),
        body: `<h1>${escapeHtml(job.title)}</h1>
<dl class="facts">${fact(t(PUBLIC_TEXTS.location), job.location)}${fact(t(PUBLIC_TEXTS.scope), job.scope)}${fact(t(PUBLIC_TEXTS.hours), t(job.full_time ? PUBLIC_TEXTS.fullTime : PUBLIC_TEXTS.partTime))}${fact(t(PUBLIC_TEXTS.contract), t(job.permanent ? PUBLIC_TEXTS.permanent : PUBLIC_TEXTS.fixedTerm))}</dl>
${paragraphs(job.text)}
${job.apply_url === null ? '' : `<p><a class="button" href="${escapeHtml(job.apply_url)}" rel="noopener noreferrer">${escapeHtml(t(PUBLIC_TEXTS.apply))}</a></p>`}
<p><a href="${escapeHtml(href('/jobs', chosen))}">${escapeHtml(t(PUBLIC_TEXTS.allJobs))}</a></p>`,
      };
    }),
  );

  app.get('/sitemap.xml', async (c) => {
    const origin = new URL(c.req.url).origin;
    const top = await topAccount();
    const jobs = top === undefined ? [] : await publishedJobs(top.id);
    const paths = ['/', '/about', '/jobs', ...jobs.map((j) => `/jobs/${j.slug}`)];
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${paths.map((p) => `<url><loc>${escapeHtml(origin + p)}</loc></url>`).join('\n')}
</urlset>
`;
    c.header('Content-Type', 'application/xml; charset=utf-8');
    c.header('X-Content-Type-Options', 'nosniff');
    return c.body(xml);
  });

  app.get('/robots.txt', (c) => {
    const origin = new URL(c.req.url).origin;
    c.header('Content-Type', 'text/plain; charset=utf-8');
    return c.body(
      `User-agent: *\nAllow: /\nDisallow: /app\nDisallow: /api\nDisallow: /user\nSitemap: ${origin}/sitemap.xml\n`,
    );
  });

  return app;
}
