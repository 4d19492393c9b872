import type { ReportAttributes, ReportSchedule } from '@plant/shared-schema';

/**
 * When a report goes out next (DESIGN.md §12, spec 001 §9): a schedule in its own IANA time zone
 * (daily, weekly on a weekday, monthly on a day: a month without that day sends on its last), or
 * every `interval_ms` counted from the last due time (or from now when there is none). Paused
 * reports have none. Pure functions of the clock: the scheduler and the model writes share them.
 */

const MINUTE = 60_000;
const DAY = 86_400_000;

/** The wall clock of `tz` at the instant `ms`, as if it were UTC (its offset in ms: that - ms). */
function wallClock(ms: number, tz: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: tz,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(ms));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? '0');
  return Date.UTC(
    get('year'),
    get('month') - 1,
    get('day'),
    get('hour'),
    get('minute'),
    get('second'),
  );
}

/**
 * The instant at which the wall clock of `tz` shows `local` (a wall time written as UTC ms). A
 * time that does not exist (the hour skipped in spring) is taken an hour later; one that occurs
 * twice (autumn) the first time.
 */
export function instantOf(local: number, tz: string): number {
  let guess = local - (wallClock(local, tz) - local);
  for (let i = 0; i < 3; i += 1) {
    const shown = wallClock(guess, tz);
    if (shown === local) break;
    guess += local - shown;
  }
  const earlier = guess - 3_600_000;
  if (wallClock(earlier, tz) === local) return earlier;
  return guess;
}

/** The day `monthday` of a month (its last when it has fewer days), as UTC ms at midnight. */
function dayOfMonth(year: number, month: number, monthday: number): number {
  const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return Date.UTC(year, month, Math.min(monthday, last));
}

/** The first time a schedule is due strictly after `after` (epoch ms). */
export function nextScheduled(schedule: ReportSchedule, after: number): number {
  const [hh, mm] = schedule.at.split(':').map(Number) as [number, number];
  const atMs = (hh * 60 + mm) * MINUTE;
  const today = wallClock(after, schedule.tz);
  const day0 = today - (today % DAY);
  // Candidates on local days from yesterday on, in order; the first after `after` wins.
  for (let d = -1; d < 70; d += 1) {
    const day = day0 + d * DAY;
    const date = new Date(day);
    if (schedule.every === 'week') {
      const weekday = ((date.getUTCDay() + 6) % 7) + 1;
      if (weekday !== schedule.weekday) continue;
    } else if (schedule.every === 'month') {
      const wanted = dayOfMonth(date.getUTCFullYear(), date.getUTCMonth(), schedule.monthday ?? 1);
      if (wanted !== day) continue;
    }
    const at = instantOf(day + atMs, schedule.tz);
    if (at > after) return at;
  }
  throw new Error('no next time for a schedule within 70 days');
}

/**
 * When the report is due next, after a run due at `lastDue` (or, without one, from `now`): null
 * when paused or without a schedule and an interval. A time already past (the server was down)
 * is not caught up run by run: the next is the first one after `now`.
 */
export function nextRunAt(
  report: Pick<ReportAttributes, 'state' | 'schedule' | 'interval_ms'>,
  now: number,
  lastDue?: number,
): number | null {
  if (report.state !== 'active') return null;
  if (report.schedule !== null)
    return nextScheduled(report.schedule, Math.max(now, lastDue ?? now));
  const every = report.interval_ms;
  if (every === null) return null;
  if (lastDue === undefined) return now + every;
  let next = lastDue + every;
  if (next <= now) next += Math.ceil((now - next + 1) / every) * every;
  return next;
}
