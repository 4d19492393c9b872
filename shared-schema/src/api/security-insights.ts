import { z } from 'zod';
import { deferred } from '../deferred';
import { INSIGHT_LIMITS, SECURITY_INSIGHTS_TEXTS } from './security-insights-texts';
export { INSIGHT_LIMITS, SECURITY_INSIGHTS_TEXTS } from './security-insights-texts';

/*
 * Security insights (issue 38 item 1, DESIGN.md §16): checks over facts the server holds about
 * an account, each passing, failing or dismissed by an admin until a date, and the threats it
 * counted (failed sign-ins, rate-limit hits, broker refusals, CSP reports).
 *
 * GET security-insights              the overview: `{ data: { taken_at, checks, trend } }`
 * GET security-insights/threats      the threat overview's time series and top lists
 * POST/DELETE security-insights/checks/{id}/dismissal   an admin dismisses a check, or takes it back
 * POST csp-reports                   the app tells of a Content-Security-Policy violation
 */

/** The checks, in the order the overview shows them. */
export const INSIGHT_CHECK_IDS = [
  'second_factor',
  'inactive_members',
  'admins',
  'tokens',
  'gateway_agents',
  'revoked_keys',
  'opcua_security',
  'signin_refusals',
  'broker_refusals',
] as const;
export type InsightCheckId = (typeof INSIGHT_CHECK_IDS)[number];

export const INSIGHT_STATES = ['passing', 'failing', 'dismissed'] as const;
export type InsightState = (typeof INSIGHT_STATES)[number];

export const INSIGHT_SEVERITIES = ['high', 'medium', 'low'] as const;
export type InsightSeverity = (typeof INSIGHT_SEVERITIES)[number];

/** The checks whose items are gateways or their connections: each viewer sees its assets' only. */
export const ASSET_BOUND_CHECKS: ReadonlySet<InsightCheckId> = new Set([
  'gateway_agents',
  'revoked_keys',
  'opcua_security',
]);

/** What an item is. */
export const INSIGHT_ITEM_TYPES = [
  'member',
  'token',
  'gateway',
  'connection',
  'address',
  'user',
] as const;

/** Why an item is listed. */
export const INSIGHT_REASONS = [
  /** A member: holds the admin role (listed first in the second-factor check). */
  'admin',
  'no_second_factor',
  /** A member: no sign-in or token use for INSIGHT_LIMITS.inactiveDays. */
  'inactive',
  /** A token: lives INSIGHT_LIMITS.tokenNoExpiryDays or longer. */
  'no_expiry',
  /** A token: made more than INSIGHT_LIMITS.tokenDays ago. */
  'old',
  /** A token: not used for INSIGHT_LIMITS.tokenDays (or never, since it was made that long ago). */
  'unused',
  /** A gateway: its agent runs an older version than the account's active agent release. */
  'behind',
  /** A gateway: a revoked key of it tried to connect within INSIGHT_LIMITS.knockDays. */
  'revoked_key',
  /** An OPC UA connection: security mode None. */
  'no_security',
  /** An address or a member: refused within the last 24 hours. */
  'refused',
] as const;
export type InsightReason = (typeof INSIGHT_REASONS)[number];

export const insightItemSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    type: z.enum(INSIGHT_ITEM_TYPES),
    id: z.string(),
    /** What people call it: a member's name, a token's, a gateway's, an address. */
    name: z.string(),
    reasons: z.array(z.enum(INSIGHT_REASONS)),
    /** A number the check counts for it (refusals, knocks), else null. */
    count: z.number().int().nullable(),
    /** When it last happened (last activity, last knock), ms; null: never. */
    at: z.number().nullable(),
    /**
     * More to say: a member's e-mail address, a token's owner, a gateway's agent version, a
     * connection's gateway id.
     */
    detail: z.string().nullable(),
  }),
);
export type InsightItem = z.infer<typeof insightItemSchema>;

export const insightDismissalSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    reason: z.string(),
    expires_at: z.number(),
    /** Who dismissed it (a member's name, or null when that member is gone). */
    by: z.string().nullable(),
    at: z.number(),
  }),
);
export type InsightDismissal = z.infer<typeof insightDismissalSchema>;

export const insightCheckSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    id: z.enum(INSIGHT_CHECK_IDS),
    state: z.enum(INSIGHT_STATES),
    /** How many items fail it (of those the viewer may see), or the figure it weighs (admins). */
    count: z.number().int(),
    severity: z.enum(INSIGHT_SEVERITIES),
    /** The failing items the viewer may see, at most INSIGHT_LIMITS.itemsMax. */
    items: z.array(insightItemSchema),
    dismissal: insightDismissalSchema.nullable(),
  }),
);
export type InsightCheck = z.infer<typeof insightCheckSchema>;

/** One day of the 90-day trend: the checks' states as the leader's daily snapshot took them. */
export const insightTrendDaySchema = /* @__PURE__ */ deferred(() =>
  z.object({
    /** UTC day, YYYY-MM-DD. */
    day: z.string(),
    failing: z.number().int(),
    /** Each check's count that day (checks the viewer may not weigh are left out). */
    counts: z.record(z.string(), z.number().int()),
  }),
);
export type InsightTrendDay = z.infer<typeof insightTrendDaySchema>;

export const securityInsightsSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    /** When the checks were evaluated (ms): the page says "as of" this time. */
    taken_at: z.number(),
    checks: z.array(insightCheckSchema),
    /** Oldest first, at most INSIGHT_LIMITS.historyDays days. */
    trend: z.array(insightTrendDaySchema),
    /** Whether the viewer may dismiss checks (account::edit). */
    may_dismiss: z.boolean(),
  }),
);
export type SecurityInsights = z.infer<typeof securityInsightsSchema>;

/** POST security-insights/checks/{id}/dismissal. */
export const insightDismissSchema = /* @__PURE__ */ deferred(() =>
  z.strictObject({
    reason: z
      .string({ error: SECURITY_INSIGHTS_TEXTS.reasonMissing })
      .trim()
      .min(1, { error: SECURITY_INSIGHTS_TEXTS.reasonMissing, abort: true })
      .max(INSIGHT_LIMITS.reasonMaxChars),
    /** When the check comes back (ms): in the future, at most INSIGHT_LIMITS.dismissMaxDays ahead. */
    expires_at: z
      .number({ error: SECURITY_INSIGHTS_TEXTS.expiryInvalid })
      .int({ error: SECURITY_INSIGHTS_TEXTS.expiryInvalid })
      .positive({ error: SECURITY_INSIGHTS_TEXTS.expiryInvalid })
      .max(8_640_000_000_000_000, { error: SECURITY_INSIGHTS_TEXTS.expiryInvalid }),
  }),
);
export type InsightDismiss = z.infer<typeof insightDismissSchema>;

export const insightCheckParamsSchema = /* @__PURE__ */ deferred(() =>
  z.object({ id: z.enum(INSIGHT_CHECK_IDS) }),
);

/** The threat overview's period, in days. */
export const THREAT_PERIODS = [7, 30, 90] as const;

export const threatsQuerySchema = /* @__PURE__ */ deferred(() =>
  z.object({
    days: z.coerce
      .number()
      .int()
      .refine((d) => (THREAT_PERIODS as readonly number[]).includes(d), {
        error: SECURITY_INSIGHTS_TEXTS.periodInvalid,
      })
      .default(30),
  }),
);

/** The key of the sum of what fell out of a day's top list (INSIGHT_LIMITS.topKeys). */
export const OTHERS_KEY = '*';

export const threatTopSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    /** An address, a user id, a client, a directive; OTHERS_KEY: the rest together. */
    key: z.string(),
    /** A user's e-mail address, a gateway's name; null when the key says it. */
    name: z.string().nullable(),
    count: z.number().int(),
  }),
);
export type ThreatTop = z.infer<typeof threatTopSchema>;

export const threatDaySchema = /* @__PURE__ */ deferred(() =>
  z.object({
    day: z.string(),
    signin_failed: z.number().int(),
    rate_limited: z.number().int(),
    broker_refused: z.number().int(),
    csp_reports: z.number().int(),
  }),
);
export type ThreatDay = z.infer<typeof threatDaySchema>;

export const securityThreatsSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    taken_at: z.number(),
    days: z.number().int(),
    /** One entry per UTC day of the period, oldest first (days without events are zeros). */
    series: z.array(threatDaySchema),
    signin_by_address: z.array(threatTopSchema),
    signin_by_user: z.array(threatTopSchema),
    rate_limited_by_address: z.array(threatTopSchema),
    broker_by_client: z.array(threatTopSchema),
    csp_by_directive: z.array(threatTopSchema),
  }),
);
export type SecurityThreats = z.infer<typeof securityThreatsSchema>;

/** POST csp-reports: what the app's `securitypolicyviolation` listener saw. */
export const cspReportSchema = /* @__PURE__ */ deferred(() =>
  z.strictObject({
    /** The directive that refused (`script-src-elem`, …). */
    directive: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .regex(/^[a-z-]+$/),
    /** What was refused: an origin, 'inline' or 'eval' (the page cuts a URL to its origin). */
    blocked: z.string().trim().max(300).default(''),
  }),
);
export type CspReport = z.infer<typeof cspReportSchema>;
