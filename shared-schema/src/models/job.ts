import { z } from 'zod';
import { deferred } from '../deferred';
import type { ModelDefinition } from './registry-types';
import { ownPermissions } from './model-permissions';

/*
 * Jobs (DESIGN.md §16, issue 36 item 3, spec 001 §1: jobs with location, scope, full time,
 * permanent): written in the app by the top account (the machine builder's), published on the
 * public pages /jobs and /jobs/{slug}, which the server renders as plain HTML.
 */

/** The jobs' check texts (English message ids; the client translates them). */
export const JOB_TEXTS = {
  title: 'Enter the job title',
  /** Spec 001 §5. */
  location: 'Please provide an address',
  link: 'Please provide a valid link',
  slug: 'An address is lower-case letters, digits and hyphens, like service-technician.',
  slugTaken: 'Another job has this address already.',
  topAccount: 'Jobs are published by the top account, the machine builder’s.',
} as const;

const required = (message: string, max: number) =>
  z.string({ error: message }).trim().min(1, { error: message, abort: true }).max(max, message);

/** A job's address on the public pages: /jobs/{slug}. */
export const jobSlugField = /* @__PURE__ */ deferred(() =>
  z
    .string({ error: JOB_TEXTS.slug })
    .max(80, JOB_TEXTS.slug)
    .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, JOB_TEXTS.slug),
);

/** A job's slug made from its title: lower-case words of letters and digits, joined by hyphens. */
export function slugOf(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
}

export const jobAttributesSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    title: required(JOB_TEXTS.title, 200),
    slug: jobSlugField,
    location: required(JOB_TEXTS.location, 200),
    /** What the work is about (the team, the area, the travel). */
    scope: z.string().trim().max(300).default(''),
    full_time: z.boolean().default(true),
    permanent: z.boolean().default(true),
    /** The description: paragraphs separated by empty lines, shown as text. */
    text: z.string().max(20_000).default(''),
    /** Where to apply: an https address or a mailto: link. */
    apply_url: z
      .string()
      .trim()
      .max(2000)
      .regex(/^(https:\/\/[^\s]+|mailto:[^\s@]+@[^\s@]+)$/, JOB_TEXTS.link)
      .nullable()
      .default(null),
    /** Shown on the public pages. */
    published: z.boolean().default(false),
  }),
);
export type JobAttributes = z.infer<typeof jobAttributesSchema>;

export const jobModel = {
  type: 'job',
  collection: 'jobs',
  parentType: 'account',
  attributes: jobAttributesSchema,
  permissions: ownPermissions('job'),
  sortField: 'title',
} as const satisfies ModelDefinition<'job', typeof jobAttributesSchema>;
