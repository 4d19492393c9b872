import { z } from 'zod';
import { deferred } from '../deferred';
import { LANGUAGES } from '../constants';
import { emailField, firstnameField, lastnameField } from './fields';
import { CONTACT_NOT_VALID, TIME_NOT_VALID } from './profile-texts';
export { EMAIL_CHANGE_OWN, CONTACT_NOT_VALID, TIME_NOT_VALID } from './profile-texts';

/** A phone number as people write it: +, digits, spaces, brackets, dashes; 5 to 20 digits. */
export const phoneField = /* @__PURE__ */ deferred(() =>
  z
    .string()
    .trim()
    .max(30, CONTACT_NOT_VALID)
    .refine((v) => v === '' || /^\+?[0-9 ()/-]+$/.test(v), CONTACT_NOT_VALID)
    .refine((v) => {
      if (v === '') return true;
      const digits = v.replace(/\D/g, '').length;
      return digits >= 5 && digits <= 20;
    }, CONTACT_NOT_VALID),
);

/** A Telegram user name: @ and 5 to 32 letters, digits or underscores. */
const TELEGRAM = /^@[A-Za-z0-9_]{5,32}$/;

/**
 * A way to reach someone (an asset's contact, spec 001 §5): an e-mail address, a phone number or
 * a Telegram name, else 'Must be a valid email address, phone number or telegram number'.
 */
export const contactField = /* @__PURE__ */ deferred(() =>
  z
    .string({ error: CONTACT_NOT_VALID })
    .trim()
    .min(1, CONTACT_NOT_VALID)
    .max(250, CONTACT_NOT_VALID)
    .refine(
      (v) => z.email().safeParse(v).success || TELEGRAM.test(v) || phoneField.safeParse(v).success,
      CONTACT_NOT_VALID,
    ),
);

/** A user's details (spec 001 §3 User): the user itself, or an admin with user::edit. */
export const userProfileSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    firstname: firstnameField,
    lastname: lastnameField,
    email: emailField,
    phone: phoneField,
    language: z.enum(LANGUAGES),
  }),
);

/**
 * A change of them. A new e-mail address (the sign-in, and where reset links go) is made only by
 * the user itself, with its password: nobody else can move another user's sign-in elsewhere.
 */
export const userProfileChangeSchema = /* @__PURE__ */ deferred(() =>
  userProfileSchema.extend({
    password: z.string().max(200).optional(),
  }),
);
export type UserProfileChange = z.infer<typeof userProfileChangeSchema>;

export type UserProfile = z.infer<typeof userProfileSchema>;

export const NOTIFICATION_CHANNELS = ['mail', 'sms', 'push'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

const timeOfDay = /* @__PURE__ */ deferred(() =>
  z.string().regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$/, TIME_NOT_VALID),
);

/**
 * How and when a user is told of alarms (spec 001 §3, §9): its channels, and a window of times
 * (days of the week, 0 = Sunday, and from/to in its time zone; `to` before `from` runs past
 * midnight). Outside the window, delivery waits for the next slot. No window: any time.
 */
export const notificationSettingsSchema = /* @__PURE__ */ deferred(() =>
  z.object({
    channels: z.array(z.enum(NOTIFICATION_CHANNELS)).max(3),
    window: z
      .object({
        days: z.array(z.number().int().min(0).max(6)).min(1, TIME_NOT_VALID).max(7),
        from: timeOfDay,
        to: timeOfDay,
        timezone: z
          .string()
          .max(64)
          .refine((tz) => {
            try {
              new Intl.DateTimeFormat('en-US', { timeZone: tz });
              return true;
            } catch {
              return false;
            }
          }, TIME_NOT_VALID),
      })
      .refine((w) => w.from !== w.to, { message: TIME_NOT_VALID, path: ['to'] })
      .nullable(),
  }),
);
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;

export const DEFAULT_NOTIFICATIONS: NotificationSettings = { channels: ['mail'], window: null };

type Window = NonNullable<NotificationSettings['window']>;

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** The weekday and minute of the day at `ms` in `timezone`. */
function localTime(ms: number, format: Intl.DateTimeFormat): { day: number; minute: number } {
  const parts = format.formatToParts(new Date(ms));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const hour = Number(get('hour')) % 24;
  return { day: WEEKDAYS.indexOf(get('weekday')), minute: hour * 60 + Number(get('minute')) };
}

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** Whether the local day and minute lie inside the window (an overnight one belongs to its start day). */
function inside(w: Window, day: number, minute: number): boolean {
  const from = minutes(w.from);
  const to = minutes(w.to);
  if (from < to) return w.days.includes(day) && minute >= from && minute < to;
  // Past midnight: the evening part on a chosen day, the morning part on the day after one.
  if (minute >= from) return w.days.includes(day);
  return minute < to && w.days.includes((day + 6) % 7);
}

/**
 * When a message raised at `at` (epoch ms) may be delivered: at once inside the window (or
 * without one), else the first minute the window opens again (spec 001 §9: "outside it, delivery
 * goes to the next slot"). Walks minute by minute in the user's time zone, so summer time and
 * its hours that do not exist are handled by the platform's own calendar.
 */
export function nextDeliverySlot(settings: NotificationSettings, at: number): number {
  const w = settings.window;
  if (w === null) return at;
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone: w.timezone,
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  const first = localTime(at, format);
  if (inside(w, first.day, first.minute)) return at;
  const start = Math.floor(at / 60_000) * 60_000 + 60_000;
  for (let t = start; t <= at + 8 * 24 * 3_600_000; t += 60_000) {
    const local = localTime(t, format);
    if (inside(w, local.day, local.minute)) return t;
  }
  return at;
}
