import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  contactField,
  nextDeliverySlot,
  notificationSettingsSchema,
  userProfileSchema,
  type NotificationSettings,
} from './profile';

/*
 * A user's details and notification window (spec 001 §3, §5, §9): the phone rule, and when a
 * message raised outside the window is delivered (the next slot), across days, past midnight and
 * over the switch to summer time.
 */
const profile = (phone: string) =>
  userProfileSchema.safeParse({
    firstname: 'Ada',
    lastname: 'Admin',
    email: 'ada@example.com',
    phone,
    language: 'de',
  });

const workdays = (timezone = 'Europe/Berlin'): NotificationSettings => ({
  channels: ['mail', 'sms'],
  window: { days: [1, 2, 3, 4, 5], from: '07:00', to: '18:00', timezone },
});
const at = (iso: string) => Date.parse(iso);

describe('asset contacts', () => {
  it('take an e-mail address, a phone number or a Telegram name, and nothing else', () => {
    for (const ok of ['ana@example.com', '+49 170 1234567', '@plant_service', ' @ana_k '])
      expect(contactField.safeParse(ok).success).toBe(true);
    for (const bad of ['', 'call Ana', '@ana', 'ana@', '12', '@name with space']) {
      const parsed = contactField.safeParse(bad);
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]?.message).toBe(
        'Must be a valid email address, phone number or telegram number',
      );
    }
  });
});

describe('user details', () => {
  it('takes phone numbers as people write them, and refuses what is none', () => {
    for (const ok of ['', '+49 (0) 170-1234567', '0711 / 123 456'])
      expect(profile(ok).success).toBe(true);
    for (const bad of ['call me', '123', '+49 170 1234 5678 9012 3456 7']) {
      const parsed = profile(bad);
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]?.message).toBe(
        'Must be a valid email address, phone number or telegram number',
      );
    }
  });

  it('refuses a window that is no time', () => {
    for (const window of [
      { days: [1], from: '25:00', to: '06:00', timezone: 'Europe/Berlin' },
      { days: [], from: '07:00', to: '08:00', timezone: 'Europe/Berlin' },
      { days: [1], from: '07:00', to: '07:00', timezone: 'Europe/Berlin' },
      { days: [1], from: '07:00', to: '08:00', timezone: 'Mars/Olympus' },
    ]) {
      const parsed = notificationSettingsSchema.safeParse({ channels: ['mail'], window });
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]?.message).toBe('The time needs to be valid');
    }
  });
});

describe('the next delivery slot', () => {
  it('inside the window: at once; outside: when it opens next', () => {
    // Tuesday 08:00 in Berlin (UTC+1 in November).
    expect(nextDeliverySlot(workdays(), at('2026-11-24T07:00:00Z'))).toBe(
      at('2026-11-24T07:00:00Z'),
    );
    // Tuesday 18:00: the window just closed; Wednesday 07:00.
    expect(nextDeliverySlot(workdays(), at('2026-11-24T17:00:00Z'))).toBe(
      at('2026-11-25T06:00:00Z'),
    );
    // Saturday 10:00: Monday 07:00.
    expect(nextDeliverySlot(workdays(), at('2026-11-28T09:00:00Z'))).toBe(
      at('2026-11-30T06:00:00Z'),
    );
    // No window: any time.
    expect(nextDeliverySlot({ channels: ['push'], window: null }, 42)).toBe(42);
  });

  it('a window past midnight belongs to the day it starts', () => {
    const fridayNights: NotificationSettings = {
      channels: ['sms'],
      window: { days: [5], from: '22:00', to: '06:00', timezone: 'Europe/Berlin' },
    };
    // Saturday 03:00 is Friday night's window.
    expect(nextDeliverySlot(fridayNights, at('2026-11-28T02:00:00Z'))).toBe(
      at('2026-11-28T02:00:00Z'),
    );
    // Saturday 07:00: next Friday 22:00.
    expect(nextDeliverySlot(fridayNights, at('2026-11-28T06:00:00Z'))).toBe(
      at('2026-12-04T21:00:00Z'),
    );
  });

  it('over the switch to summer time, the hour that does not exist is skipped', () => {
    const sundayNight: NotificationSettings = {
      channels: ['mail'],
      window: { days: [0], from: '02:30', to: '04:00', timezone: 'Europe/Berlin' },
    };
    // Saturday 28 March 2026, noon; on Sunday 02:00 becomes 03:00 (UTC+2 from then).
    expect(nextDeliverySlot(sundayNight, at('2026-03-28T11:00:00Z'))).toBe(
      at('2026-03-29T01:00:00Z'),
    );
  });

  it('a slot is never before the message, and is itself inside the window', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: at('2026-01-01T00:00:00Z'), max: at('2027-01-01T00:00:00Z') }),
        fc.uniqueArray(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 7 }),
        fc.integer({ min: 0, max: 23 }),
        fc.integer({ min: 1, max: 23 }),
        fc.constantFrom('Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'UTC'),
        (when, days, fromHour, length, timezone) => {
          const pad = (h: number) => `${String(h % 24).padStart(2, '0')}:00`;
          const settings: NotificationSettings = {
            channels: ['mail'],
            window: { days, from: pad(fromHour), to: pad(fromHour + length), timezone },
          };
          const slot = nextDeliverySlot(settings, when);
          expect(slot).toBeGreaterThanOrEqual(when);
          expect(slot - when).toBeLessThanOrEqual(8 * 24 * 3_600_000);
          expect(nextDeliverySlot(settings, slot)).toBe(slot);
        },
      ),
      { numRuns: 60 },
    );
  });
});
