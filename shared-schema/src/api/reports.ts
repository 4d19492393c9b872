import { z } from 'zod';
import { deferred } from '../deferred';
import { REPORT_RUN_STATES } from '../models/report';
import { idField } from './fields';

/*
 * The report calls beside the synced `report` model (DESIGN.md §12, issue 31 items 4 and 5):
 * POST reports/{id}/send (send now), GET reports/{id}/runs (the runs with each recipient's
 * outcome and files), GET reports/{id}/runs/{runid}/files/{n} (one file's bytes).
 */

/** How one recipient fared in a run. */
export const REPORT_DELIVERY_STATES = ['sent', 'failed', 'skipped', 'waiting'] as const;
export type ReportDeliveryState = (typeof REPORT_DELIVERY_STATES)[number];

/** Why a recipient got nothing (English message ids; the client translates them). */
export const REPORT_SKIP_TEXTS = {
  notMember: 'Not a member of the account.',
  seesNothing: 'This recipient may see none of the data of this report.',
  unconfirmed: 'The address has not confirmed yet.',
  restricted: 'Outside addresses get only data every member may see.',
  mailFailed: 'The mail could not be sent.',
} as const;

/** One file of a run (a recipient's PDF or CSV), downloaded by its index. */
export const reportRunFileSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    index: z.number().int(),
    name: z.string(),
    type: z.enum(['pdf', 'csv']),
    size: z.number().int(),
    /** Who it was made for (a user's name or the address). */
    recipient: z.string(),
  }),
);
export type ReportRunFile = z.infer<typeof reportRunFileSchema>;

export const reportRunRecipientSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    /** The user's name, or the outside address. */
    recipient: z.string(),
    state: z.enum(REPORT_DELIVERY_STATES),
    /** Why it was skipped or failed (REPORT_SKIP_TEXTS), else null. */
    reason: z.string().nullable(),
  }),
);
export type ReportRunRecipient = z.infer<typeof reportRunRecipientSchema>;

/** One run of a report: when it was due, how it went, for whom, and its files. */
export const reportRunSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    id: z.string(),
    /** The time it was due (epoch ms), or when "Send now" was pressed. */
    at: z.number(),
    /** The range it showed (epoch ms). */
    from: z.number(),
    to: z.number(),
    state: z.enum(REPORT_RUN_STATES),
    /** Set when it failed: REPORT_TEXTS.pdfFailed. */
    error: z.string().nullable(),
    /** How many times it was tried. */
    attempts: z.number().int(),
    /** "Send now" rather than the schedule. */
    manual: z.boolean(),
    recipients: z.array(reportRunRecipientSchema),
    files: z.array(reportRunFileSchema),
  }),
);
export type ReportRun = z.infer<typeof reportRunSchema>;

export const reportRunsSchema = /* @__PURE__ */ deferred(() => z.array(reportRunSchema));

export const reportRunFileParamsSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    id: idField,
    runid: idField,
    index: z.coerce.number().int().min(0).max(1000),
  }),
);
