import { z } from 'zod';
import { deferred } from '../deferred';
import { DEFAULT_LANGUAGE, LANGUAGES } from '../constants';
import { FORM_TEXTS } from '../models/form-texts';
import { REPORT_TEXTS } from '../models/report';

/*
 * The service booklet as a PDF (issue 37 item 3): GET assets/{id}/servicebooklet.pdf draws the
 * asset's timeline as the booklet screen shows it (filled-in forms, acknowledged alarms, service
 * requests, updates of its gateway), each kind only for who may view it.
 */

/** What the booklet's timeline holds; the screen's filter and the PDF's `kinds`. */
export const BOOKLET_KINDS = ['entry', 'ack', 'service', 'deployment'] as const;
export type BookletKind = (typeof BOOKLET_KINDS)[number];

/** How much one PDF holds at most: the newest items, and the photos and signatures among them. */
export const BOOKLET_LIMITS = { items: 200, images: 40 } as const;

function knownTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** `?kinds=entry,ack&lang=de&tz=Europe/Berlin`: which kinds (all when left out), words, zone. */
export const serviceBookletQuerySchema = /* @__PURE__ */ deferred(() =>
  z.object({
    kinds: z
      .string()
      .max(100, FORM_TEXTS.option)
      .default(BOOKLET_KINDS.join(','))
      .transform((s) => [...new Set(s.split(',').filter((k) => k !== ''))])
      .pipe(z.array(z.enum(BOOKLET_KINDS, { error: FORM_TEXTS.option }))),
    lang: z.enum(LANGUAGES, { error: FORM_TEXTS.option }).default(DEFAULT_LANGUAGE),
    /** The IANA zone its times are written in (the reader's). */
    tz: z.string().min(1).max(64).refine(knownTimeZone, REPORT_TEXTS.timeZone).default('UTC'),
  }),
);
export type ServiceBookletQuery = z.output<typeof serviceBookletQuerySchema>;
export type ServiceBookletQueryInput = z.input<typeof serviceBookletQuerySchema>;
