import { z } from 'zod';
import { deferred } from '../deferred';
import { idField } from './fields';
import { ALARM_SEVERITIES, ALARM_STATUS_STATES } from '../models/alarm';

/** The kinds of event in an alarm's history. */
export const ALARM_EVENT_KINDS = ['raised', 'cleared', 'acknowledged'] as const;

/** One event of the alarm history (GET alarms/{id}/history, GET alarm-history). */
export const alarmEventSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    id: z.string(),
    alarm_id: z.string(),
    asset_id: z.string().nullable(),
    kind: z.enum(ALARM_EVENT_KINDS),
    /** When it happened (epoch ms): a raise or clear at its point's time. */
    ts: z.number(),
    value: z.number().nullable(),
    /** The repeat count after it. */
    count: z.number().int(),
    by_user: z.string().nullable(),
    note: z.string().nullable(),
  }),
);
export type AlarmEvent = z.infer<typeof alarmEventSchema>;

/** A page of history: newest first; `before` the ts to ask the next page with, null at the end. */
export interface AlarmHistoryPage {
  readonly events: readonly AlarmEvent[];
  readonly before: number | null;
}

/** The history's query: a page of at most `limit` events older than `before`, of one asset. */
export const alarmHistoryQuerySchema = /* @__PURE__ */ deferred(() =>
  z.strictObject({
    asset_id: idField.optional(),
    before: z.coerce.number().int().positive().optional(),
    limit: z.coerce.number().int().min(1).max(500).default(100),
  }),
);
export type AlarmHistoryQuery = z.infer<typeof alarmHistoryQuerySchema>;

/**
 * GET user/{id}/notificationtrigger (spec 000 §7, its answer not shown there): what wants the
 * user's attention now, the active alarms not yet acknowledged that it sees, worst first.
 */
export const notificationTriggerSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    count: z.number().int(),
    alarms: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        asset_id: z.string(),
        severity: z.enum(ALARM_SEVERITIES),
        state: z.enum(ALARM_STATUS_STATES),
        since: z.number().nullable(),
        count: z.number().int(),
      }),
    ),
  }),
);
export type NotificationTrigger = z.infer<typeof notificationTriggerSchema>;

/**
 * The account's alarm settings (GET, PUT account/alarm-settings; PUT needs account::edit): whether
 * a critical alarm reaches users outside their notification window (spec 001 §9 "outside it,
 * delivery goes to the next slot"; issue 17: "a critical severity may override, as the account
 * decides"). Off by default.
 */
export const alarmSettingsSchema = /* @__PURE__ */ deferred(() =>
  z.strictObject({
    critical_overrides_window: z.boolean(),
  }),
);
export type AlarmSettings = z.infer<typeof alarmSettingsSchema>;

/** Who may change the account's alarm settings. */
export const ALARM_SETTINGS_PERMISSION = 'account::edit';
