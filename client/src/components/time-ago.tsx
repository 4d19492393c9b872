import { useEffect, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Tooltip } from '@mantine/core';
import { useAtomValue } from 'jotai';
import { syncStatusAtom } from '../sync/status';

/*
 * Relative times, in one place (issue 30 item 6): counted on the server's clock (the worker
 * measures how far it is from this device's, `SyncStatus.clockOffsetMs`), and a past event never
 * reads as future: anything under a minute old, or "ahead" by a clock's error, is "just now".
 */

/** Under this age (and for anything ahead of now) a past event is "just now". */
export const JUST_NOW_MS = 60_000;

/** The server's "now" on this device, moving every `everyMs` and whenever the offset is measured. */
export function useServerNow(everyMs = 30_000): number {
  const offset = useAtomValue(syncStatusAtom).clockOffsetMs;
  const [deviceNow, setDeviceNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setDeviceNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return deviceNow + offset;
}

const UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400_000],
  ['month', 30 * 86_400_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/** "just now", "5 minutes ago", "3 days ago": the largest whole unit of a past event's age. */
export function relativeTime(i18n: I18n, at: number, now: number): string {
  const age = now - at;
  if (age < JUST_NOW_MS) return i18n._(msg`just now`);
  const format = new Intl.RelativeTimeFormat(i18n.locale, { numeric: 'auto' });
  for (const [unit, size] of UNITS) {
    if (age >= size) return format.format(-Math.floor(age / size), unit);
  }
  return format.format(-Math.floor(age / 60_000), 'minute');
}

export function absoluteTime(i18n: I18n, at: number): string {
  return i18n.date(new Date(at), { dateStyle: 'medium', timeStyle: 'short' });
}

/** A past time as "5 minutes ago", the date and time on hover and for screen readers. */
export function TimeAgo(props: { readonly at: number; readonly now: number }) {
  const { i18n } = useLingui();
  const absolute = absoluteTime(i18n, props.at);
  return (
    <Tooltip label={absolute}>
      <time dateTime={new Date(props.at).toISOString()} title={absolute}>
        {relativeTime(i18n, props.at, props.now)}
      </time>
    </Tooltip>
  );
}
